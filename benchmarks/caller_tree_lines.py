"""Whether the goal caller says the lines its decision tree quotes, where the reference caller does.

    python benchmarks/caller_tree_lines.py [--data /work/shared/eva-data] [--rows] [--json out.json]

EVA's trees quote lines for the caller to say, most under a condition ("If the chosen option ...
costs $100 or more, ask exactly one time: 'Do you have any other ... options ...?'"). This script
runs the goal caller over every scenario's reference conversation as ``voxbench caller check``
does (the reference agent turns in order, whatever the caller replied; :mod:`voxbench.bench`,
read-only) and, for each quoted line, finds:

* the reference turns whose caller reply says it, and the turns of our caller's replies (up to its
  first ending) that say it. A reply *says* a line when it holds at least 60 % of the line's
  content words (the bench's normaliser, :func:`voxbench.bench.matcher.words_of`, and its
  :func:`~voxbench.bench.matcher.same_word`; words of three letters or more, a few function
  words left out), and two at least;
* per half of the fixed split (``caller_check_halves.half``): lines the reference said, of those
  the ones our caller said at one of the same turns, only at other turns, never; and the lines our
  caller said that the reference never said (*extra*).

A *quoted line* is read by the bench's own grammar, not the caller's: double- or single-quoted
text of three words or more written right after a colon or a verb of saying ('ask: "..."', 'say
"still not working"'); a quoted phrase inside the prose ("outside the 'within 2 hours' window")
is none. ``--rows`` prints each dev line with its condition and turns; test is printed as
aggregates only, and only with ``--test`` (read it once, after the change is decided on dev).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.matcher import same_word, words_of
from voxbench.bench.reference import reference_turns
from voxbench.scenarios import Scenario

_QUOTED = re.compile(
    r"[\"“]([^\"”]{6,}?)[\"”]"  # double quotes
    r"|(?:(?<=[\s(])|^)[‘']([^'‘’\s][^'‘’]*?(?:[’'][a-z][^'‘’]*?)*)[’'](?![a-z])"  # single, apostrophes inside
)
_SAYING = re.compile(r"(?::|\b(?:say|says|saying|ask|asking|respond with|reply with|with))\s*$", re.I)
_FUNCTION = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "for",
        "are",
        "was",
        "that",
        "this",
        "with",
        "can",
        "any",
        "have",
        "has",
        "but",
        "not",
        "from",
    ]
) - {"not"}
SHARE = 0.6


@dataclass
class Line:
    scenario: str
    half: str
    condition: str
    line: str
    ref_turns: list[int] = field(default_factory=list)
    our_turns: list[int] = field(default_factory=list)

    def outcome(self) -> str:
        if not self.ref_turns:
            return "extra" if self.our_turns else "unsaid"
        if set(self.ref_turns) & set(self.our_turns):
            return "same turn"
        return "other turn" if self.our_turns else "never"


def tree_lines(sc: Scenario) -> list[tuple[str, str]]:
    """(condition, line) for each line the tree quotes after a colon or a verb of saying."""
    t = sc.user_goal.decision_tree
    texts = [*t.must_have_criteria, *t.nice_to_have_criteria, *t.negotiation_behavior, *t.edge_cases,
             t.escalation_behavior, t.failure_condition, t.resolution_condition]  # fmt: skip
    out = []
    for text in texts:
        for m in _QUOTED.finditer(text or ""):
            line = (m.group(1) or m.group(2) or "").strip()
            if len(line.split()) >= 3 and _SAYING.search(text[: m.start()]):
                out.append((text[: m.start()].strip(), line))
    return out


def content(text: str) -> list[str]:
    return [w for w in words_of(text) if len(w) >= 3 and w not in _FUNCTION]


def says(reply: str, line: str) -> bool:
    """Whether ``reply`` holds most of ``line``'s content words (see the module docstring)."""
    want = list(dict.fromkeys(content(line)))
    have = words_of(reply)
    hit = sum(any(same_word(h, w) for h in have) for w in want)
    return hit >= 2 and hit >= SHARE * len(want)


def run_scenario(domain: str, sc: Scenario) -> list[Line]:
    found = tree_lines(sc)
    if not found:
        return []
    h = half(domain, sc.id)
    lines = [Line(f"{domain}/{sc.id}", h, c, x) for c, x in found]
    caller = GoalRules().make(domain, sc)
    opening, turns = reference_turns(sc)
    if opening is not None:
        caller.open()
    ended = False
    for i, (agent, ref) in enumerate(turns, start=1):
        reply = caller.respond(agent)
        for ln in lines:
            if ref and says(ref, ln.line):
                ln.ref_turns.append(i)
            if not ended and says(reply.text, ln.line):
                ln.our_turns.append(i)
        ended = ended or reply.ends_call
    return lines


def summary(lines: list[Line]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {"dev": Counter(), "test": Counter()}
    for ln in lines:
        c = out[ln.half]
        c["lines"] += 1
        c[ln.outcome()] += 1
        c["ref said"] += bool(ln.ref_turns)
    for h in out:
        out[h]["scenarios"] = len({ln.scenario for ln in lines if ln.half == h})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/work/shared/eva-data")
    ap.add_argument("--rows", action="store_true", help="print each dev line (never a test one)")
    ap.add_argument("--test", action="store_true", help="also print the test half's aggregates (read once)")
    ap.add_argument("--json", help="write the dev lines and the printed halves' aggregates here")
    args = ap.parse_args()
    lines = [ln for domain, sc in resolved_scenarios(args.data) for ln in run_scenario(domain, sc)]
    if args.rows:
        for ln in lines:
            if ln.half == "dev":
                print(f"{ln.scenario:16} {ln.outcome():10} ref {ln.ref_turns} ours {ln.our_turns}\n"
                      f"    if: {ln.condition[-150:]}\n    say: {ln.line}")  # fmt: skip
    sums = summary(lines)
    cols = ("scenarios", "lines", "ref said", "same turn", "other turn", "never", "extra", "unsaid")
    print(f"{'half':5} " + " ".join(f"{c:>10}" for c in cols))
    halves = ("dev", "test") if args.test else ("dev",)
    for h in halves:
        print(f"{h:5} " + " ".join(f"{sums[h][c]:>10}" for c in cols))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"halves": {h: dict(sums[h]) for h in halves},
                       "dev_lines": [asdict(ln) for ln in lines if ln.half == "dev"]}, f, indent=1)  # fmt: skip


if __name__ == "__main__":
    main()
