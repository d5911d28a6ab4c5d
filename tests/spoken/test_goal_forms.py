"""Heard words meet fact values in every form a call uses; codes are spelled for TTS."""

from __future__ import annotations

import pytest

from voxbench.spoken import dates, mentions, money, runs, say_value, times


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My employee ID is E M P zero six seven five two one.", "EMP067521"),
        ("ZK3FFW. Last name Lima.", "ZK3FFW"),
        ("E M P zero four eight. Two seven one.", "EMP048271"),  # a long code over two runs
        ("P O L, two zero two five, R J R N Y two", "POL-2025-RJRNY2"),
        ("The effective date is two zero two six dash zero eight dash one zero.", "2026-08-10"),
        ("October fifteenth, twenty twenty-six", "2026-10-15"),
        ("from two PM to three thirty PM", "15:30"),
        ("I need Windows and a fourteen inch.", "14_inch"),
        ("two million dollars", "2000000"),
        ("keep it under $120", "$120"),
        ("Deliver it to Headquarters, floor three.", "FL3"),  # a code said as the word it abbreviates
        ("desk B L D three, F L two, D two zero one", "floor 2"),  # and the other way round
        ("arriving L A X at seven fifteen PM", "LAX"),  # a three-letter code spelled
        ("currently from Austin to Los Angeles on March twentieth", "AUS to LAX"),  # airports by city
        ("You have Chicago O’Hare to Miami on June fifth.", "ORD→MIA"),
        ("I'd like to use general paid time off.", "pto"),  # an acronym said in full
        ("Use p t o.", "pto"),  # or spelled
    ],
)
def test_mentions_finds_spoken_forms(text: str, value: str) -> None:
    assert mentions(text, value)


def test_mentions_rejects_other_values_and_common_words() -> None:
    assert not mentions("My employee ID is E M P zero six seven five two two.", "EMP067521")
    assert not mentions("let us check", "us")  # too common to count as said
    assert not mentions("October sixteenth", "2026-10-15")
    assert not mentions("floor two", "FL3") and not mentions("F L two", "floor 3")
    assert not mentions("room R M three zero one", "floor 3")  # 'rm' abbreviates no 'floor'
    assert not mentions("I need to relax", "LAX")
    assert not mentions("I can use it", "ICU") and not mentions("sick leave", "pto")
    assert not mentions("from Austin to Dallas", "AUS to LAX")  # every airport of the value
    assert not mentions("Chicago Midway to Miami", "ORD to MIA")  # a city of several airports


def test_runs_join_spelled_codes_and_stop_at_words() -> None:
    assert runs("My employee ID is E M P zero four eight. The last four is seven two nine four.") == [
        "my", "employee", "id", "is", "emp048", "the", "last", "4", "is", "7294",
    ]  # fmt: skip


def test_times_dates_money() -> None:
    assert times("departing at one PM and arriving at two twenty-five PM") == [(13, 0), (14, 25)]
    # as whisper writes them (live bb.3: "on May 20th at 7.30pm")
    assert times("on May 20th at 7.30pm") == [(19, 30)]
    assert times("the 9.15 AM or the 7pm flight") == [(9, 15), (19, 0)]
    assert times("$7.30 per month, 2.5 hours") == []
    assert dates("on March twenty-fifth") and dates("on March twenty-fifth")[0].day == 25
    assert money("seventy-five dollar fee plus forty dollars, a total of $115") == [115.0, 75.0, 40.0]


def test_say_value_spells_codes_for_tts() -> None:
    assert say_value("ZK3FFW") == "Z K three F F W"
    assert say_value("POL-2025-RJRNY2") == "P O L, two zero two five, R J R N Y two"
    assert say_value("617-555-4829") == "six one seven, five five five, four eight two nine"
    assert say_value("2026-03-25") == "March 25, 2026"
    assert say_value("14:00") == "2 PM"
    assert say_value("end_of_life") == "end of life"
    assert say_value("32_inch") == "32 inch"


def test_an_address_said_whole_or_half_is_written_one_way() -> None:
    from voxbench.spoken.say import EMAIL, written_email

    for said in ("t dot wexler at mailbox dot org", "t dot wexler at mailbox.org", "T.Wexler@mailbox.org"):
        m = EMAIL.search(f"Your email is {said}, right?")
        assert m is not None and written_email(m.group(0)) == "t.wexler@mailbox.org"
    m = EMAIL.search("it's ana underscore lima at post dot net")
    assert m is not None and written_email(m.group(0)) == "ana_lima@post.net"
    assert EMAIL.search("meet me at the front desk at noon") is None
