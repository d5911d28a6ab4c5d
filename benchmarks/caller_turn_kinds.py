"""Does the goal caller hear a hold as a hold and a line check as a line check, and nothing else so?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_turn_kinds.py [--rows] [--held-out]

The wordings are ``benchmarks/caller_turn_kinds.json`` (issue 29): holds, presence checks and
ordinary turns, written before the rules they measure, split by position (even: develop, odd:
held-out). A fresh goal caller (:class:`GoalCaller`, a small airline goal, caller "Ana Lima")
hears each wording as its first agent turn after the opening. It is right when:

* a hold: it waits, having heard a hold (``hold`` among the act's ``heard``, kind ``wait``);
* a presence check: it says it is there (rule ``presence_check_here``);
* an ordinary turn (``ordinary``, ``ordinary_new``): neither (no ``hold`` heard, no
  ``presence_check_here``).

``--rows`` prints the develop wordings it gets wrong with its reply; ``--held-out`` prints the
held-out half's counts (read them once, at the end of a change: they were not written on).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

WORDINGS = Path(__file__).resolve().parent / "caller_turn_kinds.json"
DATA: dict[str, Any] = json.loads(WORDINGS.read_text())
INFO: dict[str, str] = DATA["facts"]
"""The caller's facts, which the ordinary wordings ask for."""


def scenario() -> Scenario:
    """A small airline goal with the facts the ordinary wordings ask for."""
    return Scenario.model_validate(
        {
            "id": "kinds.1",
            "current_date_time": "2026-06-18 09:00 PST",
            "user_goal": {
                "high_level_user_goal": "You want to move your flight to an earlier one today.",
                "decision_tree": {
                    "must_have_criteria": ["The new flight departs before 2:00 PM today."],
                    "negotiation_behavior": [],
                    "resolution_condition": "The change is confirmed. End the call.",
                    "failure_condition": "If the agent cannot help, say goodbye and end the call.",
                    "escalation_behavior": "If the agent offers to transfer you, decline.",
                    "edge_cases": [],
                },
                "information_required": INFO,
            },
            "user_config": {"name": "Ana Lima", "user_persona": ""},
            "scenario_context": {},
            "ground_truth": {"expected_scenario_db": {}},
            "starting_utterances": {"en": "Hi, I need to change my flight."},
        }
    )


def reply(turn: str) -> CallerAct:
    """The caller's reply to ``turn`` heard first after its opening line."""
    c = GoalCaller(scenario(), GoalCallerConfig(seed=0))
    c.open()
    return c.respond(turn)


def right(kind: str, act: CallerAct) -> bool:
    """Whether ``act`` is the reply a turn of ``kind`` wants (see the module docstring)."""
    hold = "hold" in act.heard and act.kind == "wait"
    here = act.rule == "presence_check_here"
    if kind == "hold":
        return hold
    if kind == "presence":
        return here
    return not here and "hold" not in act.heard


def halves(kind: str, wordings: list[str]) -> dict[str, list[str]]:
    """The develop (even positions) and held-out (odd positions) wordings of one kind; the
    ``ordinary_new`` block, added after a review, is held out whole."""
    if kind == "ordinary_new":
        return {"develop": [], "held_out": wordings}
    return {"develop": wordings[0::2], "held_out": wordings[1::2]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", action="store_true", help="print the develop wordings it gets wrong")
    ap.add_argument("--held-out", action="store_true", help="print the held-out counts too")
    args = ap.parse_args()
    for kind in ("hold", "presence", "ordinary", "ordinary_new"):
        parts = halves(kind, DATA[kind])
        shown = ["develop", "held_out"] if args.held_out else ["develop"]
        line = []
        for half in [h for h in shown if parts[h]]:
            acts = [(w, reply(w)) for w in parts[half]]
            ok = sum(right(kind, a) for _, a in acts)
            line.append(f"{half} {ok}/{len(acts)}")
            if args.rows and half == "develop":
                for w, a in acts:
                    if not right(kind, a):
                        print(f"  MISS {kind}: {w!r} -> {a.kind}/{a.rule} {a.text!r}")
        if line:
            print(f"{kind:12s} " + "  ".join(line))


if __name__ == "__main__":
    main()
