"""A request stated after the first says what it is and where, not its identifiers and dates
(``Requests.details(later=True)``): the agent asks for those; the first statement is unchanged."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened

INFO = {
    "employee_id": "EMP059182",
    "document_type_code": "EAD",
    "document_number": "9CSS9TOQW",
    "verification_action": "initial",
    "desk_floor": "FL2",
    "desk_building": "Headquarters",
}
I9 = "Submit initial I-9 verification documents"
DESK = "Get a desk assignment at Headquarters"
GOAL = "You need to submit your initial I-9 verification documents, and a desk on FL2 at Headquarters."


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_next_request_leaves_its_codes_for_the_agent_to_ask(seed: int) -> None:
    c = opened(make_scenario(INFO, goal=GOAL, intents=[DESK, I9], start="Hi, I have two requests."), seed)
    c.respond("Sure. What is your employee ID?")
    act = c.respond("Your desk has been assigned. What's your second request?")
    assert act.rule == "next_intent" and "I-9" in act.text
    for key, said in (("document_type_code", "E A D"), ("document_number", "nine C S S")):
        assert key not in act.facts and said not in act.text


@pytest.mark.parametrize("seed", [0, 1])
def test_a_place_stays_with_a_later_request(seed: int) -> None:
    """'FL2' is a code that names a place (a floor): said with the request, as the reference does."""
    c = opened(make_scenario(INFO, goal=GOAL, intents=[I9, DESK], start="Hi, I have two requests."), seed)
    c.respond("Sure. What is your employee ID?")
    act = c.respond("Your I-9 documents have been submitted. What's your second request?")
    assert act.rule == "next_intent" and "desk_floor" in act.facts and "floor 2" in act.text.lower()


def test_the_first_statement_keeps_its_details() -> None:
    c = opened(make_scenario(INFO, goal=GOAL, intents=[I9, DESK], start="Hi, I have two requests."), 0)
    c.respond("Sure. What is your employee ID?")
    act = c.respond("What can I help with?")
    assert "document_number" in act.facts
