"""Conciseness candidate measured and not kept: repetition, filler and unrelated detail read
from the record, on top of the shipped `listening-load-logit` (issue 30).

The shipped method rates a tool response read out 1 (`conciseness_faults.py`). This candidate
adds three more faults the human labels carry no weight for, each stated once:

- **restated**: a statement of the previous agent turn said again (four fifths of the content
  words of each the other's, no new value), the caller not having asked to hear it again; not
  a request (asking again is progression's matter), not an identifier given to note down, not
  after a write in the turn, not in the final turn. `verbosity_or_filler`.
- **says nothing**: a sentence of twelve or more words with no value, name or question whose
  content words, courtesy and hedging words aside, are (nearly) all absent from the record
  (the agent's role, policy and tools, what the caller said, the tools' calls and results).
  Two or more are filler (`verbosity_or_filler`); one with three or more words of its own is
  detail beyond the situation (`contextually_disproportionate_detail`); one courtesy sentence
  is politeness (people rate such turns 3).
- the rest of the turn is rated by the fitted counts, then one lower per mode found.

Measured on 2026-12-07 (injected sets with the shipped constants; the test half with constants
fitted on the dev half, as calibration does): injected verbosity (`offline_conciseness_independent.py`) seed 0 0.752 -> 0.851 (κ 0.475 -> 0.710),
seed 1 0.743 -> 0.847 (κ 0.451 -> 0.700), clean reference turns 0.884 unchanged; dev 5-fold CV
0.918 unchanged (no dev turn changes); test half 0.902 -> 0.893 (one turn of 112): not kept.
Sentences of filler written apart from the bench's wordings (12, paired around 34 reference
turns) are caught in 298 of 408 pairs (the bench's own filler in 0.92 of turns); the stop
words were widened once (to a standard English stop list) after these were first read, at
104 of 408.

    PYTHONPATH=src .venv/bin/python benchmarks/conciseness_record_faults.py [--seed 0] [--dev]

prints the injected figures, the held-out filler pairs (`HELD_OUT_FILLER`) and, with --dev,
dev CV.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from pathlib import Path
from statistics import mean
from typing import Any

from offline_conciseness_independent import run, summarise

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import FITTERS, Fitter, load_all
from voxbench.eval.offline import conciseness as C
from voxbench.eval.offline._ordinal import Model, fit_two_step, shipped_model
from voxbench.eval.offline._trace import as_dict, infer_tool_kind, tool_kinds
from voxbench.eval.offline.conciseness_faults import READ_OUT_MAX, read_out
from voxbench.eval.types import MetricResult, sub
from voxbench.spoken.words import MONTHS, ORDINALS, SCALES, TENS, UNITS

ROOT = Path(__file__).resolve().parents[1]
WORDS: dict[str, list[str]] = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
"""The candidate's word tables: stop words, courtesy and hedging words, the caller asking to
hear it again, the agent asking for something."""

FILLER_MIN_WORDS = 12
FILLER_SHARE = 0.2
DETAIL_MIN_WORDS = 3

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z0-9']+")
_DIGIT = re.compile(r"\d")
_SPELLED = re.compile(
    r"\b(?:[A-Z]|\d|zero|one|two|three|four|five|six|seven|eight|nine)(?:,?\s+(?:[A-Z]|\d|zero|one|two|three|four|five|six|seven|eight|nine)\b){2,}"
)
_NAME = re.compile(r"(?<![.!?]\s)\b[A-Z][a-z]")
"""A capitalised word not opening a sentence: a name, a place, a product."""
_VALUE_WORDS = frozenset([*UNITS, *TENS, *ORDINALS, *SCALES, *MONTHS])


@dataclass(frozen=True)
class Sentence:
    """One sentence of a turn, its words (lower case) and its content words."""

    text: str
    words: tuple[str, ...]
    content: frozenset[str]

    @property
    def statement(self) -> bool:
        """It tells: not a question, not a request to the caller (asking again is progression's
        matter), not an identifier given to note down (EVA never penalises reading a code out)."""
        s = self.text
        return not (s.rstrip().endswith("?") or _pattern("asks").search(s) or self.identifier)

    @property
    def identifier(self) -> bool:
        """A code spelled out is the sentence's point: at most three other content words."""
        return bool(_SPELLED.search(self.text)) and sum(not _is_value(w) for w in self.content) <= 3


class Record:
    """The words of the conversation's record: the agent's role, policy and tools, what the
    caller said, the tools called, their parameters and what they returned. Read only when a
    sentence could be filler; the policy's words are read once per policy."""

    def __init__(self, texts: list[str], policy: str = "", tools: list[dict[str, Any]] | None = None) -> None:
        self.texts, self.policy, self.tools = texts, policy, tools or []

    @cached_property
    def kinds(self) -> dict[str, str]:
        return tool_kinds(self.tools)

    def writes(self, names: list[str]) -> bool:
        """Whether one of the tools `names` writes."""
        return any((self.kinds.get(n) or infer_tool_kind(n)) == "write" for n in names)

    @cached_property
    def words(self) -> frozenset[str]:
        return _policy_words(self.policy) | frozenset(_words(" ".join(self.texts)))


@lru_cache(maxsize=16)
def _policy_words(policy: str) -> frozenset[str]:
    return frozenset(_words(policy.replace("_", " ")))


@dataclass
class TurnView:
    """One agent turn with what the rubric reads around it."""

    text: str
    caller: str = ""
    previous: TurnView | None = None
    responses: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    last: bool = False
    record: Record = field(default_factory=lambda: Record([]))
    heard: str = ""
    """Everything the caller said up to this turn (``conciseness_faults.read_out`` reads it)."""

    @cached_property
    def parts(self) -> list[Sentence]:
        return [
            Sentence(s, w, frozenset(_content(w))) for s in sentences(self.text) for w in [tuple(_words(s))]
        ]


@dataclass(frozen=True)
class Faults:
    """What the record shows in one turn: the sentences said again, the sentences that say
    nothing, one sentence of detail the record does not hold, the most values of one tool
    response read out."""

    restated: tuple[str, ...] = ()
    filler: tuple[str, ...] = ()
    detail: str = ""
    read_out: int = 0

    @property
    def modes(self) -> list[str]:
        out = ["verbosity_or_filler"] if self.restated or self.filler else []
        out += ["contextually_disproportionate_detail"] if self.detail else []
        return out + (["excess_information_density"] if self.read_out > READ_OUT_MAX else [])

    def rated(self, counted: int) -> int:
        """The turn's rating from the rating its rest's counts give: a record read out is 1;
        else one lower per mode found (EVA: one minor mode is a 2, more are a 1)."""
        if self.read_out > READ_OUT_MAX:
            return 1
        return max(1, counted - len(self.modes))

    @property
    def dropped(self) -> set[str]:
        """The sentences rated as faults, not counted again."""
        return {*self.restated, *self.filler, *([self.detail] if self.detail else [])}

    def claim(self) -> str:
        said = [f"said again: {s!r}" for s in self.restated] + [f"says nothing: {s!r}" for s in self.filler]
        said += [f"detail the record does not hold: {self.detail!r}"] if self.detail else []
        return "".join(f"; {x}" for x in said) + (
            f"; {self.read_out} values of one tool response read out" if self.read_out else ""
        )

    def rule(self) -> str:
        if self.read_out > READ_OUT_MAX:
            return f"; more than {READ_OUT_MAX} values of one tool response read out -> 1"
        return f"; {', '.join(self.modes)} found -> {len(self.modes)} lower" if self.modes else ""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text.strip()) if s.strip()]


def turn_views(ctx: ConversationContext) -> dict[int, TurnView]:
    """{turn_id: TurnView} of the turns where the agent spoke, in order."""
    views: dict[int, TurnView] = {}
    caller: dict[int, list[str]] = {}
    spoke: set[int] = set()
    record: list[str] = []
    for e in ctx.conversation_trace:
        t, role, typ = e.get("turn_id"), e.get("role"), e.get("type")
        if not isinstance(t, int):
            continue
        if role == "user":
            caller.setdefault(t, []).append(strip_tags(str(e.get("content", ""))))
            record.append(caller[t][-1])
        elif role == "assistant":
            spoke.add(t)
            v = views.setdefault(t, TurnView(text=""))
            v.text = " ".join(x for x in (v.text, str(e.get("content", ""))) if x)
        elif typ in ("tool_call", "tool_response"):
            v = views.setdefault(t, TurnView(text=""))
            name = str(e.get("tool_name"))
            record.append(f"{name} {e.get('parameters', '')} {e.get('tool_response', '')}".replace("_", " "))
            if typ == "tool_call":
                v.calls.append(name)
            if typ == "tool_response":
                v.responses.append(as_dict(e.get("tool_response")))
    spoken = {t: v for t, v in sorted(views.items()) if t in spoke}
    previous = None
    policy = "\n".join([ctx.agent_role, ctx.agent_instructions, _tool_text(ctx.agent_tools)])
    rec = Record(record, policy, ctx.agent_tools)
    for t, v in spoken.items():
        v.caller, v.previous, v.record, previous = " ".join(caller.get(t, [])), previous, rec, v
        v.heard = " ".join(x for u in sorted(caller) if u <= t for x in caller[u])
    if spoken:
        spoken[max(spoken)].last = True
    return spoken


@cache
def _lexicon(name: str) -> frozenset[str]:
    return frozenset(WORDS[name])


def _content(words: tuple[str, ...] | list[str]) -> set[str]:
    stop = _lexicon("stop")
    return {w for w in words if w not in stop and len(w) > 2}


def _is_value(word: str) -> bool:
    return word in _VALUE_WORDS or bool(_DIGIT.search(word))


@cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(WORDS[name])})\b", re.IGNORECASE)


def _said_again(s: Sentence, p: Sentence) -> bool:
    """`s` says `p` again: four fifths of the content words of each are the other's, and no
    value (number, month) of `s` is missing from `p`."""
    c, q = s.content, p.content
    common = len(c & q)
    return common >= 0.8 * max(len(c), len(q)) and not any(_is_value(w) for w in c - q)


def restated(v: TurnView) -> list[str]:
    """Statements of the previous agent turn said again (see the module doc)."""
    prev = v.previous
    if prev is None or v.last or _pattern("repeat_ask").search(v.caller):
        return []
    before = [p for p in prev.parts if len(p.content) >= 3]
    asked = _content(_words(v.caller)) if "?" in v.caller else set()
    out = []
    for s in v.parts:
        if len(s.words) < 5 or len(s.content) < 3 or s.content & asked:
            continue
        if any(_said_again(s, p) and p.statement for p in before) and s.statement:
            out.append(s.text)
    return [] if out and v.record.writes(v.calls) else out


def _tool_text(tools: list[dict[str, Any]] | None) -> str:
    return " ".join(f"{t.get('name', '')} {t.get('description', '')}" for t in tools or [])


def _unrelated(s: Sentence, record: Record) -> list[str] | None:
    """The content words, courtesy and hedging words aside, of a sentence of twelve or more
    words with no value, name or question, when (nearly) all of them are absent from the
    record; None for any other sentence."""
    if len(s.words) < FILLER_MIN_WORDS or s.text.rstrip().endswith("?") or _NAME.search(s.text.strip()[1:]):
        return None
    if _DIGIT.search(s.text) or any(_is_value(w) for w in s.words):
        return None
    own = [w for w in s.content if w not in _lexicon("filler")]
    return own if len(own) <= 1 or sum(w in record.words for w in own) <= FILLER_SHARE * len(own) else None


def filler(v: TurnView) -> tuple[list[str], str]:
    """(sentences that say nothing the record holds, when two or more: one courtesy sentence is
    politeness, and people rate such turns 3; else the one such sentence with three or more
    words of its own: detail beyond what the situation asks, or "")."""
    unrelated = [(s.text, own) for s in v.parts for own in [_unrelated(s, v.record)] if own is not None]
    if len(unrelated) >= 2:
        return [t for t, _ in unrelated], ""
    return [], next((t for t, own in unrelated if len(own) >= DETAIL_MIN_WORDS), "")


def faults(v: TurnView) -> Faults:
    nothing, detail = filler(v)
    return Faults(restated=tuple(restated(v)), filler=tuple(nothing), detail=detail, read_out=read_out(v))


def rest_of(v: TurnView, f: Faults) -> str:
    """The turn without its restated and filler sentences: what the counts rate."""
    drop = f.dropped
    return " ".join(s.text for s in v.parts if s.text not in drop) if drop else v.text


def _turn(t: int, v: TurnView, found: Faults, model: Model) -> tuple[int, list[str], dict[str, Any]]:
    f = C.turn_features(rest_of(v, found), v.caller)
    r, how, _ = model.explain(f)
    r = found.rated(r)
    modes = [] if r == 3 else (found.modes or ["verbosity_or_filler"])
    return r, modes, {"turn": t, "claim": found.claim(), "rule": how + found.rule(), "rating": r}


def rate_with(ctx: ConversationContext, model: Model) -> MetricResult:
    """The shipped method's rating of each turn's rest, with the faults found (EVA's aggregation)."""
    turns = {t: (v, faults(v)) for t, v in turn_views(ctx).items()}
    if not turns:
        return MetricResult.skip(C.NAME, "no assistant turns")
    rated = {t: _turn(t, v, found, model) for t, (v, found) in turns.items()}
    n = len(rated)
    return MetricResult(
        name=C.NAME,
        score=round(mean(r for r, _, _ in rated.values()), 3),
        normalized_score=round(mean((r - 1) / 2 for r, _, _ in rated.values()), 3),
        details={"per_turn_rating": {t: r for t, (r, _, _) in rated.items()},
                 "per_turn_failure_modes": {t: m for t, (_, m, _) in rated.items()},
                 "num_turns": n, "num_evaluated": n, "evidence": [e for _, _, e in rated.values()]},
        sub_metrics={f"{m}_rate": sub(f"{m}_rate", round(sum(m in x for _, x, _ in rated.values()) / n, 4))
                     for m in C.MODES},
    )  # fmt: skip


def fit(labelled: list[tuple[ConversationContext, Any]]) -> Model:
    """The shipped fit on the turns' rests."""
    rows, labels = [], []
    for ctx, human in labelled:
        turns = turn_views(ctx)
        for t, r in human.items():
            if t in turns and r in (1, 2, 3):
                rows.append(C.turn_features(rest_of(turns[t], faults(turns[t])), turns[t].caller))
                labels.append(int(r))
    return fit_two_step(rows, labels, C.FEATURES)


def dev_cv(seeds: int = 8) -> float:
    """Dev-half 5-fold CV (mean accuracy over fold seeds), the candidate in the shipped one's place."""
    from voxbench.cli.judges import agent_info, find_agent_config
    from voxbench.eval.calibration_items import load_items
    from voxbench.eval.calibration_offline import cross_validate
    from voxbench.eval.label_split import halves_of, load_split

    load_all()
    data = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"
    f = data / "conciseness.jsonl"
    _, items, _ = load_items(f, agent_info(find_agent_config(data)))
    halves = halves_of("conciseness", items, load_split(), hashlib.sha256(f.read_bytes()).hexdigest())
    assert halves is not None
    FITTERS[C.NAME] = Fitter(metric=C.NAME, fit=fit, rate_with=rate_with)
    accs = [
        float((cross_validate(C.NAME, halves["dev"], 5, s) or {})["agreement"]["accuracy"])
        for s in range(seeds)
    ]
    return sum(accs) / len(accs)


HELD_OUT_FILLER = [
    "Well, you know, I just want to say that I totally get where you are coming from on all of this.",
    "Honestly, it is no problem whatsoever, and I am always glad to be able to lend a hand with things like this.",
    "So, basically, what I am going to do here is take care of this for you as best as I possibly can.",
    "I really appreciate you taking the time to call in today and walk me through everything.",
    "Let me just say that you have been super patient and I am very grateful for that.",
    "Okay, alright, so let's see here, I want to be sure that we get all of this sorted out properly.",
    "Please know that your satisfaction really matters a lot to us and we always want to do right by you.",
    "If there is anything at all that you would like me to go over again, just let me know and I will.",
    "That's a really good point, and I am so glad that you brought it up with me just now.",
    "I totally understand how you feel, and I want you to know that I am here for you the whole way.",
    "Alright then, I think that pretty much covers it, but feel free to stop me at any point if you need to.",
    "Of course, it would be my absolute pleasure to go ahead and look into that for you right away.",
]
"""Filler written apart from the injected set's wordings, after the first tables were written."""


def held_out_pairs(eva: Path) -> tuple[int, int, int]:
    """(pairs found as filler, as detail, pairs): two held-out filler sentences around the
    middle agent turn of every fifth reference conversation, in that conversation's record."""
    from _injected import events, references

    from voxbench.eval.calibration_items import context_of, trace_from_events

    found = detail = n = 0
    for k, (_, _, ref, agent, when) in enumerate(references(eva, ["airline", "itsm", "medical_hr"])):
        if k % 5:
            continue
        views = list(turn_views(context_of("x", trace_from_events(events(ref)), agent, when)).values())
        v = views[len(views) // 2]
        for i, s in enumerate(HELD_OUT_FILLER):
            after = HELD_OUT_FILLER[(i + 5) % len(HELD_OUT_FILLER)]
            nothing, one = filler(TurnView(text=f"{s} {v.text} {after}", record=v.record))
            found, detail, n = found + bool(nothing), detail + bool(one), n + 1
    return found, detail, n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dev", action="store_true", help="also dev-half 5-fold CV (fold seeds 0-7)")
    args = ap.parse_args()
    model = shipped_model(C.NAME)
    eva = ROOT.parent / "shared" / "eva-data"
    res = run(eva, args.seed, ["airline", "itsm", "medical_hr"], False,
              method=lambda ctx: rate_with(ctx, model))  # fmt: skip
    s = summarise(res["rows"])
    a = s["all"]
    print(
        f"injected seed {args.seed}: acc {a['accuracy']} κ {a['cohen_kappa']} qwk {a['weighted_kappa_quadratic']}"
    )
    for kind, k in s["kinds"].items():
        print(f"  {kind:19} rated 3/2/1={k['ratings_3_2_1']} as labelled={k['exact']}")
    print(f"  ms per rated agent turn: {res['ms_per_turn']:.3f}")
    found, detail, pairs = held_out_pairs(eva)
    print(f"held-out filler pairs found as filler / as detail / pairs: {found} / {detail} / {pairs}")
    if args.dev:
        print(f"dev 5-fold CV, mean of fold seeds 0-7: acc {dev_cv():.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
