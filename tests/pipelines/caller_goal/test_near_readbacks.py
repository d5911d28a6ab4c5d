"""A read-back known by its value's kind (:mod:`voxbench.pipelines.caller.goal.nearread`): a value
the caller holds, said one character, digit, day or hour off in a turn that asks it to confirm,
is corrected whatever the wording; its own value gets a yes; values that read nothing back of the
caller's are left alone (issue 29)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.acts import CallerAct

from .conftest import make_scenario, opened

INFO = {
    "member_id": "HR58241",
    "last_name": "Wexler",
    "date_of_birth": "1984-03-12",
    "email": "t.wexler@mailbox.org",
    "appointment_time": "10:30",
    "claim_amount": "$342.50",
    "leave_end_date": "2026-09-25",
}
OTHER = {
    "booking_code": "QX7TLM",
    "last_name": "Lima",
    "email": "ana_lima@post.net",
    "preferred_time": "10:30",
}


def _reply(turn: str, info: dict[str, object] | None = None) -> CallerAct:
    return opened(make_scenario(info or INFO)).respond(turn)


@pytest.mark.parametrize(
    ("turn", "key", "said"),
    [
        ("Just confirming member ID HR58247?", "member_id", "five eight two four one"),
        ("Confirming: Wexler, member ID HR58247?", "member_id", "five eight two four one"),
        ("t.wexler@mailbox.com is your email, correct?", "email", "mailbox dot org"),
        ("Your e-mail is t dot wexler at mailbox.com, right?", "email", "mailbox dot org"),
        ("Just to confirm, March 13, 1984?", "date_of_birth", "March 12, 1984"),
        ("You said 11:30 AM, correct?", "appointment_time", "10:30"),
        ("So the claim is for $347.50 under member ID HR58241, correct?", "claim_amount", "342.50"),
        ("okay so your last name is W E X N E R, right", "last_name", "Wexler"),
        ("so thats W E X N E R right", "last_name", "Wexler"),
    ],
)
def test_a_value_one_off_is_corrected_in_any_wording(turn: str, key: str, said: str) -> None:
    act = _reply(turn)
    assert act.kind == "correct" and key in act.facts
    assert said in act.text


@pytest.mark.parametrize(
    "turn",
    [
        "Just confirming member ID HR58241?",
        "t.wexler@mailbox.org is your email, correct?",
        "Just to confirm, March 12, 1984?",
        "You said 10:30 AM, correct?",
        "So the claim is for $342.50 under member ID HR58241, correct?",
    ],
)
def test_its_own_values_get_a_yes(turn: str) -> None:
    act = _reply(turn)
    assert act.kind != "correct" and act.text.lower().startswith("yes")


def test_an_underscored_address_read_back_half_spoken_is_corrected() -> None:
    act = _reply("Let me confirm the address: ana_lima at post dot com?", OTHER)
    assert act.kind == "correct" and act.facts == ["email"]


@pytest.mark.parametrize(
    "turn",
    [
        # a date beside the caller's, of another thing: the check-in the day after its leave ends
        "Just to confirm, I'm scheduling your return-to-work check-in for September 26, 2026. Is that correct?",
        "Yes, that is correct. Your new confirmation number is HR58277.",
        "I'll send a one-time code to the phone number on file. One moment.",
        "There is a $25 processing fee. Would you like to proceed?",
    ],
)
def test_values_that_read_nothing_of_the_callers_back_are_not_corrected(turn: str) -> None:
    assert _reply(turn).kind != "correct"


def test_a_time_it_wants_offered_near_is_an_offer_not_a_misreading() -> None:
    assert _reply("So that's 11:30 AM for your appointment?", OTHER).kind != "correct"


def test_a_hyphened_name_spelled_letter_by_letter_is_its_own() -> None:
    info = {"first_name": "Mei-Ling", "last_name": "Chen", "license_expiration_date": "2027-07-14"}
    act = _reply(
        "To confirm before I submit, I have M E I L I N G and expiration date July 14, 2027. Is that correct?",
        info,
    )
    assert act.kind != "correct" and act.text.startswith("Yes")


@pytest.mark.parametrize(
    ("turn", "info"),
    [
        # capitalised words one letter off the caller's name: a sentence's first word, no name field
        ("Waxler Plumbing did the repair work, correct?", INFO),
        ("Lina from the front desk will call you back, correct?", OTHER),
        # a name one letter off said of another person: a title, a person word, another field
        ("Mr. Wexner in our billing team reviewed the claim, correct?", INFO),
        ("Your supervisor Dr. Wexner signed the form, right?", INFO),
        ("The Limo service picks you up at the airport, correct?", OTHER),
    ],
)
def test_another_persons_or_things_name_near_the_callers_is_not_corrected(
    turn: str, info: dict[str, object]
) -> None:
    assert _reply(turn, info).kind != "correct"


@pytest.mark.parametrize(
    "turn",
    [
        "The name on the claim is Wexner, is that right?",
        "Just to confirm, Wexner?",
    ],
)
def test_a_name_one_letter_off_is_corrected_where_the_name_is_what_is_read(turn: str) -> None:
    act = _reply(turn)
    assert act.kind == "correct" and act.facts == ["last_name"]


@pytest.mark.parametrize(
    ("turn", "info"),
    [
        ("We'll copy the receipt to billing@post.net, is that right?", OTHER),  # the caller's domain
        ("Your husband's email is j.wexler@mailbox.org, correct?", INFO),  # another person's
    ],
)
def test_another_address_is_not_a_misheard_one(turn: str, info: dict[str, object]) -> None:
    assert _reply(turn, info).kind != "correct"


def test_a_bare_right_closing_a_statement_reads_nothing_back() -> None:
    info = {**OTHER, "travel_date": "2026-07-04"}
    assert _reply("Take the Lina Street exit and the office is on your right.", info).kind != "correct"
    assert _reply("Your travel date is July 5, right?", info).kind == "correct"
