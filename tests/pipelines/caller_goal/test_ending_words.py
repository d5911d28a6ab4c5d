"""A tree's own end condition (issue 29, bench/weak_treeend.py): a tree that says to push back
three times gets three push-backs, not a goodbye at the second because the generic line would be
said again, and accepts at the fourth refusal."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened

PUSH = "after pushing back firmly 3 times, if you are clearly denied, accept the outcome."
REFUSALS = [
    "I'm sorry, I'm not able to file FMLA leave for 10 weeks.",
    "I'm sorry, but I'm unable to file FMLA leave for 10 weeks at this time.",
    "Unfortunately, I can't file FMLA leave for 10 weeks. That isn't something I'm able to do.",
    "I'm sorry, I'm not able to file FMLA leave for 10 weeks.",
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_push_backs_are_three_lines_then_it_accepts(seed: int) -> None:
    sc = make_scenario(
        {"employee_id": "EMP824156"},
        goal="You want to file a 10-week FMLA leave case for your own medical condition.",
        must=[f"You want to file a 10-week FMLA leave case, but {PUSH}"],
        escalation="Do not ask to speak to a live agent.",
        start="Hi, I need to file for FMLA leave.",
    )
    c = opened(sc, seed)
    replies = [c.respond(r) for r in REFUSALS]
    pushes = replies[:3]
    assert [r.rule for r in pushes] == ["tree_push_back"] * 3
    assert not any(r.ends_call for r in pushes)
    assert len({r.text for r in pushes}) == 3
    assert replies[3].ends_call
