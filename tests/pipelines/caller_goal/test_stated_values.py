"""A field of the caller's stated with a value not its own in a turn that is no confirmation
question (a completion report, a summary, "anything else?"): corrected before any goodbye; never
a right value said another way, another person's or record's value, an offer, a preference or an
amount the agent computes (:mod:`voxbench.pipelines.caller.goal.stated`)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.stated import misstated

from .conftest import make_scenario, opened

INFO = {
    "first_name": "Ana",
    "last_name": "Lima",
    "employee_id": "EMP091654",
    "phone_last_four": "2049",
    "equipment_type": "footrest",
    "delivery_building": "East Campus",
    "delivery_floor": "FL1",
    "start_date": "2026-07-06",
    "manager_employee_id": "EMP040210",
    "preferred_date": "2026-07-09",
    "max_fee": "80",
}
BOOK = goal_facts(INFO)


def _found(text: str) -> dict[str, str]:
    return {k: said for k, (said, _) in misstated([text], BOOK).items()}


def _caller():  # type: ignore[no-untyped-def]
    return opened(make_scenario(INFO, goal="You want a footrest delivered to your building and floor.",
                                start="Hi, I need a footrest for my desk."))  # fmt: skip


REPORT = ("Your footrest request has been submitted. That is for a footrest delivery to B L D two, floor F L one. "
          "Is there anything else I can help you with today?")  # fmt: skip


def test_a_place_named_by_its_role_with_a_code_for_its_name_is_misstated() -> None:
    """'delivery to X': the key's modifier and a place's preposition; the floor said right in the
    same sentence leaves the building, and a code is a value for a place name."""
    assert _found("That is for a footrest delivery to B L D two, floor F L one.") == {
        "delivery_building": "B L D two"
    }
    assert _found("It will be delivered to you. Delivery to B L D two.") == {
        "delivery_building": "B L D two"
    }  # unit
    assert _found("Your delivery to Building 2 is booked.") == {"delivery_building": "Building 2"}


def test_a_field_named_by_its_own_words_with_another_value_is_misstated() -> None:
    assert _found("All done. I have recorded your employee ID as EMP091687.") == {"employee_id": "EMP091687"}
    assert _found("Your start date is July 14, 2026, and the request is filed.") == {
        "start_date": "July 14, 2026"
    }
    assert _found("Your manager's employee ID is EMP040299.") == {
        "manager_employee_id": "EMP040299"
    }  # its own fact
    assert _found("All set, and your last name is Okafor.") == {"last_name": "Okafor"}


@pytest.mark.parametrize(
    "text",
    [
        "That is for a footrest delivery to East Campus, floor F L one.",
        "That is for a delivery to the East Campus building, F L one.",  # its value anywhere in the sentence
        "Delivery to floor one of East Campus.",
        "Your delivery floor is floor 1.",  # a unit's abbreviation said in words
        "Your employee ID is E M P zero nine one six five four.",  # spelled, spoken digits
        "Your phone last four is two zero four nine.",
        "Your start date is July sixth.",
        "Your start date is July 6, 2026.",
    ],
)
def test_a_right_value_said_another_way_is_not_misstated(text: str) -> None:
    assert _found(text) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Your colleague's employee ID is EMP040299.",  # another person's field
        "Your new start date is July 20.",  # a state word its key does not have: another field
        "I have employee ID EMP040210 for your manager.",  # another of its own facts' values
        "I can deliver it to B L D three instead.",  # an offer
        "If you prefer, delivery to B L D three is possible.",  # a supposition
        "Your preferred date is July 12.",  # a preference: the call may settle it otherwise
        "The max fee is 95 dollars.",  # a limit or an amount the agent computes
        "Your footrest request has been submitted for your desk.",  # no value of a field
        "That is for a footrest delivery to Block C.",  # building or floor: neither the role nor the value tells
    ],
)
def test_values_the_caller_has_no_say_about_are_not_misstated(text: str) -> None:
    assert _found(text) == {}


def test_a_bare_kind_of_key_names_no_field_in_a_statement() -> None:
    """'floor' alone as a key: 'based in building B L D three, floor F L two' is the profile."""
    book = goal_facts({"employee_id": "EMP031482", "floor": "FL3", "building_name": "Headquarters"})
    assert misstated(["I have you based in building B L D three, floor F L two."], book) == {}


def test_classify_reads_a_misstated_field_as_read_back_wrong_in_a_completion_turn() -> None:
    heard = classify(REPORT, BOOK)
    assert heard.has("completed") and heard.has("anything_else")
    assert heard.readback_wrong == ["delivery_building"] and "misstated:delivery_building" in heard.rules


def test_a_completion_report_with_a_wrong_value_is_corrected_before_goodbye() -> None:
    c = _caller()
    act = c.respond(REPORT)
    assert act.kind == "correct" and act.choice == "no" and not act.ends_call
    assert "East Campus" in act.text and act.rule == "correct_wrong_readback"
    done = c.respond(
        "I've updated the delivery to East Campus, floor F L one. Anything else I can help with?"
    )
    assert done.ends_call and "East Campus" not in done.text


def test_the_same_report_right_is_acknowledged_not_corrected() -> None:
    act = _caller().respond(REPORT.replace("B L D two", "East Campus"))
    assert act.kind != "correct" and act.ends_call


def test_an_agent_goodbye_with_a_wrong_value_waits_for_the_correction() -> None:
    act = _caller().respond("Your footrest is on its way: delivery to B L D two, floor F L one. Goodbye!")
    assert act.kind == "correct" and not act.ends_call


def test_a_statement_read_as_a_request_is_corrected_first_not_answered() -> None:
    """'..., and your last name is Okafor.': the sentence states a value, it asks for none."""
    act = _caller().respond(
        "Everything is set, and your last name is Okafor. If you have any other questions, feel free to ask."
    )
    assert act.kind == "correct" and act.text.startswith(("No", "That's not")) and "Lima" in act.text


def test_a_confirmation_question_naming_the_place_by_its_role_is_corrected_not_confirmed() -> None:
    act = _caller().respond(
        "I'm submitting a footrest for delivery to B L D two, floor F L one. Is that correct?"
    )
    assert act.kind == "correct" and act.choice == "no" and "East Campus" in act.text
