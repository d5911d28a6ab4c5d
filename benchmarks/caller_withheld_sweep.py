"""Every question of EVA's reference agent turns answered "I don't have that": what the gate reads.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_withheld_sweep.py --data ../shared/eva-data
        [--half dev|test|all] [--rows] [--json OUT]

For each scenario's reference conversation (`gateset.conversation.from_scenario`) and each agent
line holding a "?", the conversation up to that line is followed by the caller's "I don't have
that, sorry." and rated by `caller-rules`' `missing_information`: a flag says the gate would
read the line as asking for one of the caller's facts (or its request) and discard the call.
Many flags are right (the agent asked for the caller's confirmation number); what the count is
for is the difference between two versions of the rules, each new or lost flag read and
explained. ``--rows`` prints the flagged rows of the dev half only (scenario, turn, the field
read), never test rows; ``--json`` writes the flagged dev rows (domain, scenario, line, rule,
claim) and, of a test row, only a digest of where it is and its rule, so two versions' test
flags can be counted against each other without reading one. ``--diff OLD.json`` prints how
many flags are new and lost against an earlier ``--json`` (dev rows listed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from voxbench.bench.weak_item import half
from voxbench.eval.calibration_items import trace_from_events
from voxbench.eval.context import ConversationContext
from voxbench.eval.gateset.conversation import Line, from_scenario
from voxbench.eval.offline._caller_facts import missing_information
from voxbench.scenarios.loader import load_dataset

REPLY = "I don't have that, sorry."


def _context(lines: list[Line], goal: dict[str, Any]) -> ConversationContext:
    """The lines as a context with the caller's goal (turns as calibration numbers them)."""
    events = [
        {"event_type": "user_utterance" if x.who == "user" else "agent_utterance", "utterance": x.text}
        for x in lines
    ]
    ctx = ConversationContext(record_id="sweep", conversation_trace=trace_from_events(events))
    ctx.user_goal = goal
    for e in ctx.conversation_trace:
        turns = ctx.intended_user_turns if e.get("role") == "user" else ctx.intended_assistant_turns
        t = e["turn_id"]
        turns[t] = (turns.get(t, "") + " " + e["content"]).strip()
    ctx.transcribed_user_turns = dict(ctx.intended_user_turns)
    return ctx


def sweep(data: Path, which: str) -> tuple[int, list[dict[str, Any]]]:
    """(questions asked, the flagged ones) over the scenarios of half `which` ('all': both)."""
    ds = load_dataset(data)
    asked, flagged = 0, []
    for dom, dd in ds.domains.items():
        for sid in sorted(dd.scenarios):
            h = half(dom, sid)
            ref = from_scenario(dd, sid) if which in ("all", h) else None
            if ref is None:
                continue
            lines = [s for s in ref.steps if isinstance(s, Line)]
            for k, line in enumerate(lines):
                if line.who != "agent" or "?" not in line.text:
                    continue
                asked += 1
                for e in missing_information(_context([*lines[: k + 1], Line("user", REPLY)], ref.goal)):
                    flagged.append({"half": h, "domain": dom, "scenario": sid, "line": k, **e})
    return asked, flagged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/eva-data"))
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--rows", action="store_true", help="print the flagged dev rows")
    ap.add_argument("--json", type=Path, default=None, help="write the flags here (for a diff)")
    ap.add_argument("--diff", type=Path, default=None, help="count new and lost flags against this --json")
    a = ap.parse_args()
    asked, flagged = sweep(a.data, a.half)
    by = Counter((f["half"], f["rule"]) for f in flagged)
    print(f"questions answered {REPLY!r} ({a.half}): {asked}; flagged {len(flagged)}")
    for (h, rule), n in sorted(by.items()):
        print(f"  {h:4s} {n:4d}  {rule}")
    if a.rows:
        for f in flagged:
            if f["half"] == "dev":
                print(f"{f['domain']}/{f['scenario']} line {f['line']}: {f['claim'][:240]}")
    rows = [_stored(f) for f in flagged]
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if a.diff:
        _diff(json.loads(a.diff.read_text(encoding="utf-8")), rows)


def _stored(f: dict[str, Any]) -> dict[str, Any]:
    """A dev row as it is; a test row as a digest of its place and rule, nothing readable."""
    if f["half"] == "dev":
        return {"half": "dev", "key": f"{f['domain']}/{f['scenario']}/{f['line']}/{f['rule']}", **f}
    place = f"{f['domain']}/{f['scenario']}/{f['line']}/{f['rule']}"
    return {"half": "test", "key": hashlib.sha256(place.encode()).hexdigest()[:16]}


def _diff(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """New and lost flags per half; the dev ones listed."""
    before, after = {r["key"]: r for r in old}, {r["key"]: r for r in new}
    for h in ("dev", "test"):
        gained = [r for k, r in after.items() if k not in before and r["half"] == h]
        lost = [r for k, r in before.items() if k not in after and r["half"] == h]
        print(f"{h}: new {len(gained)}, lost {len(lost)}")
        if h == "dev":
            for tag, rs in (("+", gained), ("-", lost)):
                for r in rs:
                    print(f"  {tag} {r['domain']}/{r['scenario']} line {r['line']}: {r['claim'][:240]}")


if __name__ == "__main__":
    main()
