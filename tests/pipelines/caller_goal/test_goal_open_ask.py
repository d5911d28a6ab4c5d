"""Open questions about what the caller wants or has, answered from its goal's own text (goal/openask.py)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.openask import GoalOpenAnswers, other_request
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

_TREE = [
    "When the agent asks why you are canceling, state: you had a medical emergency and you cannot travel.",
    "If asked for proof details, say you have hospital documentation, but do not invent document numbers.",
    "If the agent asks for your confirmation number, provide it exactly as listed in information_required.",
    "If the agent asks which seat you want, choose an aisle seat.",
    "If asked whether you want a credit, say no.",
]


def _cancel() -> GoalCaller:
    sc = make_scenario(
        {"confirmation_number": "ZK3FFW", "last_name": "Lima"},
        goal="You want to cancel your trip to Denver and you would like the refund as travel credit.",
        negotiation=_TREE,
    )
    return GoalCaller(sc)


def _answers() -> GoalOpenAnswers:
    return _cancel().s.open_answers


def test_the_trees_if_asked_clause_answers_an_open_question_in_the_first_person() -> None:
    a = _answers().answer("Why are you cancelling the trip?")  # 'cancelling' and 'canceling': one word
    assert a is not None and a.how == "told"
    assert a.line == "I had a medical emergency and I cannot travel."


def test_what_the_tree_forbids_after_the_answer_is_not_said() -> None:
    a = _answers().answer("What proof details can you share?")
    assert a is not None and a.line == "I have hospital documentation."


def test_a_pointer_to_the_facts_and_a_yes_no_are_not_open_answers() -> None:
    answers = _answers()
    assert all("information_required" not in t.source for t in answers.told)
    assert all("whether" not in t.source for t in answers.told)  # :mod:`.yesno`'s


def test_a_which_question_is_answered_only_by_the_trees_words() -> None:
    a = _answers().answer("Which seat would you like?")
    assert a is not None and a.line == "An aisle seat."
    assert _answers().answer("Which one works best for you?") is None  # no tree line for it


def test_a_goal_clause_holds_the_value_of_the_kind_asked() -> None:
    sc = make_scenario(
        {"confirmation_number": "ZK3FFW"},
        goal="You want to move your flight to later that same day, afternoon or evening. You want an aisle seat.",
    )
    a = GoalOpenAnswers.of(sc).answer("What date or time would you like to change it to?")
    assert a is not None and a.how == "stated"
    assert a.line == "I want to move my flight to later that same day, afternoon or evening."


def test_a_kind_named_without_a_value_is_no_answer() -> None:
    """'in time for the meeting' says the word 'time', no time: the question stays unanswered."""
    sc = make_scenario({"confirmation_number": "ZK3FFW"}, goal="You want to arrive in time for your meeting.")
    assert GoalOpenAnswers.of(sc).answer("What time would you like to leave?") is None


def test_a_noun_the_goal_only_names_is_no_answer_and_one_with_a_value_is() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1"},
        goal="You want to register for on-call availability on your unit. You want parking in the North garage.",
    )
    answers = GoalOpenAnswers.of(sc)
    assert answers.answer("What unit would you like to register for?") is None  # 'your unit': which?
    assert answers.answer("What is your North garage permit number?") is None  # the phrase is not said
    a = answers.answer("For parking, what zone or garage do you prefer?")
    assert a is not None and a.line == "I want parking in the North garage."


def test_the_callers_no_fact_question_gets_the_goals_words() -> None:
    c = _cancel()
    c.open()
    act = c.respond("I can help with that. Why are you canceling?")
    assert act.rule == "goal_answers_open:told" and act.kind == "answer"
    assert act.text == "I had a medical emergency and I cannot travel." and act.facts == []
    assert act.rules[-1].startswith(
        "goal_text:When the agent asks why you are canceling"
    )  # why, in the record


def test_a_fact_answers_first_and_a_lacking_field_is_said_lacking() -> None:
    c = _cancel()
    c.open()
    assert c.respond("What is your confirmation number?").facts == ["confirmation_number"]
    act = c.respond("What is your frequent flyer number?")
    assert not act.rule.startswith("goal_answers_open")


def test_a_clause_of_a_later_request_is_said_before_its_time_only_when_its_thing_is_asked_by_name() -> None:
    """Issue 29: 'What garage do you prefer?' while the laptop is in hand asks for the later request's
    garage by its own noun (an ask, not a volunteering); a date or a time asked is the request in
    hand's, and the later request's date is not said for it."""
    sc = make_scenario(
        {"employee_id": "EMP1"},
        goal="You want a replacement laptop. You want parking in the North garage starting on June 22.",
        intents=["Get a replacement laptop", "Get parking in the North garage"],
    )
    c = GoalCaller(sc)
    other = other_request(c.s.tracker, 0)
    assert other("You want parking in the North garage") and not other("You want a replacement laptop")
    got = c.s.open_answers.answer("What garage do you prefer?", other)
    assert got is not None and "North garage" in got.line
    assert c.s.open_answers.answer("What date would you like?", other) is None
    got = c.s.open_answers.answer("What date would you like?", other_request(c.s.tracker, 1))
    assert got is not None and "June" in got.line


def test_a_field_named_by_other_words_in_a_clause_is_not_the_field_asked() -> None:
    sc = make_scenario(
        {"first_name": "Derek"},
        goal="You want the agent to look up your flight to Chicago without you having to provide your confirmation number.",
    )
    assert GoalOpenAnswers.of(sc).answer("What's your flight number?") is None
