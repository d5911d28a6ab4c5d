"""Every call the goal caller ends carries its reason in the act trail, over EVA's public scenarios:
the ending act's rule is one of :data:`END_REASONS` and its rules say ``end:<reason>``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.reference import reference_turns
from voxbench.pipelines.caller.goal.acts import END_REASONS
from voxbench.pipelines.caller.goal.policy import GoalCaller


def test_every_ending_act_names_its_reason(eva_data: Path) -> None:
    reasons: Counter[str] = Counter()
    for _, sc in resolved_scenarios(str(eva_data)):
        caller = GoalCaller(sc)
        opening, turns = reference_turns(sc)
        if opening is not None:
            caller.open()
        for agent, _ in turns:
            act = caller.respond(agent)
            if act.ends_call:
                assert act.rule in END_REASONS, (sc.id, act.rule)
                assert f"end:{END_REASONS[act.rule]}" in act.rules and act.end_reason == END_REASONS[act.rule]
                reasons[act.end_reason] += 1
                break
    assert set(reasons) <= set(END_REASONS.values()) and sum(reasons.values()) >= 150
