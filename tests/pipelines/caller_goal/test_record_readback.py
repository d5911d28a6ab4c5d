"""A record read back without field words that is not the caller's ('You have a flight from New York
to Los Angeles on May 11' to a caller flying Phoenix to Denver on May 13): 'No, that's not my
flight. Mine is ...', never a yes to it; a new option or its own record read back does not fire."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.record import OwnRecord, other_record
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened

GOAL = "You want a window seat on your Bluebird Air flight from Phoenix to Denver on May 13th."
INFO = {"Your confirmation code": "HN4R8B", "Your last name": "Lima", "Seat preference": "window"}


def _seat() -> Scenario:
    return make_scenario(INFO, goal=GOAL, start="Hello, can I get a window seat on my flight?")


def _own() -> OwnRecord:
    return OwnRecord.of(goal_facts(INFO), GOAL)


def test_own_record_from_goal_text() -> None:
    own = _own()
    assert set(own.places) == {"Phoenix", "Denver"} and own.dates == ((5, 13),)
    assert own.said == "from Phoenix to Denver on May 13"


def test_own_record_from_facts() -> None:
    own = OwnRecord.of(goal_facts({"origin": "PHX", "destination": "DEN", "flight_date": "2026-05-13"}), "")
    assert own.places == ("PHX", "DEN") and own.dates == ((5, 13),) and own.said == "from PHX to DEN on May 13"
    assert other_record("Your flight from ORD to SEA on May 13 is confirmed.", own) == "flight"
    assert other_record("Your flight from PHX to DEN on May 13 is confirmed.", own) == ""


def test_another_record_read_back_is_corrected_not_accepted() -> None:
    turn = ("I found your reservation. You have a flight from New York to Los Angeles on May 11, 2026. "
            "You have 2 checked bags. You want a window seat. Would you like to assign it now?")
    act = opened(_seat()).respond(turn)
    assert act.kind == "correct" and act.choice == "no" and act.rule == "correct_other_record"
    assert act.text.startswith("No, that's not my flight. Mine is from Phoenix to Denver on May 13")
    assert "Yes" not in act.text


def test_a_changed_date_alone_is_another_record() -> None:
    assert other_record("Your flight from Phoenix to Denver on May 15 is confirmed.", _own()) == "flight"


def test_its_own_record_read_back_does_not_fire() -> None:
    own = _own()
    assert other_record("You have a flight from Phoenix to Denver on May 13, 2026.", own) == ""
    act = opened(_seat()).respond("I found your reservation. You have a flight from Phoenix to Denver on May 13. "
                                  "Would you like to assign a window seat now?")  # fmt: skip
    assert act.kind != "correct"


def test_a_new_option_is_not_its_record() -> None:
    own = _own()
    assert other_record("I found a flight from New York to Los Angeles on May 11. Would you like it?", own) == ""
    assert other_record("There is a flight from Dallas to Austin on May 20.", own) == ""
    assert other_record("Your new flight is from Dallas to Austin on May 20.", own) == ""


def test_places_of_another_kind_are_not_compared() -> None:
    """Codes read back to a caller that holds only city names: no comparison, no correction."""
    assert other_record("Your flight from PHX to DEN on May 13 is confirmed.", _own()) == ""


def test_a_place_name_with_a_state_word_is_no_new_option() -> None:
    """'New York' is a place, not 'your new flight'."""
    assert other_record("You have a flight from New York to Los Angeles on May 11.", _own()) == "flight"


def test_only_the_records_own_date_is_compared() -> None:
    """A date that is not the record's ('made on', 'valid until') is no date of the flight."""
    own = _own()
    assert other_record("Your flight from Phoenix to Denver was booked on April 2.", own) == ""
    assert other_record("Your ticket credit is valid until December 1.", own) == ""
    assert other_record("Your flight on May 15 is confirmed.", own) == "flight"


def test_places_are_compared_against_its_records_route_kind() -> None:
    """A caller holding its route as codes and a home city by name compares no city names."""
    book = goal_facts({"home_city": "Chicago", "trip": {"origin": "ATL", "destination": "ORD"}})
    own = OwnRecord.of(book, "")
    assert own.ends == ("ATL", "ORD")
    assert other_record("Your flight from Atlanta to O'Hare is on time.", own) == ""
    assert other_record("Your flight from SEA to BOS is on time.", own) == "flight"
