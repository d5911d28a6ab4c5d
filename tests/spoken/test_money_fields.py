"""Which field names hold amounts of money (:func:`voxbench.spoken.data.is_money_field`): the
name's head, a whole word, is a money word; a money word before another noun names that thing."""

from __future__ import annotations

import pytest

from voxbench.eval.offline._values import READER
from voxbench.spoken.data import is_money_field, money_keys, name_parts


@pytest.mark.parametrize(
    "name",
    ["fare_paid", "total_cost", "change_fee", "amount_usd", "price", "fares", "bag_fees", "refundAmount",
     "seatFeeAmountUSD", "refund_amount_eligible", "price_per_night", "monthly_premium", "Total Cost"],
)  # fmt: skip
def test_money_fields(name: str) -> None:
    assert is_money_field(name)


@pytest.mark.parametrize(
    "name",
    ["premium_economy", "premium_seats", "feedback", "fare_class", "refund_id", "voucher_code",
     "total_calls", "total_duration_minutes", "payroll_shift_date", "payment_method", "prepaid",
     "usd", "", "seat_count"],
)  # fmt: skip
def test_non_money_fields(name: str) -> None:
    assert not is_money_field(name)


def test_name_parts_split_snake_and_camel_case() -> None:
    assert name_parts("seatFeeAmountUSD") == ["seat", "fee", "amount", "usd"]
    assert name_parts("premium_economy") == ["premium", "economy"]


def test_a_seat_count_is_no_amount_and_a_fare_under_fares_is_one() -> None:
    flight = {
        "available_seats": {"main_cabin": 7, "premium_economy": 2},
        "fares": {"main_cabin": 320.0, "premium_economy": 690.0},
        "feedback": 4,
    }
    assert money_keys(flight, READER) == {"m:320", "m:690"}
