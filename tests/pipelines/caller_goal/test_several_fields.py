"""An ask naming several of the caller's fields gets those facts and no other (a last name's
first name apart: a name is said whole): no date's time, no floor's building unless the turn names it; a head noun after a word no
fact of the caller has names a field it lacks; of two facts matched by the same words, the one
named by more of its own words (:mod:`.fullest`)."""

from __future__ import annotations

import pytest

from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _it() -> Scenario:
    return make_scenario(
        {"first_name": "Elena", "last_name": "Petrov", "employee_id": "EMP058321", "phone_last_four": "8174",
         "application_name": "Confluence", "effective_date": "2026-08-31", "preferred_time": "10:00 AM",
         "delivery_building": "Headquarters", "delivery_floor": "FL2", "document_number": "J2O7S3KKV",
         "document_type_code": "US_PASSPORT"},
        goal="You want read access to Confluence and a laptop delivered.",
        start="Hi, I need access to Confluence.",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("turn", "keys"),
    [
        ("What are the application name and the phone last four?", {"application_name", "phone_last_four"}),
        ("Can you give me your employee ID and your last name?", {"employee_id", "last_name", "first_name"}),
        ("What is the effective date and your first name?", {"effective_date", "first_name"}),
        ("What is your delivery floor and your employee ID?", {"delivery_floor", "employee_id"}),
        ("What is your employee ID and your document type code?", {"employee_id", "document_type_code"}),
    ],
)
def test_two_fields_asked_get_those_two(turn: str, keys: set[str]) -> None:
    act = opened(_it()).respond(turn)
    assert set(act.facts) == keys, act.text


def test_one_field_asked_keeps_what_goes_with_it() -> None:
    act = opened(_it()).respond("What is your last name?")
    assert {"last_name", "first_name"} <= set(act.facts)  # 'Elena Petrov': a name said whole


def test_a_field_the_turn_names_beside_the_fact_asked_is_given() -> None:
    act = opened(_it()).respond("What is your employee ID, and the building and floor for delivery?")
    assert {"employee_id", "delivery_floor", "delivery_building"} <= set(act.facts)


def test_a_head_after_a_word_of_no_fact_names_a_field_it_lacks() -> None:
    act = opened(_it()).respond("What is your meeting date and your first name?")
    assert set(act.facts) == {"first_name"} and "August" not in act.text
