"""Goal-caller decisions added in round 4, on small scenarios: a question about the caller's
requests of some kind, 'one at a time', a request said with what the goal's sentence ties to it."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

from .conftest import make_scenario


def _opened(sc: Scenario) -> GoalCaller:
    c = GoalCaller(sc)
    c.open()
    return c


def _refresh() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP1",
            "laptop_size": "16_inch",
            "equipment_type": "ergonomic_chair",
            "delivery_building": "Headquarters",
            "delivery_floor": "FL3",
        },
        goal="You want a replacement laptop, and an ergonomic chair delivered to Headquarters floor 3.",
        intents=["Get a replacement laptop", "Get an ergonomic chair"],
    )


def test_a_question_about_its_requests_of_a_kind_lists_them() -> None:
    """'What equipment requests ...?' asks for the requests, not for the fact 'equipment_type'."""
    act = _opened(_refresh()).respond(
        "Thanks, you're verified. What equipment requests do you need help with today?"
    )
    assert act.kind == "state_request"
    assert "replacement laptop" in act.text and "ergonomic chair" in act.text


def test_a_question_about_its_requests_with_a_request_lists_them_then_answers() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "application_name": "Confluence", "access_level": "read_only"},
        goal="You want to join the Database Read Access group and get read-only access to Confluence.",
        intents=["Join the Database Read Access group", "Get read-only access to Confluence"],
    )
    act = _opened(sc).respond(
        "What access requests do you need help with? Please give me the application names and the access level."
    )
    assert act.text.startswith("I need to join the Database Read Access group")
    assert {"application_name", "access_level"} <= set(act.facts)


def test_one_at_a_time_asks_for_no_time() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "start_time": "09:00", "end_time": "10:30"},
        intents=["Set up accounts for my new team member", "Book a room for onboarding"],
    )
    act = _opened(sc).respond(
        "What are the IT requests you'd like help with? Please give them to me one at a time."
    )
    assert (
        act.kind == "state_request"
        and "9 AM" not in act.text
        and not {"start_time", "end_time"} & set(act.facts)
    )


def test_a_request_is_said_with_the_place_its_goal_sentence_gives() -> None:
    """'... and an ergonomic chair delivered to Headquarters floor 3': stating that request, the
    caller says where it goes (the delivery facts), even if it said them for an earlier request."""
    c = _opened(_refresh())
    c.given.update({"delivery_building", "delivery_floor"})
    act = c.respond("Your laptop request is submitted. Is there anything else I can help with?")
    assert act.kind == "state_request" and "ergonomic chair" in act.text
    assert "Headquarters" in act.text and "F L three" in act.text
    assert {"delivery_building", "delivery_floor"} <= set(act.facts)


def test_a_goal_clause_with_a_backup_value_or_two_requests_gives_no_details() -> None:
    """The desk clause also names the backup floor (a fallback, said only when the agent offers
    another floor); a clause naming two requests ties its values to neither."""
    sc = make_scenario(
        {"building_name": "Headquarters", "floor": "FL2", "backup_desk_floor": "FL3", "employee_id": "EMP1"},
        goal="You want a desk at Headquarters, preferably floor 2 but floor 3 if floor 2 is unavailable.",
        intents=[
            "Get my account unlocked",
            "Get a desk on floor 2",
            "Get a desk on floor 3 as my backup choice",
        ],
    )
    act = _opened(sc).respond("Your account is unlocked. What's the next thing you need help with?")
    assert (
        "desk on floor 2" in act.text and "F L three" not in act.text and "backup_desk_floor" not in act.facts
    )
    sc2 = make_scenario(
        {"license_product_name": "Adobe Creative Cloud", "license_product_name_renewal": "IntelliJ IDEA"},
        goal="You need a 30-day Adobe Creative Cloud trial and renewing your IntelliJ IDEA license.",
        intents=[
            "Get a 30-day Adobe Creative Cloud trial license",
            "Renew my expiring IntelliJ IDEA license",
        ],
    )
    act = _opened(sc2).respond("Your Adobe trial is submitted. Anything else?")
    assert "IntelliJ" in act.text and "Adobe" not in act.text
