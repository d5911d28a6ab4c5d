"""Dollar amounts rewritten for a TTS in the order a person says them (``spoken.money.said_amounts``)."""

from __future__ import annotations

import pytest

from voxbench.spoken.money import money, said_amounts


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("It would be $15.", "It would be 15 dollars."),
        ("It costs $79.99.", "It costs 79 dollars and 99 cents."),
        ("It is $1.", "It is 1 dollar."),
        ("Only $0.50 left.", "Only 50 cents left."),
        ("A $1,250 deposit.", "A 1,250 dollar deposit."),
        ("I want a $15 meal voucher.", "I want a 15 dollar meal voucher."),
        ("Pay $15, then $20.", "Pay 15 dollars, then 20 dollars."),
        ("About $2.5 million.", "About 2.5 million dollars."),
        ("$15.00 exactly", "15 dollars exactly"),
    ],
)
def test_amounts_are_said_number_first(written: str, said: str) -> None:
    assert said_amounts(written) == said


@pytest.mark.parametrize("text", ["No amount here.", "Flight 15 at 3:30 PM.", "Code $X1."])
def test_text_without_an_amount_is_unchanged(text: str) -> None:
    assert said_amounts(text) == text


@pytest.mark.parametrize("value", ["$15", "$79.99", "$1,250", "$0.50", "$120"])
def test_the_amount_survives_the_rewrite(value: str) -> None:
    assert money(said_amounts(f"It would be {value}.")) == money(f"It would be {value}.")
