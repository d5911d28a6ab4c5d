"""Offline conciseness: each agent turn rated 1-3 for listening load by a small fitted model.

A listener's load grows with how much is said and how dense it is: words, sentences,
numbers (times, amounts, flight numbers), options offered in one breath, and unrequested
explanation ("normally...", "the system..."). Those counts, measured on the agent's turn
(and the length of the caller's turn it answers), feed the two-step logistic model of
`_ordinal` (P(rating 1), P(rating <= 2)), fitted on the visible half of EVA's human conciseness labels by
`scripts/fit_offline_judges.py` (constants in `params.json`). Aggregation is EVA's: score =
mean rating, normalised = mean of (rating - 1) / 2, `<mode>_rate` sub-metrics.

A turn that reads out more than five values of one of its tool responses (values the caller
gave or asked about not counted) is rated 1, `excess_information_density`
(`conciseness_faults.py`): the labels hold no tool responses, so the counts cannot learn it.
Sentences the listener did not need (the previous turn's statements said again, filler,
background nobody asked for; `conciseness_said.py`) are EVA's minor failure modes, which the
labels hardly hold: one mode found rates the turn at most 2, two at most 1.

Each turn's evidence says what was counted and which counts pulled the rating down; the
failure modes are the modes those counts stand for.
"""

from __future__ import annotations

import math
import re
from statistics import mean
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import fitted_method, offline_method
from voxbench.eval.offline._ordinal import Model, fit_two_step, shipped_model
from voxbench.eval.offline._trace import infer_tool_kind, tool_kinds
from voxbench.eval.offline.conciseness_faults import READ_OUT_MAX, TurnView, read_out, turn_views
from voxbench.eval.offline.conciseness_said import closing, not_needed
from voxbench.eval.types import MetricResult, sub

NAME = "conciseness"
MODES = (
    "verbosity_or_filler",
    "excess_information_density",
    "over_enumeration_or_list_exhaustion",
    "contextually_disproportionate_detail",
)
FEATURES = (
    "log_words",
    "words_per_100",
    "numbers_per_5",
    "sentences_per_5",
    "explanations",
    "options",
    "commas_per_5",
    "log_caller_words",
)
# which failure mode a feature that pulled the rating down stands for
FEATURE_MODE = {
    "log_words": "verbosity_or_filler",
    "words_per_100": "verbosity_or_filler",
    "sentences_per_5": "verbosity_or_filler",
    "commas_per_5": "excess_information_density",
    "numbers_per_5": "excess_information_density",
    "options": "over_enumeration_or_list_exhaustion",
    "explanations": "contextually_disproportionate_detail",
}

_NUM_WORDS = (
    "zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand"
)
_NW = _NUM_WORDS.replace(" ", "|")
# a number said as digits ("12:30", "$440") or as a run of number words ("four forty-five")
NUMBER = re.compile(rf"\b(?:\d[\d,.:]*|(?:{_NW})(?:[- ](?:{_NW}))*)\b", re.IGNORECASE)
# unrequested background: how things usually work, why the system did something
EXPLANATION = re.compile(
    r"\b(typically|normally|generally|in general|usually|the way (?:it|this) works|that means|"
    r"because|since|so that|the system|automatically|just so you know|keep in mind)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def turn_features(text: str, caller_text: str = "") -> dict[str, float]:
    """The counts the model reads, for one agent turn (tags stripped)."""
    text = strip_tags(text)
    words = len(text.split())
    sentences = len([s for s in SENTENCE_END.split(text.strip()) if s.strip()])
    return {
        "log_words": math.log(words + 1),
        "words_per_100": words / 100,
        "numbers_per_5": len(NUMBER.findall(text)) / 5,
        "sentences_per_5": sentences / 5,
        "explanations": float(len(EXPLANATION.findall(text))),
        "options": float(text.count(";") + len(re.findall(r"\bor\b", text, re.IGNORECASE))),
        "commas_per_5": text.count(",") / 5,
        "log_caller_words": math.log(len(strip_tags(caller_text).split()) + 1),
    }


def agent_turns(ctx: ConversationContext) -> dict[int, tuple[str, str]]:
    """{turn_id: (agent text, caller text)} of the turns where the agent spoke."""
    return {t: (v.text, v.caller) for t, v in turn_views(ctx).items()}


def _turn_evidence(
    t: int,
    v: TurnView,
    model: Model,
    previous: str = "",
    wrap_up: bool = False,
    wrote: bool = False,
    earlier: str = "",
) -> tuple[int, list[str], dict[str, Any]]:
    f = turn_features(v.text, v.caller)
    r, how, contrib = model.explain(f)
    down = sorted((c, k) for k, c in contrib.items() if c < -0.25) if r < 3 else []
    modes = [] if r == 3 else list(dict.fromkeys(FEATURE_MODE[k] for _, k in down if k in FEATURE_MODE))
    if r < 3 and not modes:
        modes = ["verbosity_or_filler"]
    found = not_needed(v.text, previous, v.caller, wrap_up, wrote, earlier)
    counted, r = r, found.rated(r)
    if found.modes:
        modes = list(dict.fromkeys([*found.modes, *modes]))
    words = round(math.exp(f["log_words"]) - 1)
    claim = (
        f"{words} words, {round(f['numbers_per_5'] * 5)} numbers, {round(f['sentences_per_5'] * 5)} "
        f"sentences, {int(f['options'])} option separators, {int(f['explanations'])} explanation cues"
    )
    rule = f"listening load: {how}" + (
        f"; pulled down by {', '.join(f'{k} {c:+.2f}' for c, k in down[:3])}" if down else ""
    )
    if found.modes:
        n = len(found.modes)
        claim += f"; {found.claim()}"
        rule += f"; {n} minor mode{'s' * (n > 1)} of content not needed (EVA: one minor mode 2, more 1)"
        rule += f" -> {r}" if r < counted else ""
    said = read_out(v)
    if said:
        claim += f", {said} value{'s' * (said > 1)} of one tool response read out"
    if said > READ_OUT_MAX:
        r, modes = 1, list(dict.fromkeys(["excess_information_density", *modes]))
        rule += f"; more than {READ_OUT_MAX} values of one tool response read out -> 1"
    return r, modes, {"turn": t, "claim": claim, "rule": rule, "rating": r}


def rate_with(ctx: ConversationContext, model: Model) -> MetricResult:
    """Rate every agent turn with `model`; EVA's aggregation."""
    turns = turn_views(ctx)
    if not turns:
        return MetricResult.skip(NAME, "no assistant turns")
    ratings: dict[int, int] = {}
    modes: dict[int, list[str]] = {}
    evidence = []
    kinds = tool_kinds(ctx.agent_tools)
    order = list(turns)
    # the wrap-up: the final turn, and the recap before it when the caller's last line asks nothing new
    wrap_up = {order[-1], *([order[-2]] if len(order) > 1 and closing(turns[order[-1]].caller) else [])}
    previous = earlier = ""
    for t, v in turns.items():
        wrote = any((kinds.get(c) or infer_tool_kind(c)) == "write" for c in v.calls)
        ratings[t], modes[t], ev = _turn_evidence(t, v, model, previous, t in wrap_up, wrote, earlier)
        evidence.append(ev)
        previous, earlier = v.text, v.caller
    n = len(ratings)
    return MetricResult(
        name=NAME,
        score=round(mean(ratings.values()), 3),
        normalized_score=round(mean((r - 1) / 2 for r in ratings.values()), 3),
        details={
            "per_turn_rating": ratings,
            "per_turn_failure_modes": modes,
            "num_turns": n,
            "num_evaluated": n,
            "evidence": evidence,
        },
        sub_metrics={
            f"{m}_rate": sub(f"{m}_rate", round(sum(m in v for v in modes.values()) / n, 4)) for m in MODES
        },
    )


def fit(labelled: list[tuple[ConversationContext, Any]]) -> Model:
    """Fit on (context, {turn_id: human rating}) pairs: one row per human-rated agent turn."""
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    for ctx, human in labelled:
        turns = agent_turns(ctx)
        for t, r in human.items():
            if t in turns and r in (1, 2, 3):
                rows.append(turn_features(*turns[t]))
                labels.append(int(r))
    return fit_two_step(rows, labels, FEATURES)


@offline_method(NAME, method="listening-load-logit", version="4")
def conciseness_offline(ctx: ConversationContext) -> MetricResult:
    """Per-turn 1-3 listening load from word, number, sentence, option and explanation counts;
    a tool response read out is a 1; sentences not needed (said again, filler, background) are
    minor failure modes."""
    return rate_with(ctx, shipped_model(NAME))


fitted_method(NAME, fit=fit, rate_with=rate_with)
