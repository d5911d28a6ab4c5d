"""A question about a thing the caller wants, that no fact holds, answered from the goal's words
(goal/openask.py's described things, followups.py's wanted questions)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.openask import GoalOpenAnswers, names_thing, offers
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

_GOAL = (
    "You want to get rebooked on the first available flight tomorrow with a quiet window seat, "
    "and you would like a hotel voucher for tonight because your flight was canceled."
)


def _answers() -> GoalOpenAnswers:
    return GoalOpenAnswers.of(make_scenario({"confirmation_number": "ZK3FFW"}, goal=_GOAL))


def test_a_thing_asked_by_its_kind_is_answered_by_the_clause_that_describes_it() -> None:
    a = _answers().answer("What sort of voucher are you after?")
    assert a is not None and a.how == "stated"
    assert a.line == "I would like a hotel voucher for tonight because my flight was canceled."


def test_a_wish_asked_by_its_noun_takes_a_describing_word_as_its_value() -> None:
    a = _answers().answer("And what flight do you want?")
    assert a is not None
    assert a.line == "I want to get rebooked on the first available flight tomorrow with a quiet window seat."


def test_a_noun_the_goal_names_with_no_describing_word_is_no_answer() -> None:
    sc = make_scenario({"employee_id": "EMP1"}, goal="You want to update your record before Friday.")
    assert GoalOpenAnswers.of(sc).answer("What kind of record do you need?") is None  # 'your record'


def test_which_thing_is_a_wish_unless_the_turn_offers_options() -> None:
    answers = _answers()
    assert answers.answer("Which voucher do you need?") is None  # offered by default: a choice
    a = answers.answer("Which voucher do you need?", offered=False)
    assert a is not None and "hotel voucher" in a.line
    assert answers.answer("Which one do you need?", offered=False) is None  # 'one': the agent's options
    assert offers("There is a 2 PM or a 5 PM flight. Which flight do you want?")
    assert not offers("I can rebook you. Which flight do you want?")


def test_a_thing_is_not_a_request_noun() -> None:
    assert names_thing("What room do you need?")
    assert not names_thing("What kind of leave request do you need help with today?")
    assert not names_thing("What can I help you with?")
    assert not names_thing("What do you need?")


def test_the_caller_says_the_goals_words_for_the_thing_not_that_it_lacks_it() -> None:
    c = GoalCaller(make_scenario({"confirmation_number": "ZK3FFW"}, goal=_GOAL))
    c.open()
    act = c.respond("I can help. What kind of seat would you prefer?")
    assert act.rule == "goal_answers_open:stated" and act.facts == []
    assert "quiet window seat" in act.text and "don't have" not in act.text


def test_a_which_after_listed_options_is_not_read_as_a_wish() -> None:
    c = GoalCaller(make_scenario({"confirmation_number": "ZK3FFW"}, goal=_GOAL))
    c.open()
    act = c.respond("The rooms are the garden room, or the lake room. Which room would you like me to book?")
    assert not act.rule.startswith("goal_answers_open") and act.rule != "wanted_asked_states_request"


def test_a_wanted_question_naming_a_later_request_states_that_request() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1"},
        goal="You need your laptop screen fixed, and you also need to book a conference room for a team huddle.",
        intents=["Get my cracked laptop screen fixed", "Book a conference room for a team huddle"],
    )
    c = GoalCaller(sc)
    c.open()
    act = c.respond("Which conference room booking would you prefer?")
    assert act.rule in ("wanted_asked_states_request", "goal_answers_open:stated")
    assert "conference room" in act.text and "laptop" not in act.text
