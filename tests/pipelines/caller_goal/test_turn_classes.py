"""Classes of agent turns the goal caller reads the same way whatever the wording: a request that
points back to the sentence before it, and options listed as a series before 'Which one?'."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.options import listed_series
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

from .conftest import make_scenario


def _hr() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP-4471",
            "aggregate_limit_usd": 4500000,
            "effective_date": "2026-09-15",
            "expiration_date": "2027-09-15",
            "clearance_code": "CLR-OCC-324345",
            "preferred_time": "10:00 AM",
        },
        goal="You want to update your malpractice record and schedule a check-in.",
        intents=["Update malpractice coverage", "Schedule a check-in"],
        start="Hi, I need to update my malpractice coverage.",
    )


def _book(sc: Scenario):  # type: ignore[no-untyped-def]
    return goal_facts(sc.user_goal.information_required, sc.seed_data)


@pytest.mark.parametrize(
    "turn",
    [
        "Thank you. Three details are still missing: the aggregate limit, the effective date, and the "
        "expiration date. Please give those to me.",
        "I'm missing the aggregate limit, the effective date and the expiration date. Can you tell me those?",
        "The record needs the aggregate limit, effective date, and expiration date. Please provide them now.",
    ],
)
def test_request_pointing_back_asks_what_the_sentence_before_names(turn: str) -> None:
    h = classify(turn, _book(_hr()))
    assert set(h.asked) == {"aggregate_limit_usd", "effective_date", "expiration_date"}
    assert any(r.endswith(":named_before") for r in h.rules)


def test_what_the_agent_still_needs_is_asked_by_its_own_words() -> None:
    """'I still need X, Y and Z.' asks by itself (a request, :func:`.asks.is_request`); the pronoun
    after it adds nothing."""
    turn = (
        "Thank you. I still need three details: the aggregate limit, the effective date, and the expiration "
        "date. Please give those to me."
    )
    h = classify(turn, _book(_hr()))
    assert set(h.asked) == {"aggregate_limit_usd", "effective_date", "expiration_date"}


@pytest.mark.parametrize(
    "turn",
    [
        "Your clearance code should include dashes. Please read it again slowly with the dashes included.",
        "I didn't catch the clearance code. Could you spell it for me?",
        "That clearance code did not come through. Please say it once more.",
    ],
)
def test_asked_to_say_a_fact_again(turn: str) -> None:
    sc = _hr()
    caller = GoalCaller(sc)
    caller.open()
    act = caller.respond(turn)
    assert "clearance_code" in act.facts
    assert "C L R" in act.text


@pytest.mark.parametrize(
    "turn",
    [
        "Please confirm those dates are correct.",  # a determiner, not a pronoun
        "Please confirm that you want me to submit the update.",  # a clause
        "Please say yes if that's correct.",
        "Please tell me the last four digits of the number that should receive the text.",
    ],
)
def test_a_pronoun_that_is_not_the_object_points_nowhere(turn: str) -> None:
    h = classify(f"I have your aggregate limit and effective date. {turn}", _book(_hr()))
    assert not any(r.endswith(":named_before") for r in h.rules)


@pytest.mark.parametrize(
    ("sentence", "items"),
    [
        ("I found three openings on August eighteenth, twenty twenty-six: ten AM, eleven AM, and two PM.",
         ["ten AM", "eleven AM", "two PM"]),
        ("October sixth is available, and I have nine AM, one PM, or four PM.", ["nine AM", "one PM", "four PM"]),
        ("You mentioned onboarding, I-9, and a PTO request.", ["onboarding", "I-9", "a PTO request"]),
        ("Since you need help with onboarding, I-9, and sick leave, we can take those one at a time.",
         ["onboarding", "I-9", "sick leave"]),
        ("The slots left are: nine AM or one PM.", ["nine AM", "one PM"]),
        ("I have a window, an aisle or a middle seat.", ["a window", "an aisle", "a middle seat"]),
    ],
)  # fmt: skip
def test_listed_series(sentence: str, items: list[str]) -> None:
    assert listed_series(sentence) == items


@pytest.mark.parametrize(
    "sentence",
    [
        "I also see you have fourteen PTO days and six sick days available.",  # two items, no colon
        "Your seat fourteen C and one checked bag are still on the booking.",
    ],
)
def test_not_a_series(sentence: str) -> None:
    assert listed_series(sentence) == []


@pytest.mark.parametrize(
    "turn",
    [
        "I found three openings on September twenty-first: ten AM, eleven AM, and two PM. Which time would you like?",
        "October sixth is available, and I have nine AM, ten AM, or two PM. Which works best for you?",
        "We have slots at eight AM, ten AM, and noon. Which one would you prefer?",
    ],
)
def test_times_listed_before_which_pick_the_callers_time(turn: str) -> None:
    caller = GoalCaller(_hr())
    caller.open()
    act = caller.respond(turn)
    assert act.choice and "ten" in act.choice.lower(), act
    assert "10 AM" in act.text


def test_status_list_is_not_offered() -> None:
    h = classify(
        "I currently show orientation, badge pickup, and T B test as pending. Which task would you like first?",
        _book(_hr()),
    )
    assert h.options == []


def test_own_requests_listed_before_which_first() -> None:
    sc = make_scenario(
        {"employee_id": "EMP-1"},
        goal="You want to finish onboarding, your I-9 and a PTO request.",
        intents=["Complete onboarding tasks", "Submit I-9 documents", "Submit a PTO request"],
        start="Hi, I need help with onboarding, my I-9 and PTO.",
    )
    caller = GoalCaller(sc)
    caller.open()
    act = caller.respond(
        "You mentioned onboarding, I-9, and a PTO request. Which would you like to handle first?"
    )
    assert act.rule == "option_is_next_request" and "onboarding" in act.text.lower()


@pytest.mark.parametrize(
    "turn",
    ["And what country was Rohan born in?", "Where was your son born?", "What is his country of birth?"],
)
def test_born_asks_for_the_birth_fact(turn: str) -> None:
    sc = make_scenario(
        {"employee_id": "E1", "dependent_first_name": "Rohan", "dependent_country_of_birth": "US"},
        goal="You want to add your son as a dependent.",
    )
    assert classify(turn, _book(sc)).asked == ["dependent_country_of_birth"]


def _itsm() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP1", "justification": "physical damage", "delivery_building": "Headquarters"},
        goal="You want a replacement laptop because yours is physically damaged.",
        intents=["Request a laptop replacement"],
    )


@pytest.mark.parametrize(
    "turn",
    [
        "Now let's do your replacement laptop. Do you want this as a replacement because of physical damage?",
        "Is the replacement because of physical damage?",
        "Okay, is it physical damage that you are reporting?",
        "And does the delivery go to Headquarters?",
    ],
)
def test_yes_no_question_naming_a_value_is_confirmed(turn: str) -> None:
    caller = GoalCaller(_itsm())
    caller.open()
    act = caller.respond(turn)
    assert act.choice == "yes" and act.text.startswith("Yes"), act


def test_alternatives_are_options_not_a_read_back() -> None:
    h = classify("Is the replacement because of physical damage, or end of life?", _book(_itsm()))
    assert h.has("options") and not h.has("confirm_question")


def _room(goal: str) -> Scenario:
    return make_scenario(
        {"employee_id": "EMP1", "meeting_date": "2026-08-28", "attendee_count": 6},
        goal=goal,
        intents=["Book a meeting room"],
    )


@pytest.mark.parametrize(
    "turn",
    [
        "Do you need any room equipment such as a display screen, whiteboard, projector, or speakerphone?",
        "Got it. Would you like any extras, for example catering or parking passes?",
        "Do you require any accessibility features, like a ramp or hearing loop?",
    ],
)
def test_extras_listed_as_examples_are_declined(turn: str) -> None:
    h = classify(turn, _book(_room("You want to book a meeting room for six people.")))
    assert not h.has("options")
    caller = GoalCaller(_room("You want to book a meeting room for six people."))
    caller.open()
    act = caller.respond(turn)
    assert act.rule == "extras_outside_goal_declined" and act.choice == "no"


def test_an_example_it_came_for_is_not_declined() -> None:
    caller = GoalCaller(_room("You want to book a meeting room for six people with a projector."))
    caller.open()
    act = caller.respond("Do you need any room equipment such as a whiteboard, projector, or speakerphone?")
    assert act.rule != "extras_outside_goal_declined"
