"""An e-mail address read back with one part off is another address: corrected, never confirmed
(review of branch correct: '.com' read back for the caller's '.org' got "Yes, that's right.")."""

from __future__ import annotations

import pytest

from .conftest import make_scenario, opened

INFO = {"last_name": "Wexler", "first_name": "Tobias", "email": "t.wexler@mailbox.org"}


def _after_asked(turn: str):  # type: ignore[no-untyped-def]
    c = opened(make_scenario(INFO))
    c.respond("What's your email address?")
    return c.respond(turn)


@pytest.mark.parametrize(
    "turn",
    [
        "Your email is t.wexler@mailbox.com, right?",
        "Your email is t dot wexler at mailbox dot com, right?",
        "I have your email as tobias at gmail dot com. Is that right?",
        "So your email address is t.wexler@mail.org, correct?",
    ],
)
def test_another_address_read_back_is_corrected_with_its_own(turn: str) -> None:
    act = _after_asked(turn)
    assert act.kind == "correct" and act.facts == ["email"]
    assert "mailbox dot org" in act.text and "last name" not in act.text.lower()


@pytest.mark.parametrize(
    "turn",
    [
        "Your email is t.wexler@mailbox.org, right?",
        "So your email address is t dot wexler at mailbox dot org. Correct?",
    ],
)
def test_its_own_address_read_back_is_confirmed(turn: str) -> None:
    act = _after_asked(turn)
    assert act.kind == "confirm" and act.text.startswith("Yes")


def test_an_address_never_said_is_no_read_back() -> None:
    act = _after_asked("I'll send the receipt to the email at the address on file, is that okay?")
    assert act.kind != "correct"
