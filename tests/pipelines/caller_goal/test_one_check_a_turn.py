"""After a report, the open must-haves are asked one a turn, in the goal's order, as EVA's
reference callers do; all at once only when the agent asks for the whole list (issue 29)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

MUSTS = [
    "The agent confirms your return flight remains unchanged.",
    "You receive a meal voucher of $12.",
    "The agent tells you the boarding gate of the new flight.",
]
REPORT = "Your flight has been changed to the 2:15 PM departure."


def _caller(seed: int) -> GoalCaller:
    return opened(make_scenario({"confirmation_number": "N53W23", "last_name": "Cruz"}, must=MUSTS), seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_open_must_haves_are_asked_one_a_turn_in_the_goals_order(seed: int) -> None:
    c = _caller(seed)
    first = c.respond(f"{REPORT} Is there anything else I can help you with?")
    assert first.rule == "must_have_not_told" and not first.ends_call
    assert "return flight remains unchanged" in first.text
    assert "voucher" not in first.text and "gate" not in first.text
    second = c.respond("Yes, your return flight is unchanged. Anything else?")
    assert second.rule == "must_have_not_told" and "voucher" in second.text and "gate" not in second.text
    third = c.respond("I've issued a twelve dollar meal voucher. Anything else?")
    assert third.rule == "must_have_not_told" and "gate" in third.text and "voucher" not in third.text
    end = c.respond("The new flight boards at gate B12. Anything else?")
    assert end.ends_call and end.rule == "nothing_else_end"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "ask",
    ["What other things do you need?", "Go ahead and list them all.", "What are the rest of your requests?"],
)
def test_a_question_asking_for_the_whole_list_gets_every_open_must_have(seed: int, ask: str) -> None:
    c = _caller(seed)
    act = c.respond(f"{REPORT} {ask}")
    assert act.rule == "must_have_not_told"
    assert all(w in act.text for w in ("return flight remains unchanged", "voucher", "gate"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_let_me_check_again_and_again_re_asks_only_the_last_check(seed: int) -> None:
    """'Let me check' answers no check: the check just asked is asked once more, then the next;
    an earlier check is never bundled into a later re-ask (review of branch twopart)."""
    c = _caller(seed)
    c.respond(f"{REPORT} Anything else?")
    lines = []
    for _ in range(3):
        act = c.respond("Let me check on that. Anything else?")
        lines.append(act)
        if act.ends_call:
            break
    for act in lines:
        assert not ("return flight" in act.text and "voucher" in act.text), act.text
    assert "return flight" in lines[0].text and "voucher" in lines[1].text
