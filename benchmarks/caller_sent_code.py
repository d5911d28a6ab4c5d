"""Does the caller read out a one-time code the agent sent when only a confirmation is asked?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_sent_code.py REPORT.json [--half dev|test]

Reads a ``voxbench caller check`` report. Every agent turn that says it sent a code
(:data:`~voxbench.pipelines.caller.goal.cues.SENT_CODE`) is put in one of two classes: every
question or request besides the sending sentence is a confirmation
(:data:`~voxbench.pipelines.caller.goal.cues.CONFIRM_Q`, 'Does that match the number you have on
file?') that does not name the code, or not. Per class: turns, how many the reference read a code
out in, and how many the caller did. Dev is the half rules are written on; test is read as this
table only.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter

from caller_check_halves import half

from voxbench.pipelines.caller.goal.cues import CONFIRM_Q, SENT_CODE
from voxbench.pipelines.caller.goal.turn import Turn


def confirms_only(agent: str) -> bool:
    t = Turn.of(agent)
    asks = [s for s in dict.fromkeys(t.questions + t.requests) if not SENT_CODE.search(s)]
    return bool(asks) and all(CONFIRM_Q.search(s) and not re.search(r"\bcode\b", s, re.I) for s in asks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--half", choices=["dev", "test"], default="dev")
    args = ap.parse_args()
    with open(args.report, encoding="utf-8") as f:
        results = json.load(f)["scenarios"]["in_sample"]
    n: Counter = Counter()
    for r in results:
        if half(r["domain"], r["scenario_id"]) != args.half:
            continue
        for row in r["rows"]:
            if not row["reference"] or not any(SENT_CODE.search(s) for s in Turn.of(row["agent"]).sents):
                continue
            cls = "confirmation only" if confirms_only(row["agent"]) else "other"
            n[cls, "turns"] += 1
            n[cls, "reference"] += any("otp" in k or "code" in k for k in row["expected_facts"])
            n[cls, "caller"] += any("otp" in k or "code" in k for k in row["disclosed_facts"])
    for cls in ("confirmation only", "other"):
        print(f"{args.half} {cls:18} turns {n[cls, 'turns']:3}  reference reads a code {n[cls, 'reference']:3}"
              f"  caller reads it {n[cls, 'caller']:3}")  # fmt: skip


if __name__ == "__main__":
    main()
