"""A goal's fallback (:mod:`voxbench.pipelines.caller.goal.contingent`): the listed request the
goal takes only if another cannot be had is not stated with the requests, and is taken when the
agent offers it or refuses the request it backs up."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.contingent import contingent
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

ROOM = "Book the Harbor room for Thursday"
LIST = "Get added to the standby list for the Harbor room"
GOAL = (
    "You want to book the Harbor room for Thursday, but if it is already booked, you are willing to be "
    "added to the standby list for it."
)
INFO = {"employee_id": "EMP204518", "room_name": "Harbor"}


def _caller(goal: str = GOAL, intents: list[str] | None = None) -> GoalCaller:
    sc = make_scenario(INFO, goal=goal, intents=intents or [ROOM, LIST], start="Hi, I need a meeting room.",
                       escalation="Do not ask for a live agent.")  # fmt: skip
    c = GoalCaller(sc)
    c.open()
    return c


def test_a_request_held_under_an_unmet_condition_is_a_fallback() -> None:
    assert contingent([ROOM, LIST], GOAL) == [False, True]
    twins = ["Get a locker on level 2", "Get a locker on level 4", "Get a parking pass"]
    goal = "You want a locker on level 2 but will take level 4 if level 2 is full, and a parking pass for level 4."
    assert contingent(twins, goal) == [False, True, False]  # 'a parking pass for level 4' is the pass's


def test_a_request_the_goal_also_asks_for_plainly_is_none() -> None:
    goal = "You want a locker on level 2, and if no corner lockers are available, you will take any locker there."
    assert contingent(["Get a parking pass", "Get a locker on level 2"], goal) == [False, False]
    said = "You want the Harbor room; if it is booked you need the standby list too."  # nothing taken instead
    assert contingent([ROOM, LIST], said) == [False, False]
    assert contingent([LIST, ROOM], GOAL) == [False, False]  # the first request backs up none


def test_the_statement_of_requests_leaves_the_fallback_out() -> None:
    reply = _caller().respond("How can I help you today?")
    assert reply.rule == "state_request"
    assert "Harbor room" in reply.text and "standby" not in reply.text


def test_the_fallback_offered_is_taken() -> None:
    c = _caller()
    c.respond("How can I help you today?")
    c.respond("I'm sorry, the Harbor room is already booked on Thursday.")
    reply = c.respond("Would you like me to add you to the standby list for the Harbor room instead?")
    assert reply.rule == "offered_request_yes" and reply.text.startswith("Yes.")
    assert "standby list" in reply.text


def test_the_fallback_is_chosen_among_options() -> None:
    c = _caller()
    c.respond("How can I help you today?")
    c.respond("I'm sorry, the Harbor room is already booked on Thursday.")
    reply = c.respond("You could join the standby list for the Harbor room, or I can send you a feedback form. "
                      "Which would you prefer?")  # fmt: skip
    assert "standby list" in reply.text and "feedback" not in reply.text


def test_a_refusal_standing_brings_up_the_fallback() -> None:
    c = _caller()
    c.respond("How can I help you today?")
    first = c.respond("I'm sorry, I can't book the Harbor room on Thursday.")
    assert first.rule == "one_follow_up_question"  # the tree's answer to a refusal first
    reply = c.respond("I'm sorry, I cannot reserve the Harbor room.")  # names the request in hand
    assert reply.rule == "fallback_after_refusal" and "standby list" in reply.text


def test_an_offer_naming_the_fallbacks_noun_for_another_thing_does_not_settle_it() -> None:
    t = IntentTracker(["Get parking in the East garage", "Get on the waitlist for East garage parking"],
                      "You want parking in the East garage, but accept its waitlist if no space is free.")  # fmt: skip
    assert t.fallback == [False, True]
    t.note("There are no desks, so I placed you on the desk waitlist.", False)
    assert t.done == [False, False]
    t.note("You're on the waitlist for East garage parking.", True)
    assert t.done[1]
