"""``refused_*`` weak classes (:mod:`voxbench.bench.weak_refusals`): a refusing tree step added
to each scenario, the refused fact asked (a refusal expected: a yes fails), another fact asked
under a step that refuses that one fact only."""

from __future__ import annotations

import re

from voxbench.bench.caller_check import Grounding, goal_text
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade
from voxbench.bench.weak_facts import table
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez", "employee_id": "EMP048271"}


def _items(cls: str) -> list[WeakItem]:
    return [i for i in generate("airline", make_scenario(INFO)) if i.cls == cls]


def test_another_fact_is_asked_only_under_a_step_refusing_one_fact() -> None:
    wide = [re.escape(t).replace(re.escape("{label}"), ".+") for t in table("en").refusal_steps_wide]
    items = _items("refused_other_asked")
    assert items
    for item in items:
        assert item.steps and not any(re.fullmatch(w, s) for s in item.steps for w in wide)


def test_a_refusal_is_expected_and_a_yes_fails() -> None:
    sc = make_scenario(INFO)
    facts, ground = goal_facts(INFO), Grounding(INFO, goal_text(sc))
    [asked] = _items("refused_asked")
    assert not grade(asked, "Yes, I can give you that.", False, facts, ground)[0]
    assert grade(asked, "I'd rather not share that on this call.", False, facts, ground)[0]
