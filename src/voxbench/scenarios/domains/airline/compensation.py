"""Cancellations, refunds, travel credits and meal/hotel vouchers, as EVA's tools do them.

Refunds: refundable fares, IRROPS refunds and the 24-hour rule return the full fare;
every other cancellation (`schedule_unacceptable` included) becomes a travel credit
minus the cancellation fee. EVA checks no eligibility here: the agent's policy does.
Codes are derived from the reservation and passenger, and a repeated code overwrites
the earlier record, as in EVA.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import Result, add_seats, find_booking, reservation, today

CANCELLATION_FEE = 100
REFUND_PROCESSING_DAYS = 7
CREDIT_VALID_MONTHS = 12
MAX_HOTEL_NIGHTS = 3
MEAL_VOUCHER_AMOUNT = {
    "delay_over_2_hours": 12,
    "delay_over_4_hours": 15,
    "cancellation_wait_same_day": 15,
    "irrops_overnight": 25,
}


def _next_year(day: str) -> str:
    """EVA's expiry: the same date string with the year plus one (no calendar fix)."""
    year, _, rest = day.partition("-")
    return f"{int(year) + 1}-{rest}" if year.isdigit() else day


@TOOLS.tool
def cancel_reservation(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Cancel one booked journey and report what the caller is owed (refund or credit)."""
    conf, res, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    jid = params["journey_id"]
    booking, err = find_booking(res, jid)
    if err:
        return err
    if booking.get("status") == "cancelled":
        return error("already_cancelled", f"Journey {jid} is already cancelled")
    reason = params["cancellation_reason"]
    if "fare_paid" in booking:
        fare = booking.get("fare_paid") or 0
    else:
        fare = sum(s.get("fare_paid") or 0 for s in booking.get("segments", []))
    full_refund = res.get("fare_type") == "refundable" or reason in ("irrops_refund", "24_hour_rule")
    if full_refund:
        fee, refund, credit = 0, fare, 0
    else:
        fee, refund, credit = CANCELLATION_FEE, 0, max(fare - CANCELLATION_FEE, 0)
    booking["status"] = "cancelled"
    add_seats(db, jid, str(booking.get("fare_class")), 1)
    all_cancelled = all(b.get("status") == "cancelled" for b in res.get("bookings", []))
    if all_cancelled:
        res["status"] = "cancelled"
    return success(
        confirmation_number=conf,
        journey_id=jid,
        is_refundable=full_refund,
        cancellation_fee=fee,
        refund_amount_eligible=refund if refund else 0,
        credit_amount_eligible=credit if credit else 0,
        reservation_status="cancelled" if all_cancelled else "active",
        message=f"Journey {jid} cancelled successfully",
    )


@TOOLS.tool
def process_refund(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Record one refund; its id counts this tool's calls in the conversation (EVA)."""
    conf, _, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    amount = params["refund_amount"]
    refunds = db.setdefault("refunds", {})
    refund_id = f"REF-{conf}-{call_index:03d}"
    refunds[refund_id] = {
        "refund_id": refund_id,
        "confirmation_number": conf,
        "refund_amount": amount,
        "refund_type": params["refund_type"],
        "processing_days": REFUND_PROCESSING_DAYS,
        "initiated_date": today(db),
        "status": "processing",
    }
    return success(
        confirmation_number=conf,
        refund_id=refund_id,
        refund_amount=amount,
        refund_type=params["refund_type"],
        processing_days=REFUND_PROCESSING_DAYS,
        message=f"${amount} refund initiated, processing time {REFUND_PROCESSING_DAYS} business days",
    )


@TOOLS.tool
def issue_travel_credit(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Issue a 12-month travel credit, valid only for the named passenger."""
    conf, _, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, amount = params["passenger_id"], params["amount"]
    credits = db.setdefault("travel_credits", {})
    code = f"TC{conf}{pid[:3].upper()}"
    issued = today(db)
    expiry = _next_year(issued)
    credits[code] = {
        "credit_code": code,
        "confirmation_number": conf,
        "passenger_id": pid,
        "amount": amount,
        "credit_reason": params["credit_reason"],
        "issued_date": issued,
        "expiry_date": expiry,
        "status": "active",
    }
    return success(
        confirmation_number=conf,
        passenger_id=pid,
        credit_code=code,
        amount=amount,
        valid_months=CREDIT_VALID_MONTHS,
        message=f"${amount} travel credit issued with code {code}",
    )


@TOOLS.tool
def issue_hotel_voucher(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Issue an airport-area hotel voucher for 1 to 3 nights."""
    conf, _, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, nights = params["passenger_id"], params["num_nights"]
    if nights > MAX_HOTEL_NIGHTS:
        return error("exceeds_authority", "Hotel vouchers can be issued for maximum of 3 nights")
    vouchers = db.setdefault("hotel_vouchers", {})
    code = f"HOTEL-{conf}"
    vouchers[code] = {
        "voucher_code": code,
        "confirmation_number": conf,
        "passenger_id": pid,
        "num_nights": nights,
        "issued_date": today(db),
        "status": "active",
    }
    return success(
        confirmation_number=conf,
        passenger_id=pid,
        voucher_code=code,
        number_of_nights=nights,
        valid_at="Any hotels in airport area",
        message=f"Hotel voucher issued with code {code} for {nights} nights",
    )


@TOOLS.tool
def issue_meal_voucher(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Issue a terminal meal voucher; the amount follows from the reason."""
    conf, _, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, reason = params["passenger_id"], params["voucher_reason"]
    amount = MEAL_VOUCHER_AMOUNT[reason]
    vouchers = db.setdefault("meal_vouchers", {})
    code = f"MEAL-{conf}-{pid[:4]}"
    vouchers[code] = {
        "voucher_code": code,
        "confirmation_number": conf,
        "passenger_id": pid,
        "amount": amount,
        "voucher_reason": reason,
        "issued_date": today(db),
        "status": "active",
    }
    return success(
        confirmation_number=conf,
        passenger_id=pid,
        voucher_code=code,
        amount=amount,
        valid_at="Airport terminal restaurants",
        message=f"${amount} meal voucher issued with code {code}",
    )
