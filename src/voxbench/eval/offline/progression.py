"""Offline conversation_progression: 1-3 from the stalls the record shows, via a fitted model.

EVA's judge looks for unnecessary tool calls, information loss, redundant statements and
poor questions. The record carries direct evidence of the first three:

* a tool called again with identical parameters (it already had the answer), or the same
  tool called again at all (a re-lookup), or called with empty/placeholder parameters
  before the caller gave them (UNKNOWN, ABC123, "");
* an agent sentence that repeats an earlier one (near-identical wording);
* an agent question that repeats an earlier question (it asked for what it was told).

A sentence worded like an earlier one is no repeat when the record shows it is about another
request (`_news`): it carries a value a tool returned after the earlier one (the next request
number read in the same template), or it carries no value and a write finished in between (the
go-ahead asked for the next action). Found on EVA's reference conversations, correct agents'
multi-request calls; no labelled conversation's counts change.

Each finding is an evidence item {turn, claim, rule}. The counts feed the ordinal model of
`_ordinal` (fitted on the visible human labels by scripts/fit_offline_judges.py), which
weighs them into 1-3; the dimensions flagged follow EVA's names.

A class the rubric names as a flag outright (`_progression_flags`: a fact asked again after a
call used it, read from the caller giving the same value back) is not weighed: one caps the
rating at 2 (EVA's overall rule: a flagged dimension is no 3), two or more at 1 (the rubric's
"multiple instances"). The labels hold too few for a fitted weight to learn; a cap can only
lower a rating, like every count. So does `_progression_caps`: a write done again with the
same parameters after it succeeded, unasked (an action done twice, EVA's "single severe issue":
one caps at 1).

Every count is a stall, so the fit keeps every weight on the penalising side: one more
finding can only lower the rating or leave it. Fitted freely on EVA's labels (strong agents,
3 of 66 conversations with a repeated question) the repeated-question weight came out
rewarding, and an agent asking for the same confirmation number four times was rated 3.
Repeated questions and repeated statements enter the model as one count (a repeated
sentence either way), so the weight learned from the statements also prices the questions.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rapidfuzz import fuzz

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import fitted_method, offline_method
from voxbench.eval.offline._ordinal import Model, fit_ordinal, shipped_model
from voxbench.eval.offline._progression_caps import repeated_writes
from voxbench.eval.offline._progression_flags import reasked_facts
from voxbench.eval.offline._progression_record import Record, read_record, sentence_values
from voxbench.eval.offline._trace import enum_params
from voxbench.eval.types import MetricResult, sub

NAME = "conversation_progression"
DIMS = ("unnecessary_tool_calls", "information_loss", "redundant_statements", "question_quality")
KINDS = (
    "identical_calls",
    "repeated_tools",
    "placeholder_calls",
    "repeated_statements",
    "repeated_questions",
    "reasked_facts",
    "repeated_writes",
)
"""The kinds of finding, counted in `details["counts"]`."""
CAPPING = ("reasked_facts", "repeated_writes")
"""Kinds the model does not weigh (`_progression_flags`, `_progression_caps`): one finding of
them caps the rating at `CAP`, two or more of one kind at `CAP_MANY` (EVA's rubric: "multiple
instances of the same type of issue" rate the dimension 1), a `SEVERE` one at `CAP_MANY`."""
CAP = 2
CAP_MANY = 1
SEVERE = ("repeated_writes",)
"""Kinds one finding of which is EVA's "single severe issue": an action done twice."""
FEATURES = ("identical_calls", "repeated_tools", "placeholder_calls", "repeated_sentences")
"""What the model weighs: the counts, with repeated statements and questions pooled."""
POOLED = {"repeated_sentences": ("repeated_statements", "repeated_questions")}
FEATURE_DIM = {
    "identical_calls": "unnecessary_tool_calls",
    "repeated_tools": "unnecessary_tool_calls",
    "placeholder_calls": "unnecessary_tool_calls",
    "repeated_statements": "redundant_statements",
    "repeated_questions": "information_loss",
    "reasked_facts": "information_loss",
    "repeated_writes": "unnecessary_tool_calls",
}
PLACEHOLDER = re.compile(
    r"^(|unknown|n/?a|none|null|placeholder|tbd|to be determined|x{3,}|abc-?123|123456|string|\?+|<[^>]*>)$",
    re.IGNORECASE,
)
OPEN_OFFER = re.compile(r"\b(anything else|how (can|may) i help|what else can i)\b", re.I)
"""The greeting's or a closing's open offer of help ("Is there anything else I can help with
today?"): said again after each finished request it moves the call on; it is not a question
re-asked, and the greeting matched every closing."""
CONFIRM_STEP = re.compile(
    r"\b(read (that|those|it|them) back|say yes|is (that|this|all of that) correct|confirm (that|this) is"
    r"|approval to proceed|(shall|should|may) i proceed|want me to proceed)\b",
    re.I,
)
"""A read-back or a request for the go-ahead: each action of a multi-request call needs its own
(EVA's policies ask for explicit confirmation before every write), so asking again for the next
action is the procedure, not a redundant statement."""
SIMILAR_STATEMENT = 0.8
SIMILAR_QUESTION = 0.75
MIN_WORDS = 5


def params_of(raw: Any) -> dict[str, Any]:
    """A tool call's parameters as a dict (a JSON string parsed; anything else kept as ``raw``)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return {"raw": raw}
    return raw if isinstance(raw, dict) else {"raw": raw}


def _tool_findings(trace: list[dict[str, Any]], categorical: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Repeated, re-run and placeholder tool calls. A parameter whose schema lists its allowed
    values (`categorical`: (tool, parameter) pairs) holds a category, not a fact the caller
    owes: `meal_type: "none"` is a choice, not a placeholder."""
    seen_exact: dict[tuple[str, str], Any] = {}
    seen_name: dict[str, Any] = {}
    out = []
    for e in trace:
        if e.get("type") != "tool_call":
            continue
        name, t = str(e.get("tool_name")), e.get("turn_id")
        p = params_of(e.get("parameters"))
        key = (name, json.dumps(p, sort_keys=True, default=str))
        shown = f"{name}({key[1][:120]})"
        if key in seen_exact:
            out.append({"feature": "identical_calls", "turn": t, "claim": shown,
                        "rule": f"identical tool call repeated (first in turn {seen_exact[key]})"})  # fmt: skip
        elif name in seen_name:
            out.append({"feature": "repeated_tools", "turn": t, "claim": shown,
                        "rule": f"same tool called again (first in turn {seen_name[name]})"})  # fmt: skip
        holes = [k for k, v in p.items() if isinstance(v, str) and PLACEHOLDER.match(v.strip())]
        if not p or any((name, k) not in categorical for k in holes):
            out.append({"feature": "placeholder_calls", "turn": t, "claim": shown,
                        "rule": "tool called with empty or placeholder parameters"})  # fmt: skip
        seen_exact.setdefault(key, t)
        seen_name.setdefault(name, t)
    return out


def norm(s: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", s.lower()).strip()


def _repeats(
    items: list[tuple[int, int, str]], threshold: float, feature: str, what: str, rec: Record
) -> list[dict[str, Any]]:
    """Items (trace position, turn, text) whose wording matches an earlier one (rapidfuzz's
    normalised Indel similarity) and that tell the caller nothing it did not (`_news`)."""
    out = []
    normed = [norm(s) for _, _, s in items]
    values = [sentence_values(s, rec) for _, _, s in items]
    for k, (i, t, s) in enumerate(items):
        for (i0, t0, _), n0, v0 in zip(items[:k], normed[:k], values[:k], strict=True):
            similar = fuzz.ratio(normed[k], n0, score_cutoff=threshold * 100)
            if similar and not _news(values[k], v0, i0, i, rec):
                out.append({"feature": feature, "turn": t, "claim": s[:160], "rule": f"{what} (turn {t0})"})
                break
    return out


def _news(values: set[str], earlier: set[str], i0: int, i: int, rec: Record) -> bool:
    """A sentence worded like an earlier one still moves the call on when the record shows it
    is about something else: it carries a value the earlier one did not that a tool returned
    after the earlier one was said (the read-back template with the next request's number;
    "I found Datadog, catalog ID APP-1002" after the same line for Confluence), or it carries
    no value at all and between the two a write finished and the next request's lookup
    returned new values (the go-ahead asked again for the next request). A valueless line said
    again after a write with no new lookup is a repeat about the same request."""
    if any(rec.returned_between(v, i0, i) for v in values - earlier):
        return True
    return not values and rec.next_request_between(i0, i)


def _speech_findings(trace: list[dict[str, Any]], rec: Record) -> list[dict[str, Any]]:
    sentences: list[tuple[int, int, str]] = []
    questions: list[tuple[int, int, str]] = []
    for i, e in enumerate(trace):
        if e.get("role") != "assistant":
            continue
        text = strip_tags(str(e.get("content", "")))
        for s in re.split(r"(?<=[.!?])\s+", text):
            if len(s.split()) >= MIN_WORDS and not OPEN_OFFER.search(s) and not CONFIRM_STEP.search(s):
                (questions if s.rstrip().endswith("?") else sentences).append((i, e["turn_id"], s))
    said = _repeats(sentences, SIMILAR_STATEMENT, "repeated_statements", "repeats an earlier sentence", rec)
    return said + _repeats(
        questions, SIMILAR_QUESTION, "repeated_questions", "asks an earlier question again", rec
    )


def findings(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Every stall the record shows, as {feature, turn, claim, rule}."""
    categorical = enum_params(ctx.agent_tools or [])
    rec = read_record(ctx.conversation_trace, ctx.agent_tools or [])
    trace = ctx.conversation_trace
    tools = ctx.agent_tools or []
    auth = {str(t.get("name")) for t in tools if t.get("tool_type") == "auth"}
    flags = reasked_facts(trace, rec, categorical, CONFIRM_STEP, OPEN_OFFER, auth)
    flags += repeated_writes(trace, rec)
    return _tool_findings(trace, categorical) + _speech_findings(trace, rec) + flags


def counts(found: list[dict[str, Any]]) -> dict[str, float]:
    """How many findings of each kind."""
    return {k: float(sum(x["feature"] == k for x in found)) for k in KINDS}


def features(c: dict[str, float]) -> dict[str, float]:
    """The model's features from the counts (each a sum of counts, so each only grows with a finding)."""
    return {f: sum(c[k] for k in POOLED.get(f, (f,))) for f in FEATURES}


def cap_of(c: dict[str, float]) -> int:
    """The highest rating the `CAPPING` findings allow: 3 without one, `CAP` with one,
    `CAP_MANY` with two or more of one kind or one of a `SEVERE` kind."""
    return min([3] + [CAP_MANY if c.get(k, 0) >= 2 or k in SEVERE else CAP for k in CAPPING if c.get(k)])


def rating(model: Model, c: dict[str, float]) -> tuple[int, int, str, dict[str, float]]:
    """The rating of the counts, the model's own rating of the weighed ones, how, and the
    contributions. EVA's overall rule that three flagged dimensions rate 1 is not applied: the
    weighed counts give no per-dimension rating to count (see docs/judges.md)."""
    r, how, contrib = model.explain(features(c))
    cap = cap_of(c)
    if r > cap:
        capped = ", ".join(f"{k}={int(c[k])}" for k in CAPPING if c.get(k))
        return cap, r, f"{how}; capped at {cap}: {capped} (a flag by EVA's rubric)", contrib
    return r, r, how, contrib


def rate_with(ctx: ConversationContext, model: Model) -> MetricResult:
    if not any(e.get("role") == "assistant" for e in ctx.conversation_trace):
        return MetricResult.skip(NAME, "no assistant turns")
    found = findings(ctx)
    c = counts(found)
    r, weighed, how, contrib = rating(model, c)
    # a weighed finding flags its dimension only when the weighed counts alone rate below 3;
    # a capping finding always flags its own
    flagged = sorted({FEATURE_DIM[x["feature"]] for x in found if x["feature"] in CAPPING or weighed < 3})
    dims = {
        d: {"flagged": d in flagged, "evidence": [x for x in found if FEATURE_DIM[x["feature"]] == d]}
        for d in DIMS
    }
    evidence = [{k: x[k] for k in ("turn", "claim", "rule")} for x in found]
    evidence.append(
        {"turn": None, "claim": ", ".join(f"{k}={int(v)}" for k, v in c.items()),
         "rule": f"progression {how}"}
    )  # fmt: skip
    return MetricResult(
        name=NAME,
        score=float(r),
        normalized_score=(r - 1) / 2,
        details={
            "dimensions": dims,
            "flagged": flagged,
            "counts": c,
            "contributions": contrib,
            "evidence": evidence,
        },
        sub_metrics={f"{d}_rate": sub(f"{d}_rate", float(d in flagged)) for d in DIMS},
    )


def fit(labelled: list[tuple[ConversationContext, Any]]) -> Model:
    """Fit on (context, human 1-3 rating) pairs, one row per conversation."""
    rows = [features(counts(findings(ctx))) for ctx, h in labelled if h in (1, 2, 3)]
    labels = [int(h) for _, h in labelled if h in (1, 2, 3)]
    return fit_ordinal(rows, labels, FEATURES, l2=0.01, iters=6000, lr=0.2, penalising=FEATURES)


@offline_method(NAME, method="stall-count-ordinal", version="7")
def progression_offline(ctx: ConversationContext) -> MetricResult:
    """Overall 1-3 from repeated/placeholder tool calls and repeated sentences (statements or
    questions), capped at 2 by a re-asked fact (at 1 by two or more), at 1 by a write done
    twice unasked."""
    return rate_with(ctx, shipped_model(NAME))


fitted_method(NAME, fit=fit, rate_with=rate_with)
