"""A completion whose subject is the whole call ('Everything is complete.') settles every request
still open; one about a part of it ('Both pending onboarding tasks are now complete.') does not,
nor does 'All done.', said of the request in hand as often."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.policy import GoalCaller

_INTENTS = ["Set up accounts for my new team member", "Remove access for my departing team member",
            "Book a room for the transition meeting"]  # fmt: skip


@pytest.mark.parametrize(
    "said",
    [
        "Everything is complete.",
        "Everything has been completed, and the invite is sent.",
        "You're all done now.",
    ],
)
def test_everything_done_settles_every_open_request(said: str) -> None:
    t = IntentTracker(list(_INTENTS))
    t.note(f"{said} Your case number is C A S E one two.", completed=True)
    assert t.done == [True, True, True]


@pytest.mark.parametrize(
    "said",
    [
        "Both pending onboarding tasks are now complete.",
        "Everything is complete for the new hire setup.",
        "You're all set for the meeting.",
        "All done.",  # said of the request in hand as often: one request, the next still open
        "All done, that's been taken care of.",
        "It's all done.",
    ],
)
def test_a_part_done_is_not_everything(said: str) -> None:
    t = IntentTracker(list(_INTENTS))
    t.note(said, completed=True)
    assert t.done.count(True) <= 1


def test_everything_done_is_no_refusal_and_no_completion_of_a_behaviour() -> None:
    t = IntentTracker([*_INTENTS[:2], "Get the agent to skip the calendar invite"])
    t.note("Everything is complete.", completed=False)  # read as no completion: nothing settled by it
    assert t.done == [False, False, False]
    t.note("Everything is complete.", completed=True)
    assert t.done == [True, True, False]  # the in-call behaviour is raised after the others


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_caller_says_goodbye_to_everything_done_and_anything_else(seed: int) -> None:
    sc = make_scenario({"employee_id": "EMP031482"}, goal="You have three requests.", intents=_INTENTS,
                       start="Hi, I have a few things I need help with today.")  # fmt: skip
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    c.respond("Please give me your employee ID.")
    act = c.respond(
        "Everything is complete. Your new hire setup is complete under case C A S E one. "
        "Is there anything else I can help you with today?"
    )
    assert act.ends_call and act.end_reason == "resolved"
