"""Cancellations, refunds, travel credits and meal/hotel vouchers.

Money rules from the policy: refundable fares, IRROPS refunds and the 24-hour rule
return the full fare; other cancellations of non-refundable fares become a travel
credit minus a cancellation fee. Ids are derived from the reservation (and a running
number where one reservation can have several), so reruns produce the same records.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    Result,
    adjust_seats,
    authed_reservation,
    check_journey_id,
    check_passenger_id,
    find_booking,
    find_passenger,
    money,
    passenger_error,
    today,
)

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
IRROPS_REFUND_DELAY_MINUTES = 240


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    for day in (d.day, 30, 29, 28):
        try:
            return date(year, month, day)
        except ValueError:
            continue
    return date(year, month, 28)


def _unique_code(table: dict[str, Any], base: str) -> str:
    """`base`, or `base-N` when a record with that code already exists."""
    code, n = base, 1
    while code in table:
        n += 1
        code = f"{base}-{n}"
    return code


def _irrops_eligible(db: dict[str, Any], booking: dict[str, Any]) -> bool:
    """An airline cancellation, an IRROPS disruption or a delay of 4+ hours on a leg."""
    j = db.get("journeys", {}).get(booking.get("journey_id")) or {}
    if j.get("status") == "cancelled":
        return True
    disruptions = db.get("disruptions") or {}
    values = list(disruptions.values()) if isinstance(disruptions, dict) else list(disruptions)
    for seg in booking.get("segments", []):
        fn, day = seg.get("flight_number"), seg.get("date")
        if any(d.get("flight_number") == fn and d.get("date") == day and d.get("is_irrops") for d in values):
            return True
        jseg: dict[str, Any] = next((s for s in j.get("segments", []) if s.get("flight_number") == fn), {})
        if (
            jseg.get("status") == "cancelled"
            or int(jseg.get("delay_minutes") or 0) >= IRROPS_REFUND_DELAY_MINUTES
        ):
            return True
    return False


def _within_24_hours(db: dict[str, Any], res: dict[str, Any], booking: dict[str, Any]) -> bool:
    """Booked no earlier than yesterday, and at least 7 days before departure."""
    try:
        booked = date.fromisoformat(str(res.get("booking_date", ""))[:10])
        now = date.fromisoformat(today(db))
        departs = date.fromisoformat(str((booking.get("segments") or [{}])[0].get("date", "")))
    except ValueError:
        return False
    return 0 <= (now - booked).days <= 1 and (departs - booked).days >= 7


@TOOLS.tool
def cancel_reservation(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Cancel one booked journey and report what the caller is owed (refund or credit)."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    jid, err = check_journey_id(params["journey_id"])
    if err:
        return err
    booking, err = find_booking(res, jid)
    if err:
        return err
    if booking.get("status") == "cancelled":
        return error("already_cancelled", f"Journey {jid} is already cancelled")
    reason = params["cancellation_reason"]
    if reason in ("irrops_refund", "schedule_unacceptable") and not _irrops_eligible(db, booking):
        return error(
            "not_eligible",
            f"Journey {jid} has no airline cancellation, IRROPS disruption or 4+ hour delay; "
            "an IRROPS refund does not apply",
        )
    if reason == "24_hour_rule" and not _within_24_hours(db, res, booking):
        return error(
            "not_eligible",
            "The 24-hour rule needs cancellation within 24 hours of booking and a booking made "
            "at least 7 days before departure",
        )
    fare = float(booking.get("fare_paid") or 0)
    full_refund = res.get("fare_type") == "refundable" or reason in (
        "irrops_refund",
        "24_hour_rule",
        "schedule_unacceptable",
    )
    if full_refund:
        fee, refund, credit = 0, money(fare), 0.0
    else:
        fee, refund, credit = CANCELLATION_FEE, 0.0, money(max(fare - CANCELLATION_FEE, 0))
    booking["status"] = "cancelled"
    party = max(1, len(res.get("passengers", [])))
    adjust_seats(db, jid, str(booking.get("fare_class")), party)
    if all(b.get("status") == "cancelled" for b in res.get("bookings", [])):
        res["status"] = "cancelled"
    return success(
        confirmation_number=res.get("confirmation_number"),
        journey_id=jid,
        is_refundable=full_refund,
        cancellation_fee=fee,
        refund_amount_eligible=refund if refund else 0,
        credit_amount_eligible=credit if credit else 0,
        reservation_status=res.get("status"),
        message=f"Journey {jid} cancelled successfully",
    )


@TOOLS.tool
def process_refund(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Record one refund to the original payment (fare and ancillary fees are separate calls)."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    amount = money(params["refund_amount"])
    if amount <= 0:
        return error(
            "invalid_refund_amount", f"refund_amount must be positive, got {params['refund_amount']}"
        )
    conf = str(res.get("confirmation_number"))
    refunds = db.setdefault("refunds", {})
    n = 1 + sum(1 for r in refunds.values() if isinstance(r, dict) and r.get("confirmation_number") == conf)
    refund_id = _unique_code(refunds, f"REF-{conf}-{n:03d}")
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


def _passenger(res: dict[str, Any], raw: str) -> tuple[str, Result | None]:
    pid, err = check_passenger_id(raw)
    if err:
        return pid, err
    if find_passenger(res, pid) is None:
        return pid, passenger_error(res, pid)
    return pid, None


@TOOLS.tool
def issue_travel_credit(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Issue a 12-month travel credit, valid only for the named passenger."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, err = _passenger(res, params["passenger_id"])
    if err:
        return err
    amount = money(params["amount"])
    if amount <= 0:
        return error("invalid_amount", f"amount must be positive, got {params['amount']}")
    conf = str(res.get("confirmation_number"))
    credits = db.setdefault("travel_credits", {})
    code = _unique_code(credits, f"TC{conf}{pid[:3]}")
    issued = today(db)
    try:
        expiry = _add_months(date.fromisoformat(issued), CREDIT_VALID_MONTHS).isoformat()
    except ValueError:
        expiry = ""
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
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, err = _passenger(res, params["passenger_id"])
    if err:
        return err
    nights = params["num_nights"]
    if not 1 <= nights <= MAX_HOTEL_NIGHTS:
        return error(
            "invalid_num_nights", f"num_nights must be between 1 and {MAX_HOTEL_NIGHTS}, got {nights}"
        )
    conf = str(res.get("confirmation_number"))
    vouchers = db.setdefault("hotel_vouchers", {})
    code = _unique_code(vouchers, f"HOTEL-{conf}")
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
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, err = _passenger(res, params["passenger_id"])
    if err:
        return err
    reason = params["voucher_reason"]
    amount = MEAL_VOUCHER_AMOUNT[reason]
    conf = str(res.get("confirmation_number"))
    vouchers = db.setdefault("meal_vouchers", {})
    code = _unique_code(vouchers, f"MEAL-{conf}-{pid[:4]}")
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
