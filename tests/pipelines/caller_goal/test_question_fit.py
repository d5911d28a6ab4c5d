"""Which facts a question can take (goal/fit.py): the wh-word's kind of value, another person's
field, and the tree's own answer over a fact named by a synonym or a fallback."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import Fact
from voxbench.pipelines.caller.goal.fit import other_owner, wh_misfit
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario


def _fact(key: str, value: object) -> Fact:
    return Fact(key=key, value=value, words=tuple(key.split("_")))


def test_a_wh_word_takes_only_a_value_of_its_kind() -> None:
    tier = _fact("membership_tier", "gold_plus")
    assert wh_misfit("Who is the booking for?", tier)
    assert wh_misfit("When do you want the tier changed?", tier)
    assert wh_misfit("Why are you calling today?", _fact("travel_date", "2026-03-02"))
    assert not wh_misfit("When would you like to travel?", _fact("travel_date", "2026-03-02"))
    assert not wh_misfit("Who is your emergency contact?", _fact("contact_name", "Ana Ruiz"))
    assert not wh_misfit("Why is the refund needed?", _fact("refund_reason", "double charge"))
    assert not wh_misfit("Where should the badge be sent?", _fact("mailing_address", "12 Elm St"))
    assert not wh_misfit("Who and what is this for?", tier)  # two wh-words: not one kind asked


def test_a_field_of_another_person_is_not_the_callers_own() -> None:
    npi = _fact("npi", "1234567890")
    assert other_owner("And what is your supervisor's NPI?", npi)
    assert other_owner("Please give me the attending supervising provider NPI.", npi)
    assert other_owner("I need the NPI of your manager as well.", npi)
    assert not other_owner("Please read me your NPI.", npi)
    assert not other_owner("What is your manager's email?", _fact("manager_email", "a@b.org"))
    assert not other_owner("Your manager approved it. What is your NPI?", npi)


def _caller(facts: dict[str, object], tree: list[str]) -> GoalCaller:
    sc = make_scenario(facts, goal="You want a new phone because yours is broken.", negotiation=tree)
    c = GoalCaller(sc)
    c.respond("Hello, how can I help?")
    return c


def test_the_trees_answer_wins_over_a_fact_named_by_a_synonym() -> None:
    """'reason' ~ 'justification': the tree says what to answer when asked why."""
    tree = [
        "If asked why you need a new phone, say the screen cracked and the battery no longer holds a charge."
    ]
    c = _caller({"employee_id": "EMP4411", "justification": "hardware_failure"}, tree)
    act = c.respond("Why do you need a new phone?")
    assert act.rule == "goal_answers_open:told"
    assert "screen cracked" in act.text and "hardware failure" not in act.text


def test_a_fact_named_by_its_own_words_still_answers() -> None:
    tree = ["If asked why you need a new phone, say the screen cracked."]
    c = _caller({"employee_id": "EMP4411", "justification": "hardware_failure"}, tree)
    act = c.respond("What justification should I put on the request?")
    assert "justification" in act.facts


def test_the_trees_answer_comes_before_the_other_facts_asked() -> None:
    tree = ["If asked why you need a new phone, say the screen cracked."]
    c = _caller({"employee_id": "EMP4411", "justification": "hardware_failure"}, tree)
    act = c.respond("Can you give me your employee ID? And why do you need a new phone?")
    assert act.facts == ["employee_id"]
    assert act.text.startswith("The screen cracked.")


def test_a_question_of_the_wrong_kind_is_not_answered_with_a_fact() -> None:
    c = _caller({"employee_id": "EMP4411", "access_level": "read_only"}, [])
    act = c.respond("Who will be using the access?")
    assert "access_level" not in act.facts and "read only" not in act.text.lower()


def test_a_wh_clause_is_no_wh_question() -> None:
    """'When you say ..., is it ...?' asks yes or no: no kind of value is asked by 'when'."""
    tier = _fact("membership_tier", "gold_plus")
    assert not wh_misfit("When you say the tier changed, is it the gold one?", tier)


def test_the_trees_answer_takes_only_its_part_of_a_question() -> None:
    """The tree answers the kind of repair; the dates asked with it are still given."""
    tree = ["If asked what kind of repair you need, say the hinge is loose and the screen flickers."]
    c = _caller({"employee_id": "EMP4411", "repair_start_date": "2026-07-01"}, tree)
    act = c.respond("What kind of repair do you need, and what is the repair start date?")
    assert "repair_start_date" in act.facts
