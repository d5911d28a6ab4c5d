"""Read-backs in many wordings: does the goal caller say yes to its own values and correct a wrong one?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_readback_wordings.py [--half develop|held-out|both] [--rows]

``readback_wordings.json`` beside this file holds read-back templates written for issue 29 (not from
EVA's files or the weak-turn bench) over two hand-made scenarios, and ordinary turns that say values
without reading any back. Each template is said twice to a fresh caller that has just opened: with
the caller's own values (right: the reply must confirm, a yes) and with the one fact named in its
``wrong`` one character, digit or day off (wrong: the reply must correct that fact). An ordinary turn
must not be corrected. The split into DEVELOP and HELD-OUT halves is fixed by the item's id
(:func:`half`), written down before the set was first measured; the held-out half is read once, at
the end of a change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

SET = Path(__file__).with_name("readback_wordings.json")


def half(item_id: str) -> str:
    """DEVELOP when the id's sha256 (first 8 hex digits) is even, else HELD-OUT."""
    return "develop" if int(hashlib.sha256(item_id.encode()).hexdigest()[:8], 16) % 2 == 0 else "held-out"


def scenario(info: dict[str, Any]) -> Scenario:
    """A caller that holds ``info`` and wants its claim or booking handled (no tree answers)."""
    return Scenario.model_validate({
        "id": "rb.1",
        "current_date_time": "2026-06-18 09:00 PST",
        "user_goal": {
            "high_level_user_goal": "You want the agent to update your claim and booking.",
            "decision_tree": {"must_have_criteria": [], "negotiation_behavior": [],
                              "resolution_condition": "The update is confirmed. End the call.",
                              "failure_condition": "If the agent cannot help, say goodbye and end the call.",
                              "escalation_behavior": "If the agent offers a transfer, decline.",
                              "edge_cases": []},
            "information_required": info,
        },
        "user_config": {"name": "Sam Caller", "user_persona": ""},
        "scenario_context": {},
        "ground_truth": {"expected_scenario_db": {}},
        "starting_utterances": {"en": "Hi, I need help with my account."},
    })  # fmt: skip


def fill(turn: str, values: dict[str, dict[str, Any]], wrong: str | None) -> str:
    """The template with each fact's form: its right value, or for ``wrong`` the one off."""

    def one(m: re.Match[str]) -> str:
        key, form = m.group(1), m.group(2) or ""
        v = values[key]
        if not form:
            return str(v["wrong" if key == wrong else "right"])
        return str(v[form][1 if key == wrong else 0])

    return re.sub(r"\{(\w+)(?:\.(\w+))?\}", one, turn)


def reply(info: dict[str, Any], turn: str) -> CallerAct:
    c = GoalCaller(scenario(info), GoalCallerConfig(seed=0))
    c.open()
    return c.respond(turn)


def passed(act: CallerAct, expect: str, key: str) -> bool:
    """right: a yes (not corrected); wrong: a correction that gives the fact; ordinary: no correction."""
    if expect == "right":
        return act.kind != "correct" and (act.choice == "yes" or act.text.lower().startswith("yes"))
    if expect == "wrong":
        return act.kind == "correct" and key in act.facts
    return act.kind != "correct"


def items(data: dict[str, Any], block: str = "") -> list[tuple[str, str, str, str, str]]:
    """(id, scenario, expect, wrong fact, turn) for every template said right and wrong, and every
    ordinary turn, of the first set (``block`` '') or of the block added after review ('new')."""
    out = []
    suffix = f"_{block}" if block else ""
    for r in data[f"readbacks{suffix}"]:
        vals = data["scenarios"][r["sc"]]["values"]
        out.append((r["id"], r["sc"], "right", r["wrong"], fill(r["turn"], vals, None)))
        out.append((r["id"], r["sc"], "wrong", r["wrong"], fill(r["turn"], vals, r["wrong"])))
    out += [(o["id"], o["sc"], "ordinary", "", o["turn"]) for o in data[f"ordinary{suffix}"]]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=["develop", "held-out", "both"], default="develop")
    ap.add_argument("--rows", action="store_true", help="print the failing rows (not the held-out half)")
    ap.add_argument("--new", action="store_true", help="the blocks added after review, held out whole")
    args = ap.parse_args()
    data = json.loads(SET.read_text())
    halves = ["develop", "held-out"] if args.half == "both" else [args.half]
    if args.new:
        halves = ["new"]
    tally: dict[tuple[str, str], list[int]] = {}
    for iid, sc, expect, key, turn in items(data, "new" if args.new else ""):
        h = "new" if args.new else half(iid)
        if h not in halves:
            continue
        act = reply(data["scenarios"][sc]["info"], turn)
        ok = passed(act, expect, key)
        t = tally.setdefault((h, expect), [0, 0])
        t[0] += ok
        t[1] += 1
        if args.rows and not ok and h != "held-out":
            print(f"  {iid} {expect:8} {turn!r}\n      -> {act.kind} {act.facts} {act.text!r}")
    for (h, expect), (n, total) in sorted(tally.items()):
        print(f"{h:9} {expect:8} {n:3}/{total:3}")


if __name__ == "__main__":
    main()
