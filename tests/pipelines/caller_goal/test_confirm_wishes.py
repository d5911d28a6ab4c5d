"""A confirm or verify request for a field the caller holds as a wish or a limit: the booking's own
value where it holds one, else the wish said as what it is, never bare as if the booking's."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

INFO = {
    "confirmation_number": "SOCATW",
    "last_name": "Walker",
    "preferred_departure_time_if_asked": "8:15 AM",
    "latest_acceptable_arrival_time": "4:00 PM",
    "original_travel_details": [{"origin": "OAK", "destination": "SEA", "departure_time": "16:10"}],
}


def _caller(seed: int) -> GoalCaller:
    return opened(make_scenario(INFO, goal="You want to be rebooked to Seattle tomorrow morning."), seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_bookings_own_value_is_what_is_confirmed(seed: int) -> None:
    act = _caller(seed).respond("Please confirm your departure time.")
    assert "4:10 PM" in act.text and "8:15" not in act.text


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_limit_held_alone_is_said_as_a_limit(seed: int) -> None:
    act = _caller(seed).respond("Can you verify your arrival time?")
    assert act.rule == "confirm_wish_as_wish" and "latest acceptable arrival time" in act.text.lower()


def test_a_question_about_the_wish_still_gets_it() -> None:
    act = _caller(0).respond("What departure time would you prefer?")
    assert "8:15 AM" in act.text


def test_a_confirm_naming_the_wish_by_its_own_words_asks_for_the_wish() -> None:
    act = _caller(0).respond("Can you confirm your preferred departure time?")
    assert "8:15 AM" in act.text and "4:10" not in act.text
