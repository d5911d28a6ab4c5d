"""An offer made with a refusal the tree names a question for gets that question first, a no to
it included; an alternative the tree says to decline is declined, not taken."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.alternatives import declined_things
from voxbench.pipelines.caller.goal.policy import GoalCaller

SWAP = (
    "If the agent says the shift cannot be swapped because it is within 24 hours, ask exactly one "
    "follow-up question: ask whether there is any exception or workaround for this shift."
)
FLOOR = "If the agent offers a desk on another floor, decline and restate that you only want FL1."


def _caller(steps: list[str], seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP551200", "building_name": "East Campus", "floor": "FL1"},
        goal="You want your shift swapped and a desk on floor 1 of East Campus.",
        negotiation=steps,
        start="Hi, I need help with a shift swap.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_offer_outside_the_goal_is_declined_with_the_trees_question(seed: int) -> None:
    c = _caller([SWAP], seed)
    act = c.respond("I'm sorry, the shift cannot be swapped because it is within 24 hours. "
                    "Would you like me to submit a feedback form instead?")  # fmt: skip
    assert act.rule == "tree_follow_up_question_after_no" and act.choice == "no"
    assert act.text.endswith("Is there any exception or workaround for this shift?")
    again = c.respond("There is no exception. Would you like me to submit a feedback form instead?")
    assert "exception" not in again.text  # asked once


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_alternative_the_tree_declines_is_declined(seed: int) -> None:
    act = _caller([FLOOR], seed).respond("I could check another floor for you.")
    assert act.choice == "no" and act.rule == "alternative_tree_declines"
    plain = _caller([], seed).respond("I could check another floor for you.")
    assert plain.choice == "yes"  # no tree word on it: taken, as before


def test_only_a_thing_in_the_condition_or_as_the_decline_s_object_is_declined() -> None:
    assert declined_things([FLOOR]) == {"floor"}
    assert declined_things(["Do not ask for other buildings; if asked, decline alternatives."]) >= {
        "alternativ"
    }
    assert (
        declined_things(
            ["If it costs too much, reject it and ask them to look for any other return options."]
        )
        == set()
    )
    assert declined_things(["If the agent suggests a different airport than SNA, decline."]) == {"airport"}
