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
    assert (
        own.places == ("PHX", "DEN") and own.dates == ((5, 13),) and own.said == "from PHX to DEN on May 13"
    )
    assert other_record("Your flight from ORD to SEA on May 13 is confirmed.", own) == "flight"
    assert other_record("Your flight from PHX to DEN on May 13 is confirmed.", own) == ""


def test_another_record_read_back_is_corrected_not_accepted() -> None:
    turn = (
        "I found your reservation. You have a flight from New York to Los Angeles on May 11, 2026. "
        "You have 2 checked bags. You want a window seat. Would you like to assign it now?"
    )
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
    assert (
        other_record("I found a flight from New York to Los Angeles on May 11. Would you like it?", own) == ""
    )
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


# -- one part of the record changed, the others right (weak class ``record_one_changed``) -------

TRIP = {
    "confirmation_number": "KOLTSF",
    "last_name": "Johansson",
    "route_outbound": "SEA to BOS",
    "route_return": "BOS to SEA",
    "original_travel_details": [
        {"origin": "SEA", "destination": "BOS", "flight_date": "2026-08-14"},
        {"origin": "BOS", "destination": "SEA", "flight_date": "2026-08-20"},
    ],
}
TRIP_GOAL = "You want to keep your outbound flight on August 14 as-is and change only your return flight."


def _trip() -> Scenario:
    return make_scenario(TRIP, goal=TRIP_GOAL, start="Hi, I need to change my return flight.")


def test_a_route_value_is_two_places_and_a_listed_record_is_its_record() -> None:
    """'SEA to BOS' (a top-level route) is two places; the listed record's route and date are said."""
    own = OwnRecord.of(goal_facts(TRIP), TRIP_GOAL)
    assert own.ends == ("SEA", "BOS") and own.said == "from SEA to BOS on August 14"
    assert {"SEA", "BOS"} <= set(own.places) and "SEA to BOS" not in own.places


def test_one_place_changed_among_right_ones_is_another_record() -> None:
    own = OwnRecord.of(goal_facts(TRIP), TRIP_GOAL)
    assert (
        other_record("I see your booking for the flight from SEA to DEN on August 14, 2026.", own)
        == "booking"
    )
    assert (
        other_record("I see your booking for the flight from ORD to BOS on August 14, 2026.", own)
        == "booking"
    )
    assert other_record("I see your booking for the flight from SEA to BOS on August 14, 2026.", own) == ""


def test_a_record_named_before_and_read_back_as_it() -> None:
    """'I found your reservation. It's for a flight ...': the second sentence reads back the caller's record;
    without a sentence naming it as the caller's, 'It's for a flight ...' is no read-back of its own."""
    own = OwnRecord.of(goal_facts(TRIP), TRIP_GOAL)
    turn = "I found your reservation. It's for a flight from SEA to BOS on Aug 17. Is this correct?"
    assert other_record(turn, own) == "flight"
    assert (
        other_record(
            "I found your reservation. It's for a flight from SEA to BOS on Aug 14. Is this correct?", own
        )
        == ""
    )
    assert other_record("I found an option. It's for a flight from SEA to BOS on Aug 17.", own) == ""


def test_caller_corrects_one_wrong_part_and_confirms_the_right_record() -> None:
    wrong = opened(_trip()).respond(
        "I found your reservation. It's for a flight from SEA to BOS on Aug 17. Is this correct?"
    )
    assert wrong.kind == "correct" and wrong.choice == "no" and wrong.rule == "correct_other_record"
    assert wrong.text.startswith("No, that's not my flight. Mine is from SEA to BOS on August 14")
    moved = opened(_trip()).respond(
        "I see your booking for the flight from SEA to DEN on August 14, 2026. Shall I go ahead?"
    )
    assert moved.choice == "no" and "Yes" not in moved.text and "SEA to BOS" in moved.text
    right = opened(_trip()).respond(
        "I found your reservation. It's for a flight from SEA to BOS on August 14. Is this correct?"
    )
    assert right.kind != "correct" and right.choice != "no"
