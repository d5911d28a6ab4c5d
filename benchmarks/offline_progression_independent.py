"""The offline conversation_progression method on conversations whose rating is known by
construction: a check no progression weight or rule was fitted on.

EVA's visible progression labels are 66 conversations (34 dev / 32 test); every candidate
fitted on the dev half has failed on the test half. Here, as `offline_faith_independent.py`
does for faithfulness, each EVA reference conversation (all three domains,
`voxbench.eval.gateset`) is written as a record as it is and with progression faults injected
by its structure, never by an item, each labelled by EVA's conversation_progression rubric
(`configs/prompts/judge.yaml`; per dimension 2 for "a single isolated issue", 1 for "multiple
instances of the same type of issue" or "a single severe issue"; overall 3 if nothing is
flagged, 2 if one or two dimensions are at 2, 1 if any is at 1 or three are flagged):

| kind | injection | expected |
|---|---|---|
| clean | the reference conversation | 3 (a correct agent) |
| repeated_call | one successful read call made again at once with the same parameters and response | 2, unnecessary_tool_calls ("the same tool with the same parameters after a prior successful response") |
| repeated_call_twice | two different successful read calls, each made again | 1, unnecessary_tool_calls (multiple instances) |
| placeholder_call | before a lookup the caller's facts feed, the same tool called with those parameters empty, failing | 2, unnecessary_tool_calls ("empty or missing required parameters, causing a predictable error") |
| failed_retry | that empty call, failed, retried without change | 1, unnecessary_tool_calls (two instances) |
| corrected_retry | a lookup first made with one character of the caller's identifier wrong, failing, then made right | 3 ("retrying a tool call after a tool error with corrected parameters" is no flag) |
| reasked_fact | after a call used a fact the caller gave, the agent asks for it again ("your {field}" wordings) and the caller says it again | 2, information_loss ("re-asking the user for information they already provided") |
| reasked_fact_reworded | the same, the agent's line worded without "your" ("Remind me, what was the {field}?", "Could I have it again?", imperatives) | 2, information_loss |
| new_record | after that call, the agent asks for the same field of another record and the caller gives another value | 3 ("asking for information the user has not yet provided" is no flag) |
| asr_reask | the caller's line giving a fact cut off mid-way ("..." or an interruption tag), the agent asking again, the caller repeating it | 3 (a re-ask after a visible recognition failure is no flag) |
| repeated_statement | the declarative sentences of an agent line after a tool result said again at the start of its next line (not the final recap) | 2, redundant_statements |
| vague_question | where the caller's opening line names its goal (a content word of the scenario's `high_level_user_goal`), after its identity is verified, the agent asks what they would like to do and the caller restates the goal | 1, question_quality ("asking an overly vague question when the user's goal was clear", the rubric's example of a severe issue; its rating-2 list also names "one vague question") |
| two_dims | repeated_call + repeated_statement | 2 (two dimensions at 2) |
| three_dims | repeated_call + repeated_statement + reasked_fact | 1 (three dimensions flagged) |

Each tool call keeps the response the reference recorded; an injected failing call gets an
error response in EVA's shape (`status`, `error_type`, `message`). The labels are by
construction, not a person's or a frontier judge's rating; the wordings of the injected lines
are the tables below. Seed 0 is for development, seed 1 (other places, other wordings) is
held out; both draw from the same reference conversations and the same wording tables, so
seed 1 checks a method against other places and wordings, not against other conversations.
Prints per kind the share rated as labelled and the expected dimension flagged, accuracy /
κ / quadratic κ overall and per domain, and ms per conversation. Not a test.

Measured (issue 30, 2026-12-07): `stall-count-ordinal` 3, seed 0 0.635 / κ 0.436, seed 1
0.637 / κ 0.439 (1807 conversations; vague questions, re-asked facts and three flagged
dimensions are mostly missed, two needless calls rated 2 not 1). A rubric floor on grounded
findings (commit d4f06c8: needless calls, facts asked again, open questions once the goal is
stated, three dimensions; values-aware repeated sentences) reached seed 0 0.885 / κ 0.824 and
seed 1 0.887 / κ 0.827, but its vague-question and re-ask phrase lists were written knowing
this script's wordings, and on people's labels the test half fell (0.719 -> 0.688): measured
and not kept. `stall-count-ordinal` 5 (the next request's read-back or go-ahead no repeat; constants
unchanged): seed 0 0.644 / κ 0.453, seed 1 0.649 / κ 0.460; clean references rated 3 0.741 ->
0.849; every injected repeated statement still found, but with fewer false repeats in the
reference around it a fault alone more often stays rated 3 (repeated_statement 0.713 -> 0.629,
two needless calls 0.423 -> 0.260 rated 1). `stall-count-ordinal` 6 as mended (a re-asked fact read
from the caller giving a used value back; the kinds `reasked_fact_reworded` and `new_record` and
the tagged cut-off written before they were run, the re-ask answered with the value after the run
showed the old answer often held none; 2132 conversations): seed 0 0.720 / κ 0.554, seed 1 read
once 0.722 / κ 0.558 (version 5 0.622 and 0.625; version 6's first draft, which read "your" +
a field, 0.676 and 0.678: reworded re-asks 0.170 for it, 0.812 mended).

    PYTHONPATH=src .venv/bin/python benchmarks/offline_progression_independent.py [--seed 0]
        [--eva DIR] [--domains airline,itsm,medical_hr] [-v] [--json out.json]
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from _injected import Method, arguments, by_domain, events, per_kind, print_domains, rate_variants, write_json

from voxbench.eval.gateset.conversation import Line, RefConversation, Step, Tool, succeeded
from voxbench.eval.offline.progression import progression_offline
from voxbench.records import derive_seed
from voxbench.records.voice import split_sentences
from voxbench.spoken.dates import ISO_DATE
from voxbench.spoken.say import say_value

TOOLS, LOSS, REDUNDANT, QUESTION = (
    "unnecessary_tool_calls",
    "information_loss",
    "redundant_statements",
    "question_quality",
)
DIMENSIONS: dict[str, dict[str, int]] = {
    "clean": {},
    "repeated_call": {TOOLS: 2},
    "repeated_call_twice": {TOOLS: 1},
    "placeholder_call": {TOOLS: 2},
    "failed_retry": {TOOLS: 1},
    "corrected_retry": {},
    "reasked_fact": {LOSS: 2},
    "reasked_fact_reworded": {LOSS: 2},
    "new_record": {},
    "asr_reask": {},
    "repeated_statement": {REDUNDANT: 2},
    "vague_question": {QUESTION: 1},
    "two_dims": {TOOLS: 2, REDUNDANT: 2},
    "three_dims": {TOOLS: 2, REDUNDANT: 2, LOSS: 2},
}
"""Per kind, the rating of each flagged dimension by the rubric's severity wording."""


def overall(dims: dict[str, int]) -> int:
    """EVA's overall rule: 3 if nothing is flagged; 1 if any dimension is rated 1 or three or
    more are flagged; else 2."""
    if not dims:
        return 3
    return 1 if min(dims.values()) == 1 or len(dims) >= 3 else 2


EXPECTED: dict[str, tuple[int, tuple[str, ...]]] = {k: (overall(d), tuple(d)) for k, d in DIMENSIONS.items()}
REASKS = (
    "Sorry, could you give me your {f} again?",
    "Before I go on, what was your {f} again?",
    "Could you repeat your {f} for me?",
    "Can you tell me your {f} one more time?",
)
REWORDED_REASKS = (
    "Sorry, can I get that {f} once more?",
    "Remind me, what was the {f}?",
    "Please say the {f} for me one more time.",
    "I'll need the {f} again, please.",
    "Sorry, I lost that. Could I have it again?",
    "Which {f} was it again?",
    "Go ahead and give me the {f} one more time.",
)
"""Re-asks written for version 6's mend, before it was run, in forms the first re-ask rule did
not read (no "your", no field, imperatives)."""
NEW_RECORD_ASKS = (
    "I can look at that one too. What is the {f} for the other one?",
    "Sure. And the {f} of the second one?",
    "Okay, which {f} should I check next?",
)
ANSWERS = ("It's {v}.", "Sure, {v}.", "{v}.")
"""How the caller answers an ask for one value."""
CUT_TAGS = ("[likely cut off by assistant]", "[user interrupts]")
"""Interruption tags as EVA's trace writes them at a caller line cut short."""
ASR_REASKS = (
    "Sorry, I didn't catch all of that. Could you repeat your {f}?",
    "I'm sorry, that cut out. Can you say your {f} again?",
    "Sorry, I only heard part of that. What was your {f}?",
)
VAGUE = (
    "Thanks, you're verified. What would you like to do today?",
    "Thank you. So, what can I do for you?",
    "Got it, thanks. What is it you need help with?",
    "Great, you're all set. Is there something specific you'd like me to look into?",
)
ERRORS = {
    "empty": ("missing_parameter", "Required parameter missing or empty: {p}."),
    "wrong": ("not_found", "No record found for {p}."),
}
REPEAT_ASK = re.compile(r"\b(repeat|again|say that|one more time|didn'?t (catch|hear))\b", re.I)


def _successful(conv: RefConversation, types: tuple[str, ...]) -> list[int]:
    kinds = conv.tool_types()
    return [i for i in conv.tools() if kinds.get(conv.tool(i).name) in types and succeeded(conv.tool(i))]


def _insert(conv: RefConversation, at: int, new: Sequence[Step]) -> RefConversation:
    return conv.copy([*conv.steps[:at], *new, *conv.steps[at:]])


def _error(t: Tool, params: dict[str, Any], kind: str, about: str) -> Tool:
    etype, msg = ERRORS[kind]
    return Tool(t.name, params, {"status": "error", "error_type": etype, "message": msg.format(p=about)})


def _field(key: str) -> str:
    return " ".join("ID" if w == "id" else w for w in key.split("_"))


def _given(conv: RefConversation, t: Tool) -> list[str]:
    """The string parameters of `t` whose values are the caller's facts (the goal's
    `information_required`)."""
    info = conv.goal.get("information_required") or {}
    facts = {str(v).lower() for v in info.values() if isinstance(v, str | int) and not isinstance(v, bool)}
    return [k for k, v in t.params.items() if isinstance(v, str) and len(v) >= 3 and v.lower() in facts]


def _answer_before(conv: RefConversation, i: int) -> int | None:
    """The caller's last line before step `i` (the line that gave the call's facts)."""
    users = [j for j in conv.lines("user") if j < i]
    return users[-1] if users else None


def _agent_after(conv: RefConversation, i: int) -> int | None:
    """The agent's first line after step `i`, when it is not the agent's last line."""
    agents = conv.lines("agent")
    later = [j for j in agents if j > i]
    return later[0] if later and later[0] != agents[-1] else None


def repeated_call(
    conv: RefConversation, rng: random.Random, n: int = 1
) -> tuple[RefConversation, str] | None:
    """`n` different successful read calls, each made again right after its response."""
    cands = _successful(conv, ("read",))
    if len(cands) < n:
        return None
    picks = sorted(rng.sample(cands, n), reverse=True)
    out = conv
    for i in picks:
        out = _insert(out, i + 1, [conv.tool(i)])
    return out, "repeated " + ", ".join(conv.tool(i).name for i in sorted(picks))


def _fed_lookup(conv: RefConversation) -> int | None:
    """The first successful auth or read call whose parameters hold the caller's facts."""
    return next((i for i in _successful(conv, ("auth", "read")) if _given(conv, conv.tool(i))), None)


def placeholder_call(
    conv: RefConversation, rng: random.Random, times: int = 1
) -> tuple[RefConversation, str] | None:
    """Before a lookup the caller's facts feed, the same tool called with those parameters
    empty (a predictable error), `times` times without change."""
    i = _fed_lookup(conv)
    if i is None:
        return None
    t = conv.tool(i)
    keys = _given(conv, t)
    empty = _error(t, {**t.params, **dict.fromkeys(keys, "")}, "empty", ", ".join(keys))
    return _insert(conv, i, [empty] * times), f"{t.name} with {keys} empty x{times}"


def corrected_retry(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """A lookup first made with one character of the caller's identifier wrong (failing), then right."""
    i = _fed_lookup(conv)
    if i is None:
        return None
    t = conv.tool(i)
    keys = [k for k in _given(conv, t) if any(c.isdigit() for c in t.params[k])] or _given(conv, t)
    k = rng.choice(keys)
    v = t.params[k]
    wrong = _other(v, rng)
    return _insert(
        conv, i, [_error(t, {**t.params, k: wrong}, "wrong", wrong)]
    ), f"{t.name}.{k} {wrong!r} then {v!r}"


def _used_facts(conv: RefConversation) -> list[tuple[int, int, int]]:
    """(call, the caller line that gave its facts, the agent's next line) for successful auth
    or read calls that used a fact the caller gave."""
    cands = []
    for i in _successful(conv, ("auth", "read")):
        ans, nxt = _answer_before(conv, i), _agent_after(conv, i)
        if ans is not None and nxt is not None and _given(conv, conv.tool(i)):
            cands.append((i, ans, nxt))
    return cands


def reasked_fact(
    conv: RefConversation, rng: random.Random, wordings: Sequence[str] = REASKS
) -> tuple[RefConversation, str] | None:
    """After a successful call used a fact the caller gave, the agent asks for it again at its
    next line (not its last), and the caller says the value again (as the voxbench caller says
    a value). Until version 6's mend the caller repeated its last line before the call, which in
    about one case in five was not the line that gave the fact ("Okay.", "Yes.")."""
    cands = _used_facts(conv)
    if not cands:
        return None
    i, _, nxt = rng.choice(cands)
    k = rng.choice(_given(conv, conv.tool(i)))
    ask = Line("agent", rng.choice(wordings).format(f=_field(k)))
    answer = Line("user", rng.choice(ANSWERS).format(v=say_value(conv.tool(i).params[k])))
    return _insert(conv, nxt, [ask, answer]), f"re-asked {_field(k)} after turn of step {i}"


def _other(v: str, rng: random.Random) -> str:
    """`v` with one character changed (a digit for a digit, a letter for a letter)."""
    pos = rng.choice([j for j, c in enumerate(v) if c.isalnum()])
    c = v[pos]
    swap = str((int(c) + rng.randint(1, 8)) % 10) if c.isdigit() else ("X" if c.upper() != "X" else "Y")
    return v[:pos] + swap + v[pos + 1 :]


def _identifiers(t: Tool, keys: list[str]) -> list[str]:
    """The parameters among `keys` whose value names a record (holds a digit, not a date)."""
    return [k for k in keys if any(c.isdigit() for c in t.params[k]) and not ISO_DATE.match(t.params[k])]


def new_record(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """After a successful call used an identifier the caller gave, the agent asks for the same
    field of another record and the caller gives another value (one character changed, said as
    a caller says it)."""
    cands = [
        (i, nxt, ks)
        for i, _, nxt in _used_facts(conv)
        if (ks := _identifiers(conv.tool(i), _given(conv, conv.tool(i))))
    ]
    if not cands:
        return None
    i, nxt, keys = rng.choice(cands)
    k = rng.choice(keys)
    v = _other(conv.tool(i).params[k], rng)
    ask = Line("agent", rng.choice(NEW_RECORD_ASKS).format(f=_field(k)))
    answer = Line("user", rng.choice(ANSWERS).format(v=say_value(v)))
    return _insert(conv, nxt, [ask, answer]), f"asked {k} of another record: {v!r}"


def asr_reask(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """The caller's line giving a lookup's facts cut off half-way (what recognition heard), the
    agent asking again, the caller saying it in full."""
    i = _fed_lookup(conv)
    ans = None if i is None else _answer_before(conv, i)
    if i is None or ans is None:
        return None
    words = conv.line(ans).text.split()
    if len(words) < 4:
        return None
    half = " ".join(words[: len(words) // 2])
    f = _field(rng.choice(_given(conv, conv.tool(i))))
    ask = Line("agent", rng.choice(ASR_REASKS).format(f=f))
    cut = Line("user", rng.choice([half + "...", *(f"{half} {t}" for t in CUT_TAGS)]))
    steps = [*conv.steps[:ans], cut, ask, *conv.steps[ans:]]
    return conv.copy(steps), f"caller's line cut, agent re-asked {f}"


def repeated_statement(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """The declarative sentences of an agent line that follows a tool result, said again at
    the start of the agent's next line (not its last: a final recap is no flag), when the
    caller between did not ask to hear it again."""
    agents = conv.lines("agent")
    cands = []
    for a, b in pairwise(agents[:-1]):
        if a == 0 or not isinstance(conv.steps[a - 1], Tool):
            continue
        said = [s for s in split_sentences(conv.line(a).text) if not s.endswith("?") and len(s.split()) >= 5]
        between = " ".join(conv.line(j).text for j in conv.lines("user") if a < j < b)
        if said and not REPEAT_ASK.search(between):
            cands.append((a, b, said))
    if not cands:
        return None
    a, b, said = rng.choice(cands)
    line = conv.line(b)
    steps = list(conv.steps)
    steps[b] = replace(line, text=" ".join(said) + " " + line.text)
    return conv.copy(steps), f"agent line of step {a} said again at step {b}"


_PLAIN = frozenset(
    [
        "need",
        "help",
        "with",
        "have",
        "want",
        "would",
        "like",
        "could",
        "some",
        "things",
        "thing",
        "that",
        "this",
        "your",
        "about",
        "make",
        "also",
        "there",
        "have",
        "just",
        "know",
        "able",
        "please",
        "today",
        "call",
    ]
)


def _goal_stated(conv: RefConversation, line: str) -> bool:
    """Whether the caller's line names its goal: it shares a content word (4+ letters) with the
    scenario's `high_level_user_goal` ("I need my laptop replaced" does; "I have a few things I
    need help with" does not)."""
    goal = set(re.findall(r"[a-z]{4,}", str(conv.goal.get("high_level_user_goal", "")).lower()))
    return bool((set(re.findall(r"[a-z]{4,}", line.lower())) & goal) - _PLAIN)


def vague_question(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """Where the caller's opening line names its goal: after the first successful auth call,
    before the agent's next line, a vague question ("what would you like to do?") and the
    caller restating its opening request."""
    auths = _successful(conv, ("auth",))
    users = conv.lines("user")
    if not auths or not users or not _goal_stated(conv, conv.line(users[0]).text):
        return None
    nxt = _agent_after(conv, auths[0])
    if nxt is None:
        return None
    new = [Line("agent", rng.choice(VAGUE)), conv.line(users[0])]
    return _insert(conv, nxt, new), "vague question after verification"


Fault = Callable[[RefConversation, random.Random], tuple[RefConversation, str] | None]


def _chain(*faults: Fault) -> Fault:
    """Faults applied one after another (each on the previous one's result); None if any does
    not apply."""

    def run(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
        whats = []
        for f in faults:
            got = f(conv, rng)
            if got is None:
                return None
            conv, what = got
            whats.append(what)
        return conv, "; ".join(whats)

    return run


FAULTS: dict[str, Fault] = {
    "repeated_call": repeated_call,
    "repeated_call_twice": lambda c, r: repeated_call(c, r, 2),
    "placeholder_call": placeholder_call,
    "failed_retry": lambda c, r: placeholder_call(c, r, 2),
    "corrected_retry": corrected_retry,
    "reasked_fact": reasked_fact,
    "reasked_fact_reworded": lambda c, r: reasked_fact(c, r, REWORDED_REASKS),
    "new_record": new_record,
    "asr_reask": asr_reask,
    "repeated_statement": repeated_statement,
    "vague_question": vague_question,
    # the statement first: it edits agent lines by index, which the inserted steps would shift
    "two_dims": _chain(repeated_statement, repeated_call),
    "three_dims": _chain(repeated_statement, reasked_fact, repeated_call),
}


def variants(ref: RefConversation, seed: int, dom: str, sid: str) -> list[tuple[str, RefConversation, str]]:
    out: list[tuple[str, RefConversation, str]] = [("clean", ref, "")]
    for kind, fn in FAULTS.items():
        got = fn(ref, random.Random(derive_seed("voxbench.progression-independent", seed, dom, sid, kind)))
        if got is not None:
            out.append((kind, got[0], got[1]))
    return out


def run(
    eva: Path, seed: int, domains: list[str], verbose: bool, method: Method = progression_offline
) -> dict[str, Any]:
    return rate_variants(
        eva, seed, domains, variants, events, method, EXPECTED, verbose, turn_rules_only=True
    )


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def flagged(sel: list[dict[str, Any]], dims: Any) -> dict[str, Any]:
        every = sum(set(dims) <= set(r["flagged"]) for r in sel)
        return {"expected_dimensions_flagged": round(every / len(sel), 3) if dims else None}

    return {**by_domain(rows), "kinds": per_kind(rows, EXPECTED, flagged)}


def main() -> int:
    args = arguments(__doc__)
    res = run(args.eva, args.seed, args.domains.split(","), args.verbose)
    s = summarise(res["rows"])
    print_domains(s, [d for d in s if d != "kinds"])
    for kind, k in s["kinds"].items():
        print(f"  {kind:20} n={k['n']:3} expected {k['expected']} rated 3/2/1={k['ratings_3_2_1']} "
              f"as labelled={k['exact']} expected dimensions flagged={k['expected_dimensions_flagged']}")  # fmt: skip
    sec = res["seconds"]
    print(f"  ms per conversation: mean {sec['mean'] * 1000:.1f}, max {sec['max'] * 1000:.1f}")
    write_json(args.json, {"summary": s, **res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
