"""Asked for its next request, the caller says it with the reason the goal places with it
(``Requests.circumstances``): a word value of that request, never a code, number or date of it,
nor a fact of another request."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

INFO = {
    "employee_id": "EMP059182",
    "justification": "end_of_life",
    "laptop_size": "14_inch",
    "monitor_justification": "new_setup",
    "monitor_size": "27_inch",
    "monitor_asset_code": "MON-0729",
    "monitor_delivery_date": "2026-07-01",
}


def _caller(seed: int) -> GoalCaller:
    sc = make_scenario(
        INFO,
        goal="You need a replacement laptop since yours is end-of-life, and a new 27-inch monitor for your desk.",
        intents=[
            "Get a replacement laptop since mine is end-of-life",
            "Get a new 27-inch monitor for my desk",
        ],
        start="Hi, I have two hardware requests.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_next_request_comes_with_its_reason_and_nothing_else_unasked(seed: int) -> None:
    c = _caller(seed)
    assert c.s.owners.get("monitor_justification") == 1  # the goal places it with the monitor
    c.respond("Sure. What is your employee ID?")
    act = c.respond("Your laptop replacement has been submitted. What's your second hardware request?")
    assert act.kind == "state_request" and act.rule == "next_intent"
    assert "monitor" in act.text.lower()
    assert "new setup" in act.text.lower() and "monitor_justification" in act.facts
    # no code, number or date of that request, no fact of the first one
    for key, said in (
        ("monitor_asset_code", "M O N"),
        ("monitor_delivery_date", "July"),
        ("justification", "end of life"),
    ):
        assert key not in act.facts and said.lower() not in act.text.lower()


def test_a_reason_already_said_is_not_said_again() -> None:
    c = _caller(0)
    c.respond("Sure. What is your employee ID?")
    c.respond("Why do you need the monitor?")
    assert "monitor_justification" in c.given
    act = c.respond("Your laptop replacement has been submitted. What's your second hardware request?")
    assert act.rule == "next_intent" and "monitor_justification" not in act.facts
