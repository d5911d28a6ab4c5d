"""EVA's progression rubric on findings grounded in the record: the severity floor.

The ordinal model of `progression` weighs counts fitted on 34 people's labels; it cannot say
that two needless calls are "multiple instances" (rated 1) nor see an issue it has no count
for. This module reads three classes the rubric defines by what the record shows, and rates
them by the rubric's own words, fitted on nothing:

* `needless_calls` (unnecessary_tool_calls): a call identical to an earlier one whose response
  succeeded, with no write between (a write changes what a lookup returns); or a call with
  empty or placeholder parameters ("calling a tool with empty or missing required parameters,
  causing a predictable error"). One is 2, two or more are 1 ("multiple instances");
* `reasked_facts` (information_loss): an agent question asking for "your <field>" when a call
  already succeeded with that field filled ("re-asking the user for information they already
  provided ... and it was used successfully"). One is 2, two or more 1;
* `vague_questions` (question_quality): an open "what would you like to do?" after the caller
  has stated a request and before any write ("asking an overly vague question when the user's
  goal was clear", the rubric's example of a severe issue): 1.

The overall rating follows the rubric: 1 if a dimension is at 1 or three are flagged, 2 if
one or two are at 2, else 3. `progression` takes the lower of this and its model's rating, so
the floor only ever lowers a rating, and only where one of these findings is in the record.
"""

from __future__ import annotations

import json
import re
from typing import Any

from voxbench.eval.context import strip_tags
from voxbench.eval.offline._caller_facts import field_words
from voxbench.eval.offline.lang import alt, word_set

DIMENSION = {
    "needless_calls": "unnecessary_tool_calls",
    "reasked_facts": "information_loss",
    "vague_questions": "question_quality",
}
SEVERE = {"vague_questions"}
"""Classes the rubric names as a single severe issue (one is a 1)."""
_VAGUE = re.compile(rf"\b(?:{alt('_progression_rubric', 'vague_question')})\b", re.I)
_ASKS = re.compile(rf"\b(?:{alt('_progression_rubric', 'asks_for')})\b", re.I)
_OTHER = re.compile(rf"\b(?:{alt('_progression_rubric', 'other_owner')})\b", re.I)
_UNSTATED = re.compile(rf"\b(?:{alt('_progression_rubric', 'unstated_request')})", re.I)
_CLOSING = re.compile(r"\belse\b", re.I)
MAX_VAGUE_WORDS = 12
MIN_REQUEST_WORDS = 5


def _params(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return {}
    return raw if isinstance(raw, dict) else {}


def _ok(resp: Any) -> bool:
    """A response that succeeded (EVA's `status`; no status, no error type: success)."""
    if not isinstance(resp, dict):
        return True
    return str(resp.get("status", "success")).lower() == "success" and not resp.get("error_type")


def _calls(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each tool call with its position, parameters and whether its response succeeded (the
    next response of the same tool)."""
    out: list[dict[str, Any]] = []
    for i, e in enumerate(trace):
        if e.get("type") == "tool_call":
            out.append({"at": i, "name": str(e.get("tool_name")), "params": _params(e.get("parameters")),
                        "turn": e.get("turn_id"), "ok": True})  # fmt: skip
        elif e.get("type") == "tool_response":
            mine = [c for c in out if c["name"] == str(e.get("tool_name")) and "answered" not in c]
            if mine:
                mine[0]["answered"] = True
                mine[0]["ok"] = _ok(e.get("tool_response"))
    return out


def needless_calls(
    trace: list[dict[str, Any]],
    writes: set[str],
    placeholder: re.Pattern[str],
    categorical: set[tuple[str, str]],
) -> list[dict[str, Any]]:
    """Identical calls after a success with no write between, and empty/placeholder calls."""
    out = []
    done: dict[str, int] = {}
    for c in _calls(trace):
        key = c["name"] + json.dumps(c["params"], sort_keys=True, default=str)
        holes = [k for k, v in c["params"].items() if isinstance(v, str) and placeholder.match(v.strip())]
        if key in done:
            out.append({"feature": "needless_calls", "turn": c["turn"], "claim": key[:160],
                        "rule": f"identical call after a successful one (turn {done[key]}), no write between"})  # fmt: skip
        elif not c["params"] or any((c["name"], k) not in categorical for k in holes):
            out.append({"feature": "needless_calls", "turn": c["turn"], "claim": key[:160],
                        "rule": "call with empty or placeholder parameters"})  # fmt: skip
        if c["name"] in writes:
            done.clear()
        elif c["ok"]:
            done.setdefault(key, c["turn"])
    return out


def _words(s: str) -> set[str]:
    s = re.sub(r"\bi\s*\.?\s*d\b", "id", s.lower())
    return set(re.findall(r"[a-z0-9]+", s))


def _questions(e: dict[str, Any]) -> list[str]:
    text = strip_tags(str(e.get("content", "")))
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s.rstrip().endswith("?")]


def reasked_facts(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Agent questions asking for "your <field>" when a call already succeeded with that field
    filled (and the question does not read the value back)."""
    used: dict[str, str] = {}
    ok = {c["at"]: c for c in _calls(trace)}
    out = []
    for i, e in enumerate(trace):
        c = ok.get(i)
        if c is not None and c["ok"]:
            used.update(
                {k: str(v) for k, v in c["params"].items() if isinstance(v, str | int) and str(v).strip()}
            )
        if e.get("role") != "assistant":
            continue
        for q in _questions(e):
            w = _words(q)
            if "your" not in w or not _ASKS.search(q) or _OTHER.search(q):
                continue
            hit = [
                k
                for k, v in used.items()
                if (fw := field_words(k)) and fw <= w and v.lower() not in q.lower()
            ]
            if hit:
                out.append({"feature": "reasked_facts", "turn": e.get("turn_id"), "claim": q[:160],
                            "rule": f"asks again for {hit[0]}, already used in a successful call"})  # fmt: skip
    return out


def _open(q: str) -> bool:
    """An open "what would you like to do?" (not "anything else?", not a choice between options)."""
    return (
        bool(_VAGUE.search(q))
        and not _CLOSING.search(q)
        and " or " not in q
        and len(q.split()) <= MAX_VAGUE_WORDS
    )


def vague_questions(trace: list[dict[str, Any]], writes: set[str]) -> list[dict[str, Any]]:
    """Open questions asked once the caller has stated its request, before any write call.

    The request is stated by the caller's opening line, or by its answer to an open question,
    when that line has 5+ words and does not only announce requests to come ("I have a few
    things I need help with"): after such an announcement, asking which one is no vague
    question. Lines answering other questions (identity, values) state no request."""
    out: list[dict[str, Any]] = []
    stated, first, asked_open = False, True, False
    for e in trace:
        if e.get("type") == "tool_call" and str(e.get("tool_name")) in writes:
            break
        if e.get("role") == "user":
            said = strip_tags(str(e.get("content", ""))).strip().rstrip(".!")
            concrete = len(said.split()) >= MIN_REQUEST_WORDS and not _UNSTATED.search(said)
            stated = stated or ((first or asked_open) and concrete)
            first = False
        if e.get("role") != "assistant":
            continue
        qs = [q for q in _questions(e) if _open(q)]
        asked_open = bool(qs)
        if stated:
            out.extend({"feature": "vague_questions", "turn": e.get("turn_id"), "claim": q[:160],
                        "rule": "open question after the caller stated a clear request"} for q in qs)  # fmt: skip
    return out


def rubric_rating(found: list[dict[str, Any]], also_flagged: set[str]) -> tuple[int, dict[str, int]]:
    """(overall 1-3, each flagged dimension's 1-2) by the rubric's severity wording.
    `also_flagged`: dimensions the model's findings flag (repeated statements); they count
    toward "three or more dimensions flagged" but rate nothing by themselves."""
    dims: dict[str, int] = {}
    for kind, dim in DIMENSION.items():
        n = sum(x["feature"] == kind for x in found)
        if n:
            dims[dim] = min(dims.get(dim, 3), 1 if n >= 2 or kind in SEVERE else 2)
    if not dims:
        return 3, dims
    return (1 if min(dims.values()) == 1 or len(set(dims) | also_flagged) >= 3 else 2), dims


_NUMBER_WORDS = word_set("_progression_rubric", "number_words")


def values(s: str) -> list[str]:
    """The value tokens of a sentence: numbers (digits or words) and spelled letters ("E M P")."""
    toks = re.findall(r"[A-Za-z0-9$]+(?:[:.,][0-9]+)*", s)
    return [
        t.lower()
        for t in toks
        if any(c.isdigit() for c in t)
        or t.lower() in _NUMBER_WORDS
        or (len(t) == 1 and t.isupper() and t != "I")
    ]
