"""Airline tool behaviour the reference traces do not exercise: errors, gating, pricing rules."""

from __future__ import annotations

import copy
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


# --- authentication -------------------------------------------------------------------


@pytest.mark.parametrize(("tool", "params"), GATED_CALLS, ids=[t for t, _ in GATED_CALLS])
def test_write_tools_require_get_reservation_first(
    make_executor: Make, tool: str, params: dict[str, Any]
) -> None:
    ex = make_executor(SID)
    before = copy.deepcopy(ex.db)
    out = ex.execute(tool, params)
    assert out["status"] == "error"
    assert out["error_type"] == "authentication_required"
    assert ex.db == before


def test_session_for_one_reservation_does_not_open_another(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    out = ex.execute(
        "process_refund", {"confirmation_number": "ABC123", "refund_amount": 5.0, "refund_type": "full_fare"}
    )
    assert out["error_type"] == "authentication_required"


def test_get_reservation_normalises_spoken_input_and_sets_session(make_executor: Make) -> None:
    ex = make_executor(SID)
    last = ex.db["reservations"][CONF]["passengers"][0]["last_name"]
    out = ex.execute("get_reservation", {"confirmation_number": " zk3-ffw ", "last_name": last.upper()})
    assert out["status"] == "success"
    assert out["reservation"]["confirmation_number"] == CONF
    seg = out["reservation"]["bookings"][0]["segments"][0]
    assert (seg["origin"], seg["destination"], seg["scheduled_departure"]) == ("AUS", "LAX", "11:05")
    assert "origin" not in ex.db["reservations"][CONF]["bookings"][0]["segments"][0]  # response is a view
    assert ex.db["session"] == {"confirmation_number": CONF, "last_name": last.lower()}


@pytest.mark.parametrize(
    ("conf", "last", "error_type"),
    [
        ("ZZZZZZ", None, "not_found"),
        (CONF, "Nobody", "authentication_failed"),
        ("ZK3F", None, "invalid_confirmation_number"),
    ],
)
def test_get_reservation_failures_leave_no_session(
    make_executor: Make, conf: str, last: str | None, error_type: str
) -> None:
    ex = make_executor(SID)
    name = last or ex.db["reservations"][CONF]["passengers"][0]["last_name"]
    out = ex.execute("get_reservation", {"confirmation_number": conf, "last_name": name})
    assert out["error_type"] == error_type
    assert not ex.db.get("session")


# --- read tools -------------------------------------------------------------------------


def test_read_tools_not_found_and_bad_formats(make_executor: Make) -> None:
    ex = make_executor(SID)
    assert (
        ex.execute("get_flight_status", {"flight_number": "SK999", "flight_date": "2026-03-20"})["error_type"]
        == "flight_not_found"
    )
    assert (
        ex.execute("get_flight_status", {"flight_number": "SK621", "flight_date": "20/03/2026"})["error_type"]
        == "invalid_flight_date"
    )
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
    assert ex.execute("search_rebooking_options", search)["error_type"] == "invalid_passenger_count"
    search.update(passenger_count=1, fare_class="coach")
    assert ex.execute("search_rebooking_options", search)["error_type"] == "invalid_fare_class"


def test_flight_status_finds_a_leg_of_a_connection(make_executor: Make) -> None:
    ex = make_executor("3.1.5")
    del ex.db["journeys"]["FL_SK330_20260908"]  # no direct journey: found through the connection
    out = ex.execute("get_flight_status", {"flight_number": "SK330", "flight_date": "2026-09-08"})
    assert out["journey"]["journey_id"] == "FL_SK715_SK330_20260908"


def test_search_orders_by_departure_and_quotes_cheapest_class_for_any(make_executor: Make) -> None:
    ex = make_executor(SID)
    base = {"origin": "aus", "destination": "lax", "date": "2026-03-25", "passenger_count": 1}
    out = ex.execute("search_rebooking_options", {**base, "fare_class": "any"})
    deps = [o["departure_time"] for o in out["options"]]
    assert deps == sorted(deps) and out["count"] == len(deps) > 0
    j = ex.db["journeys"][out["options"][0]["journey_id"]]
    assert out["options"][0]["fare"] == min(v for v in j["fares"].values() if v is not None)
    none = ex.execute("search_rebooking_options", {**base, "passenger_count": 99, "fare_class": "main_cabin"})
    assert none == {"status": "success", "options": [], "count": 0, "message": "0 flight(s) found"}


# --- rebooking --------------------------------------------------------------------------


def test_voluntary_rebook_prices_and_moves_seats(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    old_seats = ex.db["journeys"][BOOKED]["segments"][0]["available_seats"]["main_cabin"]
    new_seats = ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"]
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
    # the cancelled journey cannot be changed again
    assert _rebook(ex, new_journey_id="FL_SK715_20260325")["error_type"] == "journey_cancelled"


def test_downgrade_gives_credit_and_irrops_waives_everything(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    cs = _rebook(ex, new_fare_class="basic_economy")["cost_summary"]
    assert (cs["change_fee"], cs["fare_difference"], cs["credit_due"], cs["total_collected"]) == (
        75,
        -61.0,
        61.0,
        75,
    )
    ex2 = make_executor(SID)
    login(ex2, CONF)
    cs2 = _rebook(ex2, rebooking_type="irrops_cancellation", waive_change_fee=True)["cost_summary"]
    assert (cs2["change_fee"], cs2["total_collected"], cs2["fee_waived"]) == (0, 0, True)
    assert ex2.db["reservations"][CONF]["bookings"][-1]["fare_paid"] == 260.0  # keeps what was paid


def test_same_day_basic_economy_fee_is_199(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    ex.db["reservations"][CONF]["bookings"][0]["fare_class"] = "basic_economy"
    assert _rebook(ex, rebooking_type="same_day")["cost_summary"]["change_fee"] == 199


@pytest.mark.parametrize(
    ("over", "error_type"),
    [
        ({"journey_id": "FL_SK999_20260320"}, "journey_not_found"),
        ({"new_journey_id": "FL_SK999_20260325"}, "journey_not_found"),
        ({"new_journey_id": "SK703"}, "invalid_new_journey_id"),
        ({"new_journey_id": BOOKED}, "same_journey"),
        ({"new_fare_class": "first"}, "fare_class_unavailable"),
        ({"rebooking_type": "because"}, "invalid_rebooking_type"),
    ],
)
def test_rebook_rejects_bad_requests_without_writing(
    make_executor: Make, login: Login, over: dict[str, Any], error_type: str
) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    before = copy.deepcopy(ex.db)
    assert _rebook(ex, **over)["error_type"] == error_type
    assert ex.db == before


def test_rebook_needs_seats_and_a_bookable_flight(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    ex.db["journeys"][OTHER]["segments"][0]["available_seats"]["main_cabin"] = 0
    assert _rebook(ex)["error_type"] == "no_availability"
    ex.db["journeys"][OTHER]["bookable"] = False
    assert _rebook(ex)["error_type"] == "journey_not_bookable"


# --- ancillaries ------------------------------------------------------------------------


def test_seat_assignment_follows_cabin_and_availability(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    _rebook(ex, new_journey_id="FL_SK739_20260325")  # main cabin there has no window seats
    seat = {"confirmation_number": CONF, "passenger_id": "PAX001", "journey_id": "FL_SK739_20260325"}
    assert (
        ex.execute("assign_seat", {**seat, "seat_preference": "window"})["error_type"] == "seat_unavailable"
    )
    out = ex.execute("assign_seat", {**seat, "seat_preference": "no_preference"})
    assert out["seat_assigned"] == "21C"
    assert ex.db["reservations"][CONF]["bookings"][-1]["segments"][0]["seat"] == "21C"
    assert (
        ex.execute("assign_seat", {**seat, "passenger_id": "PAX009", "seat_preference": "aisle"})[
            "error_type"
        ]
        == "passenger_not_found"
    )


def test_multi_leg_seat_needs_flight_number(make_executor: Make, login: Login) -> None:
    ex = make_executor("3.1.5")
    login(ex, "M9M6FJ")
    seat = {
        "confirmation_number": "M9M6FJ",
        "passenger_id": "PAX001",
        "journey_id": "FL_SK715_SK330_20260908",
        "seat_preference": "aisle",
    }
    assert ex.execute("assign_seat", seat)["error_type"] == "flight_number_required"
    assert (
        ex.execute("assign_seat", {**seat, "flight_number": "SK999"})["error_type"] == "flight_not_in_journey"
    )
    out = ex.execute("assign_seat", {**seat, "flight_number": "sk330"})
    assert out["flight_number"] == "SK330"
    segs = ex.db["reservations"]["M9M6FJ"]["bookings"][0]["segments"]
    assert [s["seat"] for s in segs] == ["22C", "21C"]


def test_bags_and_meals(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    bags = {"confirmation_number": CONF, "journey_id": BOOKED}
    assert ex.execute("add_baggage_allowance", {**bags, "num_bags": 6})["error_type"] == "invalid_num_bags"
    assert ex.execute("add_baggage_allowance", {**bags, "num_bags": 2})["bags_checked"] == 2
    meal = {"confirmation_number": CONF, "passenger_id": "PAX001", "journey_id": BOOKED}
    assert ex.execute("add_meal_request", {**meal, "meal_type": "pizza"})["error_type"] == "invalid_meal_type"
    assert (
        ex.execute("add_meal_request", {**meal, "meal_type": "kosher"})["message"]
        == "kosher meal request added"
    )
    seg = ex.db["reservations"][CONF]["bookings"][0]["segments"][0]
    assert (seg["bags_checked"], seg["meal_request"]) == (2, "kosher")


# --- standby ----------------------------------------------------------------------------


def test_standby_is_same_day_only_and_not_twice(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    req = {"confirmation_number": CONF, "journey_id": OTHER, "passenger_ids": ["PAX001"]}
    assert ex.execute("add_to_standby", req)["error_type"] == "not_eligible"  # departs 03-25, today 03-17
    ex.db["_current_date"] = "2026-03-25"
    assert (
        ex.execute("add_to_standby", {**req, "passenger_ids": ["PAX002"]})["error_type"]
        == "passenger_not_found"
    )
    assert ex.execute("add_to_standby", req)["standby_list_position"] == 1
    assert ex.execute("add_to_standby", req)["error_type"] == "already_on_standby"


# --- cancellation, refunds, credits, vouchers -------------------------------------------


def test_non_refundable_cancellation_becomes_credit_minus_fee(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    req = {"confirmation_number": CONF, "journey_id": BOOKED, "cancellation_reason": "voluntary"}
    out = ex.execute("cancel_reservation", req)
    assert (out["is_refundable"], out["cancellation_fee"], out["credit_amount_eligible"]) == (
        False,
        100,
        160.0,
    )
    assert out["reservation_status"] == "cancelled"
    assert ex.execute("cancel_reservation", req)["error_type"] == "already_cancelled"


def test_refund_rules_need_eligibility(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    req = {"confirmation_number": CONF, "journey_id": BOOKED}
    assert (
        ex.execute("cancel_reservation", {**req, "cancellation_reason": "irrops_refund"})["error_type"]
        == "not_eligible"
    )
    assert (
        ex.execute("cancel_reservation", {**req, "cancellation_reason": "24_hour_rule"})["error_type"]
        == "not_eligible"
    )  # booked 2026-02-02, today 2026-03-17
    ex.db["reservations"][CONF]["booking_date"] = "2026-03-10T18:00:00-06:00"
    ex.db["_current_date"] = "2026-03-11"
    out = ex.execute("cancel_reservation", {**req, "cancellation_reason": "24_hour_rule"})
    assert (out["is_refundable"], out["refund_amount_eligible"]) == (True, 260.0)


def test_refund_ids_count_up_and_amount_must_be_positive(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    req = {"confirmation_number": CONF, "refund_type": "full_fare"}
    assert ex.execute("process_refund", {**req, "refund_amount": 0})["error_type"] == "invalid_refund_amount"
    ids = [ex.execute("process_refund", {**req, "refund_amount": 20})["refund_id"] for _ in range(2)]
    assert ids == [f"REF-{CONF}-001", f"REF-{CONF}-002"]
    assert ex.db["refunds"][ids[0]]["initiated_date"] == "2026-03-17"


def test_credit_and_vouchers(make_executor: Make, login: Login) -> None:
    ex = make_executor(SID)
    login(ex, CONF)
    pax = {"confirmation_number": CONF, "passenger_id": "PAX001"}
    credit = ex.execute("issue_travel_credit", {**pax, "amount": 50, "credit_reason": "goodwill"})
    assert (credit["credit_code"], credit["amount"], credit["valid_months"]) == (f"TC{CONF}PAX", 50.0, 12)
    assert ex.db["travel_credits"][credit["credit_code"]]["expiry_date"] == "2027-03-17"
    again = ex.execute("issue_travel_credit", {**pax, "amount": 10, "credit_reason": "goodwill"})
    assert again["credit_code"] != credit["credit_code"]  # a second credit never overwrites the first
    assert (
        ex.execute("issue_travel_credit", {**pax, "amount": -5, "credit_reason": "goodwill"})["error_type"]
        == "invalid_amount"
    )
    assert ex.execute("issue_hotel_voucher", {**pax, "num_nights": 4})["error_type"] == "invalid_num_nights"
    hotel = ex.execute("issue_hotel_voucher", {**pax, "num_nights": 2})
    assert ex.db["hotel_vouchers"][hotel["voucher_code"]]["num_nights"] == 2
    meal = ex.execute("issue_meal_voucher", {**pax, "voucher_reason": "irrops_overnight"})
    assert (meal["voucher_code"], meal["amount"]) == (f"MEAL-{CONF}-PAX0", 25)
    assert (
        ex.execute(
            "issue_meal_voucher",
            {"confirmation_number": CONF, "passenger_id": "bob", "voucher_reason": "irrops_overnight"},
        )["error_type"]
        == "invalid_passenger_id"
    )


def test_transfer_always_goes_through(make_executor: Make) -> None:
    ex = make_executor(SID)
    out = ex.execute(
        "transfer_to_agent",
        {
            "confirmation_number": CONF,
            "transfer_reason": "passenger_requested",
            "issue_summary": "wants a human",
        },
    )
    assert out == {"status": "transfer_initiated"}


def test_same_calls_give_the_same_database(make_executor: Make, login: Login) -> None:
    dbs = []
    for _ in range(2):
        ex = make_executor(SID)
        login(ex, CONF)
        _rebook(ex)
        ex.execute(
            "issue_meal_voucher",
            {"confirmation_number": CONF, "passenger_id": "PAX001", "voucher_reason": "delay_over_2_hours"},
        )
        dbs.append(ex.db)
    assert dbs[0] == dbs[1]
