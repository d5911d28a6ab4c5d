"""Airline seats, bags, meals, standby, cancellations, refunds, credits and vouchers,
matched to EVA's tool code (`eva-tool-semantics.md` section 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from voxbench.scenarios.executor import ToolExecutor

Make = Callable[[str], ToolExecutor]

# Scenario 1.1.2: one passenger, reservation ZK3FFW on FL_SK621_20260320 (main cabin,
# non-refundable, fare 260), AUS-LAX options on 2026-03-25; "today" is 2026-03-17.
SID, CONF, BOOKED, OTHER = "1.1.2", "ZK3FFW", "FL_SK621_20260320", "FL_SK703_20260325"
PAX = {"confirmation_number": CONF, "passenger_id": "PAX001"}
MULTI = {"confirmation_number": "M9M6FJ", "passenger_id": "PAX001", "journey_id": "FL_SK715_SK330_20260908"}


def _seat(ex: ToolExecutor, **over: Any) -> dict[str, Any]:
    return ex.execute("assign_seat", {**PAX, "journey_id": BOOKED, "seat_preference": "aisle", **over})


# --- seats ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fare_class", "pid", "seat"),
    [
        ("main_cabin", "PAX001", "21C"),
        ("premium_economy", "PAX001", "11C"),
        ("business", "PAX001", "6C"),
        ("first", "PAX001", "2C"),
        ("basic_economy", "PAX003", "28C"),
    ],
)
def test_seat_row_is_cabin_base_plus_passenger_number(
    make_executor: Make, fare_class: str, pid: str, seat: str
) -> None:
    ex = make_executor(SID)
    ex.db["reservations"][CONF]["bookings"][0]["fare_class"] = fare_class
    seg = ex.db["journeys"][BOOKED]["segments"][0]
    seg["available_seats"][fare_class] = 3
    seg.setdefault("available_seat_types", {})[fare_class] = ["aisle"]
    assert _seat(ex, passenger_id=pid)["seat_assigned"] == seat  # no passenger-on-reservation check


def test_no_preference_is_seat_c(make_executor: Make) -> None:
    ex = make_executor(SID)
    out = _seat(ex, seat_preference="no_preference")
    assert (
        out["seat_assigned"] == "21C" and out["message"] == "Seat 21C (no_preference) successfully assigned"
    )


def test_seat_type_unavailable_and_no_seats(make_executor: Make) -> None:
    ex = make_executor(SID)
    seg = ex.db["journeys"][BOOKED]["segments"][0]
    seg["available_seat_types"]["main_cabin"] = ["aisle", "middle"]
    assert _seat(ex, seat_preference="window") == {
        "status": "error",
        "error_type": "seat_type_unavailable",
        "message": "No window seats available in main_cabin on this flight. Available types: aisle, middle",
    }
    seg["available_seats"]["main_cabin"] = 0
    assert _seat(ex) == {
        "status": "error",
        "error_type": "no_seats_available",
        "message": "No seats available in main_cabin fare class",
    }


def test_seat_on_a_cancelled_booking_is_allowed(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["reservations"][CONF]["bookings"][0]["status"] = "cancelled"
    assert _seat(ex)["status"] == "success"


def test_multi_leg_seat_needs_flight_number(make_executor: Make) -> None:
    ex = make_executor("3.1.5")
    ex.db["journeys"]["FL_SK715_SK330_20260908"]["segments"][0]["available_seats"]["main_cabin"] = 2
    seat = {**MULTI, "seat_preference": "aisle"}
    assert ex.execute("assign_seat", seat)["message"] == (
        "Journey FL_SK715_SK330_20260908 has 2 segments; flight_number is required"
    )
    assert ex.execute("assign_seat", {**seat, "flight_number": "SK999"})["error_type"] == "flight_not_found"
    out = ex.execute("assign_seat", {**seat, "flight_number": "sk330"})
    assert out["flight_number"] == "SK330"


# --- bags and meals ---------------------------------------------------------------------


def test_bags_bounds_and_meals(make_executor: Make) -> None:
    ex = make_executor(SID)
    bags = {"confirmation_number": CONF, "journey_id": BOOKED}
    out = ex.execute("add_baggage_allowance", {**bags, "num_bags": 6})
    assert out["error_type"] == "invalid_bag_count" and out["message"].startswith(
        "Invalid num_bags '6': Input should"
    )
    assert ex.execute("add_baggage_allowance", {**bags, "num_bags": "2"})["bags_checked"] == 2
    meal = {**PAX, "journey_id": BOOKED}
    assert ex.execute("add_meal_request", {**meal, "meal_type": "pizza"})["error_type"] == "invalid_parameter"
    assert (
        ex.execute("add_meal_request", {**meal, "meal_type": "kosher"})["message"]
        == "kosher meal request added"
    )
    seg = ex.db["reservations"][CONF]["bookings"][0]["segments"][0]
    assert (seg["bags_checked"], seg["meal_request"]) == (2, "kosher")
    ex.execute("add_meal_request", {**meal, "passenger_id": "PAX009", "meal_type": "none"})
    assert seg["meal_request"] == "none"  # stored as given; no passenger check


# --- standby ----------------------------------------------------------------------------


def test_standby_has_no_same_day_or_duplicate_check(make_executor: Make) -> None:
    ex = make_executor(SID)
    req = {"confirmation_number": CONF, "journey_id": OTHER, "passenger_ids": ["PAX001"]}
    assert ex.execute("add_to_standby", req)["standby_list_position"] == 1
    assert ex.execute("add_to_standby", req)["standby_list_position"] == 2
    assert len(ex.db["journeys"][OTHER]["standby_list"]) == 2


def test_standby_position_is_the_last_added(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["reservations"][CONF]["passengers"].append({"passenger_id": "PAX002", "last_name": "X"})
    out = ex.execute(
        "add_to_standby",
        {"confirmation_number": CONF, "journey_id": OTHER, "passenger_ids": ["PAX001", "PAX002"]},
    )
    assert out["standby_list_position"] == 2
    assert [e["position"] for e in ex.db["journeys"][OTHER]["standby_list"]] == [1, 2]
    assert ex.db["reservations"][CONF]["standby_list"][0]["position"] == 2


def test_standby_errors_and_lenient_cases(make_executor: Make) -> None:
    ex = make_executor(SID)
    req = {"confirmation_number": CONF, "journey_id": OTHER}
    out = ex.execute("add_to_standby", {**req, "passenger_ids": ["PAX002", "PAX003"]})
    assert out == {
        "status": "error",
        "error_type": "invalid_passengers",
        "message": "Unknown passenger ID(s): PAX002, PAX003",
    }
    assert ex.execute("add_to_standby", {**req, "passenger_ids": []})["status"] == "success"
    assert ex.db["reservations"][CONF]["standby_list"][0]["passenger_ids"] == []
    unknown = ex.execute(
        "add_to_standby", {**req, "confirmation_number": "ZZZZZZ", "passenger_ids": ["PAX001"]}
    )
    assert (
        unknown["status"] == "success"
        and ex.db["journeys"][OTHER]["standby_list"][-1]["confirmation_number"] == "ZZZZZZ"
    )
    ex.db["journeys"][OTHER]["status"] = "cancelled"
    assert (
        ex.execute("add_to_standby", {**req, "passenger_ids": ["PAX001"]})["error_type"] == "flight_cancelled"
    )
    missing = ex.execute(
        "add_to_standby", {**req, "journey_id": "FL_SK999_20260325", "passenger_ids": ["PAX001"]}
    )
    assert missing["error_type"] == "flight_not_found"


# --- cancellation and refunds -------------------------------------------------------------


def _cancel(ex: ToolExecutor, reason: str) -> dict[str, Any]:
    return ex.execute(
        "cancel_reservation",
        {"confirmation_number": CONF, "journey_id": BOOKED, "cancellation_reason": reason},
    )


def test_non_refundable_cancellation_becomes_credit_minus_fee(make_executor: Make) -> None:
    ex = make_executor(SID)
    seats = ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"]
    out = _cancel(ex, "voluntary")
    assert (out["is_refundable"], out["cancellation_fee"], out["credit_amount_eligible"]) == (
        False,
        100,
        160.0,
    )
    assert out["reservation_status"] == "cancelled"
    assert ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"] == seats + 1
    assert _cancel(ex, "voluntary")["error_type"] == "already_cancelled"


def test_schedule_unacceptable_is_not_refundable_and_no_eligibility_gate(make_executor: Make) -> None:
    out = _cancel(make_executor(SID), "schedule_unacceptable")
    assert (out["is_refundable"], out["cancellation_fee"]) == (False, 100)
    out = _cancel(make_executor(SID), "irrops_refund")  # no disruption on file: EVA refunds anyway
    assert (out["is_refundable"], out["refund_amount_eligible"]) == (True, 260.0)
    assert _cancel(make_executor(SID), "24_hour_rule")["is_refundable"] is True


def test_cancel_status_is_active_and_fare_from_segments(make_executor: Make) -> None:
    ex = make_executor(SID)
    booking = ex.db["reservations"][CONF]["bookings"][0]
    del booking["fare_paid"]
    ex.db["reservations"][CONF]["bookings"].append({**booking, "journey_id": OTHER, "status": "confirmed"})
    out = _cancel(ex, "irrops_refund")
    assert (out["refund_amount_eligible"], out["reservation_status"]) == (260.0, "active")


def test_refund_ids_follow_the_call_index(make_executor: Make) -> None:
    ex = make_executor(SID)
    req = {"confirmation_number": CONF, "refund_type": "full_fare"}
    bad = ex.execute("process_refund", {**req, "refund_amount": 0})
    assert bad["message"] == "Invalid or missing parameter 'refund_amount': Input should be greater than 0"
    ids = [ex.execute("process_refund", {**req, "refund_amount": 20.005})["refund_id"] for _ in range(2)]
    assert ids == [f"REF-{CONF}-002", f"REF-{CONF}-003"]  # the failed call counted
    assert ex.db["refunds"][ids[0]]["refund_amount"] == 20.005  # not rounded


# --- credits and vouchers -----------------------------------------------------------------


def test_travel_credit_code_overwrites_and_expiry_is_next_year(make_executor: Make) -> None:
    ex = make_executor(SID)
    ex.db["_current_date"] = "2028-02-29"
    credit = ex.execute("issue_travel_credit", {**PAX, "amount": 50.123, "credit_reason": "goodwill"})
    again = ex.execute(
        "issue_travel_credit", {**PAX, "passenger_id": "PAX002", "amount": 10, "credit_reason": "goodwill"}
    )
    assert credit["credit_code"] == again["credit_code"] == f"TC{CONF}PAX"
    rec = ex.db["travel_credits"][f"TC{CONF}PAX"]
    assert (rec["amount"], rec["passenger_id"], rec["expiry_date"]) == (10, "PAX002", "2029-02-29")
    neg = ex.execute("issue_travel_credit", {**PAX, "amount": -5, "credit_reason": "goodwill"})
    assert neg["error_type"] == "invalid_parameter"


def test_vouchers_overwrite_and_hotel_authority(make_executor: Make) -> None:
    ex = make_executor(SID)
    assert ex.execute("issue_hotel_voucher", {**PAX, "num_nights": 4}) == {
        "status": "error",
        "error_type": "exceeds_authority",
        "message": "Hotel vouchers can be issued for maximum of 3 nights",
    }
    assert ex.execute("issue_hotel_voucher", {**PAX, "num_nights": 0})["error_type"] == "invalid_parameter"
    ex.execute("issue_hotel_voucher", {**PAX, "num_nights": 2})
    ex.execute("issue_hotel_voucher", {**PAX, "passenger_id": "PAX002", "num_nights": 1})
    assert list(ex.db["hotel_vouchers"]) == [f"HOTEL-{CONF}"]
    meal = ex.execute("issue_meal_voucher", {**PAX, "voucher_reason": "irrops_overnight"})
    ex.execute(
        "issue_meal_voucher", {**PAX, "passenger_id": "PAX002", "voucher_reason": "delay_over_2_hours"}
    )
    assert (meal["voucher_code"], meal["amount"]) == (f"MEAL-{CONF}-PAX0", 25)
    assert ex.db["meal_vouchers"][f"MEAL-{CONF}-PAX0"]["passenger_id"] == "PAX002"
    bad = ex.execute(
        "issue_meal_voucher", {**PAX, "passenger_id": "bob", "voucher_reason": "irrops_overnight"}
    )
    assert bad["error_type"] == "invalid_passenger_id_format"


TRANSFER = {
    "confirmation_number": CONF.lower(),
    "transfer_reason": "policy_exception_needed",
    "issue_summary": "Caller wants a refund exception.",
}


def test_transfer_is_evas_tool_function(make_executor: Make) -> None:
    """EVA's function (run by its realtime servers): reservation checked, id from the call count."""
    ex = make_executor(SID)
    first = ex.execute("transfer_to_agent", TRANSFER)
    assert first == {
        "status": "success",
        "transfer_id": f"TRF-{CONF}-001",
        "confirmation_number": CONF,
        "transfer_reason": "policy_exception_needed",
        "issue_summary": "Caller wants a refund exception.",
        "estimated_wait": "2-3 minutes",
        "message": "Transferring to live agent",
    }
    missing = ex.execute("transfer_to_agent", {**TRANSFER, "confirmation_number": "ZZZZZZ"})
    assert missing == {
        "status": "error",
        "error_type": "not_found",
        "message": "Reservation ZZZZZZ not found",
    }
    # Failed calls count too: the third call is TRF-...-003, deterministically.
    assert ex.execute("transfer_to_agent", TRANSFER)["transfer_id"] == f"TRF-{CONF}-003"
    assert ex.db == make_executor(SID).db  # writes nothing


def test_transfer_validates_its_parameters(make_executor: Make) -> None:
    ex = make_executor(SID)
    bad = ex.execute("transfer_to_agent", {**TRANSFER, "confirmation_number": "ZK3-FFW"})
    assert bad["error_type"] == "invalid_confirmation_number_format"
    assert bad["message"].startswith("Invalid confirmation_number 'ZK3-FFW': must be ")
    assert ex.execute("transfer_to_agent", {})["error_type"] == "invalid_confirmation_number_format"
    no_reason = ex.execute("transfer_to_agent", {k: v for k, v in TRANSFER.items() if k != "transfer_reason"})
    assert no_reason == {
        "status": "error",
        "error_type": "invalid_parameter",
        "message": "Invalid or missing parameter 'transfer_reason': Field required",
    }
    numeric = ex.execute("transfer_to_agent", {**TRANSFER, "issue_summary": 42})
    assert (
        numeric["message"] == "Invalid or missing parameter 'issue_summary': Input should be a valid string"
    )


def test_same_calls_give_the_same_database(make_executor: Make) -> None:
    dbs = []
    for _ in range(2):
        ex = make_executor(SID)
        _cancel(ex, "voluntary")
        ex.execute("issue_meal_voucher", {**PAX, "voucher_reason": "delay_over_2_hours"})
        dbs.append(ex.db)
    assert dbs[0] == dbs[1]
