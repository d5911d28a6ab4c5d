"""How the goal caller reads asks in any wording: plural asks, pronoun asks, option leads, "what else?".

    PYTHONPATH=src .venv/bin/python benchmarks/caller_asks_wordings.py [--half develop|held-out|all]
        [--out replies.json] [--base replies.json] [--rows]

The wordings are hand-written (``caller_asks_wordings.json``, issue 29), none from EVA's files or
a bench. Each is said to a fresh caller of the file's scenario, that has said its opening line
(and, for "what else", answered a check first), and graded by its class:

* ``plural`` / ``pronoun``: the act discloses every fact the wording wants (a plural noun: each
  fact of its kind; a pronoun: the facts the sentence before it names);
* ``option_lead``: the act chooses one of the two options, and nothing else ('let me know if');
* ``what_else``: the act neither says it lacks something nor asks what is meant: it gives what it
  has yet to tell, or says that is all;
* ``ordinary``: turns the change must leave alone: the reply is word for word the ``--base``
  file's (main's replies, written with ``--out``); without ``--base`` it is not graded.

The split is fixed by the wording's text before any result: DEVELOP when
``int(sha256(text)[:8], 16)`` is even, else HELD-OUT. Read the held-out half only at the end.
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

_SET = Path(__file__).with_name("caller_asks_wordings.json")
_CLASSES = ("plural", "pronoun", "option_lead", "what_else", "ordinary")
_LACKS = re.compile(r"\b(don't|do not) (have|know)\b|\bnot sure what\b|\bwhat do you mean\b", re.I)


def half(text: str) -> str:
    """The wording's half, fixed by its text alone."""
    return "develop" if int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % 2 == 0 else "held-out"


def scenario(spec: dict[str, Any]) -> Scenario:
    """The set's one scenario, in the form EVA's scenarios take."""
    return Scenario.model_validate(
        {
            "id": "asks.1",
            "current_date_time": "2026-06-18 09:00 PST",
            "user_goal": {
                "high_level_user_goal": spec["goal"],
                "decision_tree": {
                    "must_have_criteria": [],
                    "negotiation_behavior": [],
                    "resolution_condition": "The request is done. End the call.",
                    "failure_condition": "If the agent cannot help, say goodbye and end the call.",
                    "escalation_behavior": "If the agent offers to transfer you, decline.",
                    "edge_cases": [],
                },
                "information_required": spec["info"],
            },
            "user_config": {"name": "Ana Lima", "user_persona": ""},
            "scenario_context": {},
            "ground_truth": {"expected_scenario_db": {}},
            "starting_utterances": {"en": spec["start"]},
        }
    )


def reply(sc: Scenario, text: str, pre: list[str]) -> CallerAct:
    """The act a fresh, opened caller says to ``text`` after the agent turns ``pre``."""
    c = GoalCaller(sc, GoalCallerConfig(seed=0))
    c.open()
    for p in pre:
        c.respond(p)
    return c.respond(text)


def passed(cls: str, item: dict[str, Any], act: CallerAct, base: dict[str, str] | None) -> bool | None:
    """Whether the act answers the wording as its class wants (None: not graded)."""
    if cls in ("plural", "pronoun"):
        return set(item["want"]) <= set(act.facts)
    if cls == "option_lead":
        chosen = act.choice.lower()
        return sum(o in chosen for o in item["opts"]) == 1 and not re.search(r"\b(know|tell|if)\b", chosen)
    if cls == "what_else":
        return bool(act.text) and not _LACKS.search(act.text)
    return None if base is None else base.get(item["text"]) == act.text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=["develop", "held-out", "all"], default="develop")
    ap.add_argument("--out", type=Path, help="write every reply (both halves) here")
    ap.add_argument("--base", type=Path, help="replies to compare the ordinary turns with")
    ap.add_argument("--rows", action="store_true", help="print the failed wordings of the half read")
    args = ap.parse_args()
    data = json.loads(_SET.read_text())
    sc = scenario(data["scenario"])
    base = json.loads(args.base.read_text()) if args.base else None
    replies: dict[str, str] = {}
    for cls in _CLASSES:
        pre = data["what_else_pre"] if cls == "what_else" else []
        ok = n = 0
        for item in data[cls]:
            act = reply(sc, item["text"], pre)
            replies[item["text"]] = act.text
            if args.half != "all" and half(item["text"]) != args.half:
                continue
            good = passed(cls, item, act, base)
            if good is None:
                continue
            n += 1
            ok += good
            if args.rows and not good:
                print(f"  [{cls}] {item['text']!r} -> {act.text!r} {act.facts} {act.choice!r}")
        print(f"{cls:12s} {args.half:9s} {ok}/{n}")
    if args.out:
        args.out.write_text(json.dumps(replies, indent=1))


if __name__ == "__main__":
    main()
