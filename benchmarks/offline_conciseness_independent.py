"""The offline conciseness method on agent turns whose rating is known by construction: a
check on turns nobody labelled by hand and no conciseness weight was fitted on.

As `offline_faith_independent.py` and `offline_progression_independent.py` do, each EVA
reference conversation (all three domains, `voxbench.eval.gateset`) is rated as it is and with
one agent line edited by the conversation's structure (its tool results, its previous agent
line, the agent's tool list), never by an item. Every edit keeps the steps in place, so turn ids
do not move; the edited turn alone is scored. Labels follow EVA's conciseness rubric
(`configs/prompts/judge.yaml`: 3 no failure mode; 2 "one minor failure mode"; 1 "one or more
significant failure modes that materially increase cognitive load"):

| kind | edit of one agent line | expected |
|---|---|---|
| clean | none: every agent turn of the reference | 3 (a correct agent) |
| tool_dump | after a read / auth response with 8+ values, every value of it read out (up to 16) | 1, excess_information_density ("too many distinct facts ... numbers ... at once") |
| many_options | 5-7 of the agent's tools offered at once, each with a clause of detail | 1, over_enumeration_or_list_exhaustion ("presents multiple options with excessive detail rather than inviting follow-up") |
| repeated_previous | the previous agent line's statements (1-2 sentences) said again before the new part, the caller not having asked | 2, verbosity_or_filler ("repetition") |
| filler | a hedging / filler sentence before and after the line | 2, verbosity_or_filler ("unnecessary wording ... hedging") |
| background | one sentence of unrequested background after the first sentence | 2, contextually_disproportionate_detail |
| two_faults | repeated_previous + background | 1 (two failure modes: more than the "one minor failure mode" a 2 allows) |
| code_readback | after a write whose response holds a code (letters and digits), the line cut to its first sentence and the code read out, spelled or in NATO words | 3 (exceptions 1-2: an identifier to note down and its phonetic spelling are never penalised) |
| short_confirmation | a line (not the last) replaced by a short acknowledgement | 3 |

The labels are by construction, not a person's or a frontier judge's rating: a reference line
some person would rate 2 is counted 3 here (the clean row's figure shows how often the
method disagrees). Seed 0 is for development, seed 1 (other lines, other wordings, other
tools) is held out; both draw from the same references and wording tables. Prints accuracy /
κ / quadratic κ overall and per domain, and per kind the ratings, the share rated as labelled
and the agreement on that kind's turns with the clean turns; ms per rated agent turn. Not a
test.

Measured (issue 30, 2026-12-07): `listening-load-logit` 3, seed 0 0.777 / κ 0.532 / quadratic
κ 0.719, seed 1 0.770 / κ 0.515 / 0.721 (2974 turns; 0.4 ms per turn on a loaded machine, 2's
0.37 in the same run). Whole tool results read out are rated 1 in 0.94 of turns (2: 0.47), options
offered at once and codes read out as labelled (0.96 / 0.96), the clean reference turns 0.884
(160 rated 2, 37 rated 1); filler, repetition of the previous turn and background are rated 2
in 0.37-0.43 (mostly 3), and two faults together are rated 1 in 0.08 (mostly 2).
`conciseness_record_faults.py` is a candidate for those (seed 0 0.851), not kept. Version 4
(sentences said again, filler, background: `conciseness_said.py`) as mended at b127d3f: seed 0
0.820 / κ 0.639, seed 1 0.814 / κ 0.625; repeated previous 0.68, filler 0.37 (its general
table reads no item of FILLER_BEFORE / FILLER_AFTER), background 0.72, two faults 0.34, clean
0.884 (about 1 ms per turn). Its first form (db9a479: seed 0 0.872, seed 1 0.864; filler 0.83,
background 0.93) had word tables partly taken from this file's sentences: in-sample figures.

    PYTHONPATH=src .venv/bin/python benchmarks/offline_conciseness_independent.py [--seed 0]
        [--eva DIR] [--domains airline,itsm,medical_hr] [-v] [--json out.json]
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _injected import arguments, by_domain, events, per_kind, print_domains, references, write_json
from offline_progression_independent import REPEAT_ASK

from voxbench.eval.calibration_items import context_of, trace_from_events
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import ConversationContext
from voxbench.eval.gateset.conversation import Line, RefConversation, Tool, succeeded
from voxbench.eval.offline.conciseness import conciseness_offline
from voxbench.eval.types import MetricResult
from voxbench.records import derive_seed
from voxbench.records.voice import split_sentences
from voxbench.spoken.words import NATO as SPOKEN_NATO

EXPECTED = {
    "clean": 3,
    "tool_dump": 1,
    "many_options": 1,
    "repeated_previous": 2,
    "filler": 2,
    "background": 2,
    "two_faults": 1,
    "code_readback": 3,
    "short_confirmation": 3,
}
FILLER_BEFORE = (
    "Okay, so, let me just say, I really want to make sure we get this exactly right for you.",
    "Alright, well, I'm more than happy to help you out with that, that's absolutely what I'm here for.",
    "Sure thing, and honestly, thank you so much for your patience with me while I go through all of this.",
    "Great question, and I appreciate you bringing that up, it's really no trouble at all.",
)
FILLER_AFTER = (
    "I hope that all makes sense, and please don't hesitate to let me know if anything at all is unclear.",
    "Again, I'm really here to help with whatever you might need, so just say the word.",
    "I really do want to make this as smooth as possible for you, so thank you again for bearing with me.",
    "Hopefully that's helpful, and of course I'm happy to go over any of it whenever you like.",
)
BACKGROUND = (
    "Just so you know, the system keeps a full history of every change, and it usually syncs across all our records within a few minutes.",
    "For context, requests like this go through a standard review that our team put in place a couple of years ago to keep records consistent.",
    "Our records are maintained in a central database that several departments update, which is why details sometimes take a moment to appear everywhere.",
    "As background, each account is checked against several internal lists before anything is changed, a step our organisation added for audit purposes.",
)
REPEAT_LEAD = ("", "As I said, ", "Like I mentioned, ", "Again, ")
CODE_LEAD = (
    "Your {f} is {c}.",
    "Please note your {f}: {c}.",
    "The {f} to keep is {c}.",
)
SHORT = (
    "Got it, thanks.",
    "Okay, that's noted.",
    "Perfect, thank you.",
    "Sure, I can help with that.",
)
NATO = {v.upper(): k.capitalize() for k, v in SPOKEN_NATO.items()}
"""Letter -> its NATO word (the later of two spellings: Alfa, Juliett)."""
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
CODE = re.compile(r"^(?=.*\d)(?=.*[A-Z])[A-Z0-9-]{5,14}$")
_SKIP = {"status", "message", "success"}

Edit = Callable[[RefConversation, int, random.Random], str | None]


def _leaves(x: Any, key: str = "") -> list[tuple[str, Any]]:
    """The scalar values of a tool response with the key each sits under, in order."""
    if isinstance(x, dict):
        return [leaf for k, v in x.items() if k not in _SKIP for leaf in _leaves(v, str(k))]
    if isinstance(x, list):
        return [leaf for v in x for leaf in _leaves(v, key)]
    return [] if x is None or x == "" else [(key, x)]


def _preceding_tools(conv: RefConversation, i: int) -> list[Tool]:
    """The tool calls right before step `i` (no line between)."""
    out: list[Tool] = []
    j = i - 1
    while j >= 0 and isinstance(conv.steps[j], Tool):
        out.append(conv.steps[j])  # type: ignore[arg-type]
        j -= 1
    return out


def _say(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def tool_dump(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    kinds = conv.tool_types()
    for t in _preceding_tools(conv, i):
        leaves = _leaves(t.expected or {})
        if kinds.get(t.name) in ("read", "auth") and succeeded(t) and len(leaves) >= 8:
            said = ", ".join(f"{k.replace('_', ' ')} {_say(v)}" for k, v in leaves[:16])
            return f"{conv.line(i).text} Here is everything on the record: {said}."
    return None


def many_options(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    tools = [t for t in conv.dd.agent.tools if str(t.tool_type) in ("read", "write")]
    if i == conv.lines("agent")[-1] or len(tools) < 7:
        return None
    picks = rng.sample(tools, rng.randint(5, 7))
    opts = []
    for n, t in enumerate(picks, 1):
        clause = " ".join(str(t.description).split(".")[0].split()[:12]).rstrip(",;")
        opts.append(f"option {DIGITS[n]}, {t.name.replace('_', ' ')}, which means: {clause}")
    return f"{conv.line(i).text} Here are the options I can offer: {'; '.join(opts)}. Which would you like?"


def repeated_previous(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    agents = conv.lines("agent")
    k = agents.index(i)
    if k == 0 or i == agents[-1]:
        return None
    prev = agents[k - 1]
    said = [s for s in split_sentences(conv.line(prev).text) if not s.endswith("?") and len(s.split()) >= 5]
    between = " ".join(conv.line(j).text for j in conv.lines("user") if prev < j < i)
    if not said or REPEAT_ASK.search(between):
        return None
    return f"{rng.choice(REPEAT_LEAD)}{' '.join(said[:2])} {conv.line(i).text}"


def filler(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    return f"{rng.choice(FILLER_BEFORE)} {conv.line(i).text} {rng.choice(FILLER_AFTER)}"


def background(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    parts = split_sentences(conv.line(i).text)
    return " ".join([*parts[:1], rng.choice(BACKGROUND), *parts[1:]])


def _spell(code: str, nato: bool) -> str:
    out = []
    for c in code.replace("-", ""):
        if c.isdigit():
            out.append(DIGITS[int(c)])
        else:
            out.append(f"{c} as in {NATO[c]}" if nato else c)
    return ", ".join(out)


def code_readback(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    kinds = conv.tool_types()
    for t in _preceding_tools(conv, i):
        codes = [(k, str(v)) for k, v in _leaves(t.expected or {}) if isinstance(v, str) and CODE.match(v)]
        if kinds.get(t.name) == "write" and succeeded(t) and codes:
            key, code = rng.choice(codes)
            said = _spell(code, nato=rng.random() < 0.5)
            first = split_sentences(conv.line(i).text)[0]
            return f"{first} {rng.choice(CODE_LEAD).format(f=key.replace('_', ' '), c=said)}"
    return None


def short_confirmation(conv: RefConversation, i: int, rng: random.Random) -> str | None:
    return rng.choice(SHORT) if i != conv.lines("agent")[-1] else None


def _chain(*edits: Edit) -> Edit:
    """Edits applied to the same line one after another; None if any does not apply."""

    def run(conv: RefConversation, i: int, rng: random.Random) -> str | None:
        for e in edits:
            text = e(conv, i, rng)
            if text is None:
                return None
            conv = conv.with_text(i, text)
        return conv.line(i).text

    return run


EDITS: dict[str, Edit] = {
    "tool_dump": tool_dump,
    "many_options": many_options,
    "repeated_previous": repeated_previous,
    "filler": filler,
    "background": background,
    "two_faults": _chain(repeated_previous, background),
    "code_readback": code_readback,
    "short_confirmation": short_confirmation,
}


def inject(conv: RefConversation, kind: str, rng: random.Random) -> tuple[RefConversation, int, str] | None:
    """One agent line, drawn among those `kind` applies to, edited: (conversation, step, what)."""
    cands = []
    for i in conv.lines("agent"):
        text = EDITS[kind](conv, i, random.Random(rng.random()))
        if text is not None:
            cands.append((i, text))
    if not cands:
        return None
    i, text = rng.choice(cands)
    return conv.with_text(i, text), i, f"{kind} at step {i}"


def line_turns(conv: RefConversation, trace: list[dict[str, Any]]) -> dict[int, int]:
    """{step index of each line: turn id the trace gave it}."""
    said = [e["turn_id"] for e in trace if e.get("role") in ("user", "assistant")]
    return {
        i: t for i, t in zip([i for i, s in enumerate(conv.steps) if isinstance(s, Line)], said, strict=True)
    }


Method = Callable[[ConversationContext], MetricResult]


def variants(
    ref: RefConversation, seed: int, dom: str, sid: str
) -> list[tuple[str, RefConversation, int | None, str]]:
    out: list[tuple[str, RefConversation, int | None, str]] = [("clean", ref, None, "")]
    for kind in EDITS:
        got = inject(
            ref, kind, random.Random(derive_seed("voxbench.conciseness-independent", seed, dom, sid, kind))
        )
        if got is not None:
            out.append((kind, *got))
    return out


def run(
    eva: Path, seed: int, domains: list[str], verbose: bool, method: Method = conciseness_offline
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    spent, rated = 0.0, 0
    for dom, sid, ref, agent, when in references(eva, domains):
        for kind, conv, step, what in variants(ref, seed, dom, sid):
            trace = trace_from_events(events(conv))
            ctx = context_of(f"{dom}/{sid}/{kind}", trace, agent, when)
            t0 = time.perf_counter()
            res = method(ctx)
            spent += time.perf_counter() - t0
            per_turn = res.details.get("per_turn_rating", {})
            rated += len(per_turn)
            turns = sorted(per_turn) if step is None else [line_turns(conv, trace)[step]]
            for t in turns:
                rows.append({"domain": dom, "scenario": sid, "kind": kind, "what": what, "turn": t,
                             "expected": EXPECTED[kind], "rating": int(per_turn[t])})  # fmt: skip
                if verbose and rows[-1]["rating"] != EXPECTED[kind]:
                    text = " ".join(
                        e["content"] for e in trace if e.get("role") == "assistant" and e["turn_id"] == t
                    )
                    print(f"  XX {dom} {sid} {kind} t{t} -> {rows[-1]['rating']}: {text[:160]!r}")
    return {"rows": rows, "ms_per_turn": 1000 * spent / max(rated, 1)}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    clean = [(r["expected"], r["rating"]) for r in rows if r["kind"] == "clean"]

    def with_clean(sel: list[dict[str, Any]], kind: str) -> dict[str, Any]:
        pairs = [(r["expected"], r["rating"]) for r in sel]
        vs = agreement(pairs + ([] if kind == "clean" else clean), [1, 2, 3], ordinal=True)
        return {"with_clean": {k: vs.get(k) for k in ("accuracy", "cohen_kappa", "weighted_kappa_quadratic")}}

    expected = {kind: (label, kind) for kind, label in EXPECTED.items()}
    return {**by_domain(rows), "kinds": per_kind(rows, expected, with_clean)}


def main() -> int:
    args = arguments(__doc__)
    res = run(args.eva, args.seed, args.domains.split(","), args.verbose)
    s = summarise(res["rows"])
    print_domains(s, [d for d in s if d != "kinds"])
    for kind, k in s["kinds"].items():
        w = k["with_clean"]
        print(f"  {kind:19} n={k['n']:4} expected {k['expected']} rated 3/2/1={k['ratings_3_2_1']} "
              f"as labelled={k['exact']} | with clean turns acc={w['accuracy']} kappa={w['cohen_kappa']} "
              f"qwk={w['weighted_kappa_quadratic']}")  # fmt: skip
    print(f"  ms per rated agent turn: {res['ms_per_turn']:.3f}")
    write_json(args.json, {"summary": s, **res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
