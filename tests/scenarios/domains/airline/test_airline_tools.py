"""Airline tools beyond the reference traces, matched to EVA's tool code entry by entry
(`eva-tool-semantics.md` section 1): reads, validation and rebooking."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from voxbench.scenarios.executor import ToolExecutor

Make = Callable[[str], ToolExecutor]
Login = Callable[[ToolExecutor, str], dict[str, Any]]

# Scenario 1.1.2: one passenger, reservation ZK3FFW on FL_SK621_20260320 (main cabin,
# non-refundable), five AUS-LAX options on 2026-03-25; "today" is 2026-03-17.
SID, CONF, BOOKED, OTHER = "1.1.2", "ZK3FFW", "FL_SK621_20260320", "FL_SK703_20260325"

GATED_CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "rebook_flight",
        {
            "confirmation_number": CONF,
            "journey_id": BOOKED,
            "new_journey_id": OTHER,
            "rebooking_type": "voluntary",
            "waive_change_fee": False,
        },
    ),
    ("add_to_standby", {"confirmation_number": CONF, "journey_id": OTHER, "passenger_ids": ["PAX001"]}),
    (
        "assign_seat",
        {
            "confirmation_number": CONF,
            "passenger_id": "PAX001",
            "journey_id": BOOKED,
            "seat_preference": "aisle",
        },
    ),
    ("add_baggage_allowance", {"confirmation_number": CONF, "journey_id": BOOKED, "num_bags": 2}),
    (
        "add_meal_request",
        {"confirmation_number": CONF, "passenger_id": "PAX001", "journey_id": BOOKED, "meal_type": "vegan"},
    ),
    (
        "issue_travel_credit",
        {"confirmation_number": CONF, "passenger_id": "PAX001", "amount": 50.0, "credit_reason": "goodwill"},
    ),
    ("issue_hotel_voucher", {"confirmation_number": CONF, "passenger_id": "PAX001", "num_nights": 1}),
    (
        "issue_meal_voucher",
        {"confirmation_number": CONF, "passenger_id": "PAX001", "voucher_reason": "delay_over_2_hours"},
    ),
    (
        "cancel_reservation",
        {"confirmation_number": CONF, "journey_id": BOOKED, "cancellation_reason": "voluntary"},
    ),
    ("process_refund", {"confirmation_number": CONF, "refund_amount": 10.0, "refund_type": "full_fare"}),
]


def _rebook(ex: ToolExecutor, **over: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "confirmation_number": CONF,
        "journey_id": BOOKED,
        "new_journey_id": OTHER,
        "rebooking_type": "voluntary",
        "waive_change_fee": False,
    }
    params.update(over)
    return ex.execute("rebook_flight", params)


# --- no auth gate, EVA's validation ------------------------------------------------------


@pytest.mark.parametrize(("tool", "params"), GATED_CALLS, ids=[t for t, _ in GATED_CALLS])
def test_write_tools_have_no_auth_gate(make_executor: Make, tool: str, params: dict[str, Any]) -> None:
    """EVA: airline write tools only need the reservation to exist."""
    ex = make_executor(SID)
    out = ex.execute(tool, params)
    assert out["status"] == "success", out


def test_get_reservation_sets_session_from_the_given_name(make_executor: Make) -> None:
    ex = make_executor(SID)
    last = ex.db["reservations"][CONF]["passengers"][0]["last_name"]
    ex.db["session"] = {"keep": 1}
    out = ex.execute("get_reservation", {"confirmation_number": CONF.lower(), "last_name": last.upper()})
    assert out["status"] == "success"
    seg = out["reservation"]["bookings"][0]["segments"][0]
    assert (seg["origin"], seg["destination"], seg["scheduled_departure"]) == ("AUS", "LAX", "11:05")
    assert "origin" not in ex.db["reservations"][CONF]["bookings"][0]["segments"][0]  # response is a view
    assert ex.db["session"] == {"keep": 1, "confirmation_number": CONF, "last_name": last.lower()}


def test_get_reservation_empty_last_name_authenticates(make_executor: Make) -> None:
    ex = make_executor(SID)
    assert (
        ex.execute("get_reservation", {"confirmation_number": CONF, "last_name": ""})["status"] == "success"
    )
    assert ex.db["session"]["last_name"] == ""


def test_get_reservation_last_name_is_exact_and_message(make_executor: Make) -> None:
    ex = make_executor(SID)
    last = ex.db["reservations"][CONF]["passengers"][0]["last_name"]
    out = ex.execute("get_reservation", {"confirmation_number": CONF, "last_name": last + "."})
    assert out == {
        "status": "error",
        "error_type": "authentication_failed",
        "message": f"Last name does not match reservation {CONF}",
    }
    assert not ex.db.get("session")


@pytest.mark.parametrize(
    ("params", "error_type"),
    [
        ({"confirmation_number": "ZK3F", "last_name": "x"}, "invalid_confirmation_number_format"),
        ({"confirmation_number": " ZK3FFW", "last_name": "x"}, "invalid_confirmation_number_format"),
        ({"last_name": "x"}, "invalid_confirmation_number_format"),
        ({"confirmation_number": 123456, "last_name": "x"}, "invalid_confirmation_number_format"),
        ({"confirmation_number": CONF}, "invalid_parameter"),
    ],
)
def test_validation_errors_are_evas(make_executor: Make, params: dict[str, Any], error_type: str) -> None:
    """Raw-input patterns, mapped `*_format` types; unmapped fields give invalid_parameter."""
    out = make_executor(SID).execute("get_reservation", params)
    assert out["error_type"] == error_type
    if error_type == "invalid_parameter":
        assert out["message"] == "Invalid or missing parameter 'last_name': Field required"
    else:
        assert out["message"].startswith("Invalid confirmation_number '")


def test_extra_parameters_are_ignored(make_executor: Make) -> None:
    ex = make_executor(SID)
    last = ex.db["reservations"][CONF]["passengers"][0]["last_name"]
    out = ex.execute("get_reservation", {"confirmation_number": CONF, "last_name": last, "pin": "1"})
    assert out["status"] == "success"


def test_three_letter_carrier_codes_are_valid(make_executor: Make) -> None:
    out = make_executor(SID).execute(
        "get_flight_status", {"flight_number": "SKA621", "flight_date": "2026-03-20"}
    )
    assert out["error_type"] == "not_found"


# --- read tools -------------------------------------------------------------------------


def test_read_tools_not_found_and_bad_formats(make_executor: Make) -> None:
    ex = make_executor(SID)
    assert ex.execute("get_flight_status", {"flight_number": "sk999", "flight_date": "2026-03-20"}) == {
        "status": "error",
        "error_type": "not_found",
        "message": "Flight sk999 not found for date 2026-03-20",
    }
    bad_date = ex.execute("get_flight_status", {"flight_number": "SK621", "flight_date": "20/03/2026"})
    assert bad_date["error_type"] == "invalid_date_format"
    assert ex.execute("get_disruption_info", {"flight_number": "SK621", "date": "2026-03-20"}) == {
        "status": "error",
        "error_type": "not_found",
        "message": "No disruption info found for flight SK621",
    }
    search = {
        "origin": "AUS",
        "destination": "LAX",
        "date": "2026-03-25",
        "passenger_count": 0,
        "fare_class": "any",
    }
    assert ex.execute("search_rebooking_options", search) == {
        "status": "error",
        "error_type": "invalid_parameter",
        "message": "Invalid or missing parameter 'passenger_count': Input should be greater than or equal to 1",
    }
    search.update(passenger_count=1, fare_class="coach")
    assert ex.execute("search_rebooking_options", search)["error_type"] == "invalid_fare_class"


def test_disruption_lookup_is_by_key_only(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["disruptions"] = {"other_key": {"flight_number": "SK621", "date": "2026-03-20"}}
    assert (
        ex.execute("get_disruption_info", {"flight_number": "SK621", "date": "2026-03-20"})["status"]
        == "error"
    )


def test_search_quotes_null_fare_and_missing_classes(make_executor: Make) -> None:
    """EVA: seats alone qualify a journey (fare may be null); classes absent from the first
    leg have null seat counts; num_stops defaults to 0; the journey id is the dict key."""
    ex = make_executor(SID)
    j = ex.db["journeys"][OTHER]
    del j["fares"]["main_cabin"]
    del j["segments"][0]["available_seats"]["first"]
    del j["num_stops"]
    base = {"origin": "AUS", "destination": "LAX", "date": "2026-03-25", "passenger_count": 1}
    out = ex.execute("search_rebooking_options", {**base, "fare_class": "main_cabin"})
    opt = next(o for o in out["options"] if o["journey_id"] == OTHER)
    assert opt["fare"] is None and opt["num_stops"] == 0 and opt["available_seats"]["first"] is None


def test_search_sorts_by_departure_only(make_executor: Make) -> None:
    ex = make_executor(SID)
    base = {"origin": "AUS", "destination": "LAX", "date": "2026-03-25", "passenger_count": 1}
    first = ex.execute("search_rebooking_options", {**base, "fare_class": "any"})["options"]
    ids = [o["journey_id"] for o in first]
    for jid in ids:  # all options now depart at the same time: DB order decides
        ex.db["journeys"][jid]["segments"][0]["scheduled_departure"] = "09:00"
    out = ex.execute("search_rebooking_options", {**base, "fare_class": "any"})["options"]
    assert [o["journey_id"] for o in out] == [k for k in ex.db["journeys"] if k in ids]


def test_flight_status_finds_a_leg_of_a_connection(make_executor: Make) -> None:
    ex = make_executor("3.1.5")
    del ex.db["journeys"]["FL_SK330_20260908"]  # no direct journey: found through the connection
    out = ex.execute("get_flight_status", {"flight_number": "SK330", "flight_date": "2026-09-08"})
    assert out["journey"]["journey_id"] == "FL_SK715_SK330_20260908"


# --- rebooking --------------------------------------------------------------------------


def test_voluntary_rebook_prices_and_moves_one_seat_per_leg(make_executor: Make) -> None:
    ex = make_executor(SID)
    old_seats = ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"]
    new_seats = ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"]
    ex.db["reservations"][CONF]["passengers"].append({"passenger_id": "PAX002", "last_name": "X"})
    out = _rebook(ex)
    assert out["cost_summary"] == {
        "original_fare_class": "main_cabin",
        "new_fare_class": "main_cabin",
        "cabin_changed": False,
        "change_fee": 75,
        "fare_difference": 40.0,
        "credit_due": 0,
        "total_collected": 115.0,
        "fee_waived": False,
    }
    res = ex.db["reservations"][CONF]
    assert res["status"] == "changed"
    assert [b["status"] for b in res["bookings"]] == ["cancelled", "confirmed"]
    assert ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"] == old_seats + 1
    assert ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] == new_seats - 1


def test_rebook_of_a_cancelled_booking_goes_through(make_executor: Make) -> None:
    """EVA has no cancelled or same-journey check: the first listed booking is cancelled."""
    ex = make_executor(SID)
    _rebook(ex)
    again = _rebook(ex, new_journey_id="FL_SK715_20260325")
    assert again["status"] == "success"
    bookings = ex.db["reservations"][CONF]["bookings"]
    assert [b["journey_id"] for b in bookings][-1] == "FL_SK715_20260325"
    assert _rebook(ex, journey_id=OTHER, new_journey_id=OTHER)["status"] == "success"


def test_seat_counts_have_no_floor_and_keys_are_created(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] = 1
    del ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"]
    _rebook(ex)
    assert ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"] == 1
    assert ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] == 0


def test_downgrade_gives_credit_and_irrops_waives_fee_and_collection(make_executor: Make) -> None:
    ex = make_executor(SID)
    cs = _rebook(ex, new_fare_class="basic_economy")["cost_summary"]
    assert (cs["change_fee"], cs["fare_difference"], cs["credit_due"], cs["total_collected"]) == (
        75,
        -61.0,
        61.0,
        75,
    )
    ex2 = make_executor(SID)
    cs2 = _rebook(ex2, rebooking_type="irrops_cancellation", new_fare_class="basic_economy")["cost_summary"]
    assert (cs2["change_fee"], cs2["total_collected"], cs2["fee_waived"]) == (0, 0, True)
    assert cs2["credit_due"] == 61.0  # EVA computes credit for IRROPS too
    assert ex2.db["reservations"][CONF]["bookings"][-1]["fare_paid"] == 260.0  # keeps what was paid


def test_equal_fare_collects_the_int_fee(make_executor: Make) -> None:
    """EVA clamps with max(0, fare_difference): a 0.0 difference keeps the fee an int (75, not
    75.0), which is the JSON the agent reads (reference traces 1.1.3 and 1.2.1 show 75)."""
    ex = make_executor(SID)
    fare = ex.db["reservations"][CONF]["bookings"][0]["fare_paid"]
    ex.db["journeys"][OTHER]["fares"]["main_cabin"] = fare
    cs = _rebook(ex)["cost_summary"]
    assert isinstance(fare, float) and cs["fare_difference"] == 0.0
    assert json.dumps(cs["total_collected"]) == "75"
    assert json.dumps(cs["credit_due"]) == "0"


def test_airline_fault_missed_connection_is_not_irrops(make_executor: Make) -> None:
    ex = make_executor(SID)
    cs = _rebook(ex, rebooking_type="missed_connection_airline_fault")["cost_summary"]
    assert (cs["change_fee"], cs["total_collected"], cs["fee_waived"]) == (75, 115.0, False)
    assert ex.db["reservations"][CONF]["bookings"][-1]["fare_paid"] == 300.0


def test_same_day_basic_economy_fee_is_199(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["reservations"][CONF]["bookings"][0]["fare_class"] = "basic_economy"
    assert _rebook(ex, rebooking_type="same_day")["cost_summary"]["change_fee"] == 199


def test_new_segments_take_segment_fares(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["journeys"][OTHER]["segments"][0]["fares"]["main_cabin"] = 123.0
    _rebook(ex)
    new = ex.db["reservations"][CONF]["bookings"][-1]
    assert (new["fare_paid"], new["segments"][0]["fare_paid"]) == (300.0, 123.0)


@pytest.mark.parametrize(
    ("over", "error_type"),
    [
        ({"journey_id": "FL_SK999_20260320"}, "journey_not_found"),
        ({"new_journey_id": "FL_SK999_20260325"}, "flight_not_found"),
        ({"new_journey_id": "SK703"}, "invalid_journey_id_format"),
        ({"new_fare_class": "first"}, "fare_class_not_available"),
        ({"rebooking_type": "because"}, "invalid_parameter"),
    ],
)
def test_rebook_rejects_bad_requests_without_writing(
    make_executor: Make, over: dict[str, Any], error_type: str
) -> None:
    ex = make_executor(SID)
    before = copy.deepcopy(ex.db)
    assert _rebook(ex, **over)["error_type"] == error_type
    assert ex.db == before


def test_rebook_needs_one_seat_and_a_bookable_flight(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["reservations"][CONF]["passengers"].append({"passenger_id": "PAX002", "last_name": "X"})
    ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] = 1
    assert _rebook(ex)["status"] == "success"  # one seat is enough for EVA, whatever the party
    ex = make_executor(SID)
    ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] = 0
    assert _rebook(ex)["message"] == f"No seats available in main_cabin on flight {OTHER}"
    ex.db["journeys"][OTHER]["bookable"] = False
    assert _rebook(ex)["error_type"] == "not_bookable"
    del ex.db["journeys"][OTHER]["bookable"]
    ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] = 5
    assert _rebook(ex)["status"] == "success"  # a missing `bookable` is bookable


def test_partial_rebook_keeps_the_other_legs_under_the_old_journey_id(make_executor: Make) -> None:
    ex = make_executor("3.1.5")
    old = "FL_SK715_SK330_20260908"
    out = ex.execute(
        "rebook_flight",
        {
            "confirmation_number": "M9M6FJ",
            "journey_id": old,
            "new_journey_id": "FL_SK907_20260908",
            "rebooking_type": "irrops_delay",
            "waive_change_fee": False,
            "flight_number": "sk715",
        },
    )
    assert out["replaced_segment"] == {
        "flight_number": "SK715",
        "origin": "ATL",
        "destination": "ORD",
        "fare_paid": 180.0,
    }
    assert out["kept_segments"][0]["flight_number"] == "SK330" and "seat" in out["kept_segments"][0]
    bookings = ex.db["reservations"]["M9M6FJ"]["bookings"]
    assert [(b["journey_id"], b["status"]) for b in bookings] == [
        (old, "cancelled"),
        ("FL_SK907_20260908", "confirmed"),
        (old, "confirmed"),
    ]
    assert bookings[1]["segments"][0]["fare_paid"] == 180.0  # IRROPS onto one leg: replaced leg's fare
    assert bookings[2]["fare_paid"] == 140.0
    legs = ex.db["journeys"][old]["segments"]
    assert [s["available_seats"]["main_cabin"] for s in legs] == [1, 5]  # +1 on every old leg


def test_partial_rebook_on_a_single_leg_booking(make_executor: Make) -> None:
    out = _rebook(make_executor(SID), flight_number="SK999")
    assert out == {
        "status": "error",
        "error_type": "flight_not_found",
        "message": f"Flight SK999 not found in journey {BOOKED}",
    }
