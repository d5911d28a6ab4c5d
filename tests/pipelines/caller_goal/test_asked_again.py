"""A value the agent states, then asks for again by its field's name (issue 29, live: "I'll check the
free desks on floor three of the Harbor Building. Please provide the floor code."): the caller says
it again, where a value said in the request itself, a read-back with another field asked, a field
named only by scattered words or by a less specific name than another fact's stay as they were."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "employee_id": "EMP031482",
    "phone_last_four": "3614",
    "wifi_network_name": "CorpNet-5G",
    "departure_date": "2026-03-20",
    "new_departure_date": "2026-03-25",
    "task_code": "BLS_UPLOAD",
    "completion_code": "8UNI",
}


def _asked(text: str) -> list[str]:
    book = goal_facts(INFO)
    return classify(text, book, given=set(book.key_set())).asked


def test_a_stated_value_asked_again_by_its_fields_name_is_asked() -> None:
    assert _asked(
        "I'll look up employee ID E M P zero three one four eight two. What is your employee ID?"
    ) == ["employee_id"]
    assert _asked("Let me pull up the account for Maria. Could you give me your first name?") == [
        "first_name"
    ]
    assert _asked("I'll check the record for 3614. Please provide the phone last four.") == [
        "phone_last_four"
    ]


def test_a_value_said_in_the_request_itself_is_not_asked() -> None:
    assert "wifi_network_name" not in _asked(
        "Please forget the saved network called CorpNet dash five G, then reconnect."
    )


def test_a_read_back_with_another_field_asked_asks_only_the_other() -> None:
    assert _asked("Thank you. I have your employee ID as EMP031482. What is your last name?") == ["last_name"]


def test_a_field_named_by_scattered_words_or_less_specifically_than_another_is_not_asked_again() -> None:
    assert "task_code" not in _asked(
        "Your task is B L S upload. Please read me the completion code for that task."
    )
    assert _asked("Your flight is on March 20, 2026. Please provide the new departure date.") == [
        "new_departure_date"
    ]


def test_the_caller_says_the_value_again_not_a_bare_acknowledgement() -> None:
    for seed in (0, 1, 2):
        c = GoalCaller(make_scenario(INFO, goal="You want to book a desk."), GoalCallerConfig(seed=seed))
        c.open()
        c.respond("Sure, I can help with that. Can I have your employee ID?")
        act = c.respond("I'll look up the record for employee ID EMP031482. What is your employee ID?")
        assert act.facts == ["employee_id"] and "zero three one four eight two" in act.text, act.text
        other = c.respond("Thanks, I have your employee ID as EMP031482. What is your last name?")
        assert "last_name" in other.facts and "employee_id" not in other.facts, other.text
        assert "zero three one" not in other.text and "EMP031482" not in other.text


def test_a_value_the_agent_could_not_find_is_said_again_with_the_trees_follow_up() -> None:
    sc = make_scenario(
        {"dea_number": "GO3626181"},
        goal="You want to transfer your DEA registration.",
        negotiation=[
            "If the agent says the DEA number does not match any record, ask exactly one follow-up question."
        ],
        escalation="If the agent offers a transfer, decline.",
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=0))
    c.open()
    c.respond("Please give me your DEA number.")
    act = c.respond(
        "I could not find a DEA record for G O 362 6181. Please check the DEA number and read it once more."
    )
    assert act.facts == ["dea_number"] and act.rule == "answer_asked_facts+one_follow_up_question", act
    assert "three six two six one eight one" in act.text
