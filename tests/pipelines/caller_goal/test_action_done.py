"""A completion read by the request's own action words (goal/action_done.py), and the endings it
changes: a request done in a turn that asks for the next one, a completion naming no request is not the request offered next, a 'not found,
read it once more' turn, and the answer to the last push-back on a refusal that named nothing."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.action_done import ActionDone, actions_of, says_done
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller

FOUR = [
    "Set up accounts for my new team member",
    "Remove access for my departing team member immediately",
    "Get Confluence access for myself",
    "Book a room for the transition meeting",
]


def test_the_action_is_the_first_verb_and_its_object_the_rest() -> None:
    (remove,) = actions_of("Remove access for my departing team member immediately")
    assert remove is not None and remove.verb == "remove" and "acces" in remove.objects
    (setup,) = actions_of("Set up accounts for my new team member")
    assert setup is not None and (setup.verb, setup.particle) == ("set", "up")
    (get,) = actions_of("Get Confluence access for myself")
    assert get is not None and get.weak  # a weak verb: only its object said finished tells it done
    mark, schedule = actions_of("Mark onboarding tasks as complete and schedule orientation")
    assert mark is not None and schedule is not None and schedule.verb == "schedule"
    assert "complet" not in mark.objects  # a finished word names no object
    assert actions_of("Ask you to skip sending the calendar invite after booking") == []  # a behaviour


@pytest.mark.parametrize(
    ("sentence", "done"),
    [
        ("That access removal is complete.", True),
        ("Daniel Ortega's access has been fully removed.", True),
        ("I've removed the access.", True),
        ("After access is removed, I also need to set up hardware recovery.", False),
        ("I will remove the access now.", False),
        ("The access cannot be removed over the phone.", False),
        ("Has the access been removed?", False),
        ("Removing access requires manager approval.", False),
    ],
)
def test_a_sentence_says_the_action_happened(sentence: str, done: bool) -> None:
    (remove,) = actions_of("Remove access for my departing team member")
    assert remove is not None
    assert says_done(remove, sentence) is done


def test_each_request_by_its_own_action_and_object() -> None:
    a = ActionDone(FOUR)
    assert a.done_in("That access removal is complete. Next, what access level do you need?") == [1]
    assert a.done_in("Your room is booked.") == [3]
    assert a.done_in("The hardware recovery is set up as drop off.") == []  # not its object
    two = ActionDone(
        ["Mark onboarding tasks as complete and schedule orientation", "Transfer DEA registration"]
    )
    assert two.done_in("Your drug screen is marked complete.") == []  # not the onboarding tasks
    assert two.done_in("Your onboarding tasks are marked complete.") == []  # one of its two actions
    assert two.done_in("Your onboarding tasks are marked complete, and your orientation is scheduled.") == [0]


def _caller(intents: list[str], seed: int, **kw: object) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP031482", "departing_employee_id": "EMP072948", "access_level": "read only"},
        goal="You have a few things to handle today.",
        intents=intents,
        start="Hi, I have a few things I need help with today.",
        **kw,  # type: ignore[arg-type]
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_request_done_in_a_turn_that_asks_the_next_thing_is_done(seed: int) -> None:
    c = _caller(FOUR[1:3], seed)
    act = c.respond(
        "That access removal is complete. Next, for your Confluence access, what access level do you need?"
    )
    assert c.done == [True, False] and "action_done:0" in act.rules
    act = c.respond("Your Confluence access request has been submitted. Anything else I can help with?")
    assert act.ends_call and act.end_reason == "resolved"  # not 'one more thing: remove access'


@pytest.mark.parametrize("seed", [0, 1])
def test_a_completion_naming_no_request_is_not_the_one_offered_next(seed: int) -> None:
    c = _caller(
        ["Add my newborn as dependent to the visa petition", "Request PTO days before the leave"], seed
    )
    c.respond("That's done. Your dependent was added to the petition.")
    assert c.done == [True, False]
    act = c.respond(
        "All set. Your check-in is scheduled. Would you like to complete the short PTO request now?"
    )
    assert c.done == [True, False]
    assert act.choice == "yes" and not act.ends_call


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_not_found_read_it_once_more_gets_the_facts_again(seed: int) -> None:
    c = _caller(["Remove access for my departing team member"], seed)
    given = c.respond("Please give me the departing employee ID.")
    assert given.facts
    act = c.respond(
        "I'm not finding a record under that ID. Please check the number and read it to me once more."
    )
    assert act.rule == "repeat_last_facts" and act.facts == given.facts
    assert act.kind != "pushback"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_answer_to_the_last_follow_up_ends_when_the_refusal_named_nothing(seed: int) -> None:
    c = _caller(
        ["Add my spouse as dependent to the visa petition", "Request PTO for my honeymoon"],
        seed,
        negotiation=[
            "If the agent says there is not enough balance, ask exactly one follow-up question, then accept."
        ],
    )
    c.respond("Your spouse was added as a dependent to the visa petition. What PTO question can I help with?")
    assert c.done == [True, False]
    act = c.respond("I'm not able to submit that request. Those dates need six days and you have three.")
    assert act.kind == "pushback" and not act.ends_call
    last = c.respond("Right now you have three days available.")
    assert last.ends_call and last.end_reason == "failed"


@pytest.mark.parametrize("seed", [0, 1])
def test_a_condition_to_try_once_more_asks_nothing(seed: int) -> None:
    """'We can try the code one more time only if you think a character may be different.' states
    a condition; the refusal around it is answered as one, not with the facts again."""
    c = _caller(["Remove access for my departing team member"], seed)
    c.respond("Please give me the departing employee ID.")
    act = c.respond(
        "That ID still does not match our records. Per policy, we can try it one more time only if you "
        "think a character may be different."
    )
    assert act.rule != "repeat_last_facts"


def test_a_weak_request_is_done_when_its_own_object_is_said_finished() -> None:
    a = ActionDone(["Get Confluence access", "Get Datadog access"])
    assert a.done_in("Your Confluence access request is submitted and auto-approved.") == [0]  # not Datadog
    twins = ActionDone(["Get a desk on floor 2", "Get a desk on floor 3"])
    assert twins.done_in("Your desk assignment is complete.") == []  # no word tells them apart


def test_one_sentence_reports_the_request_it_names_best() -> None:
    a = ActionDone(["Get a 60-day Adobe Creative Cloud trial", "Renew my IntelliJ license"])
    assert a.done_in("Your temporary Adobe Creative Cloud license request is submitted.") == [0]
    assert a.done_in("Your IntelliJ license renewal is complete.") == [1]


def test_a_goal_without_listed_requests_has_no_action_words() -> None:
    sc = make_scenario({"confirmation_number": "ZK3FFW"}, goal="You want to keep your seat and get a voucher.")
    c = GoalCaller(sc, GoalCallerConfig(seed=0))
    assert c.s.done_by.actions == []
