"""The bench's reading of offered options, clock times, negated options and bare counts (classes,
each read alike for the reference caller and the caller under test)."""

from __future__ import annotations

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.options import chosen_option, clock_times, offered_options

LOCKOUT = ("First, I need to ask: is your account locked out because of too many failed sign-in attempts, "
           "or has your password expired and you can't reset it?")  # fmt: skip


def test_a_negated_option_is_not_chosen() -> None:
    opts = offered_options(LOCKOUT)
    assert len(opts) == 2
    assert chosen_option("It's locked out, not an expired password.", opts, LOCKOUT) == 0
    assert chosen_option("My password expired rather than a lockout of my account.", opts, LOCKOUT) == 1
    assert (
        chosen_option("My account is locked out because of too many failed sign-in attempts.", opts, LOCKOUT)
        == 0
    )
    floor = "Do you have a floor preference, or should I search all floors?"
    assert chosen_option("I don't have a floor preference.", offered_options(floor), floor) is None
    assert chosen_option("No floor preference.", offered_options(floor), floor) is None


def test_a_negative_option_is_named_by_a_negated_verb() -> None:
    q = "For the Wi-Fi issue, are you unable to connect at all, or does it connect and then fail to load anything?"
    assert chosen_option("I can't connect to the corporate Wi-Fi at all.", offered_options(q), q) == 0


def test_a_reply_naming_two_options_names_none() -> None:
    opts = offered_options(LOCKOUT)
    assert chosen_option("It is locked out and the password expired.", opts, LOCKOUT) is None


def test_the_turns_topic_and_inflections() -> None:
    q = ("For the VPN issue, I need to walk through the steps. One quick question first: is the VPN refusing "
         "to connect, or does it connect and then drop repeatedly?")  # fmt: skip
    opts = offered_options(q)
    assert chosen_option("It connects and then drops repeatedly.", opts, q) == 1
    assert (
        chosen_option("The VPN keeps disconnecting every 30 minutes.", opts, q) is None
    )  # 'VPN' is the topic


def test_what_is_no_list_of_options() -> None:
    assert offered_options("What date or time would you like to change it to?") == []
    assert offered_options("For parking, what zone or garage do you prefer?") == []
    assert offered_options("What date would you prefer, on or after August 10th, 2026?") == []
    spell = "Could you please say or spell the last name on the reservation?"
    assert (
        chosen_option("Morrison. Now please pull it up and change it.", offered_options(spell), spell) is None
    )


def test_lead_ins_descriptions_and_joined_questions() -> None:
    assert (
        offered_options("Also, are other websites or apps working for you right now?")[0]
        == "are other websites"
    )
    q = ("Do you want staged removal, which preserves email and calendar for thirty days after the last working "
         "day, or full removal, which removes everything immediately?")  # fmt: skip
    assert offered_options(q) == ["staged removal", "full removal"]
    q2 = "Next, for the monitor, do you want a new setup or a replacement, and what size: twenty-four, twenty-seven, or thirty-two inch?"
    assert chosen_option("New setup, twenty-four inch.", offered_options(q2), q2) == 0
    q3 = "What dates would you like off? And will you be using general P T O or sick leave?"
    assert chosen_option("P T O.", offered_options(q3), q3) == 0
    assert chosen_option("Sick leave, please.", offered_options(q3), q3) == 1


def test_numbers_and_a_shared_unit() -> None:
    q = "For the license extension, what duration do you want: thirty, sixty, or ninety days?"
    opts = offered_options(q)
    assert [
        chosen_option(r, opts, q) for r in ("Sixty days.", "The extension is 60 days.", "90 days", "Thirty.")
    ] == [1, 1, 2, 0]
    os_q = "Do you need Mac or Windows?"
    assert chosen_option("My preferred O S is macos.", offered_options(os_q), os_q) == 0


def test_clock_times_as_said() -> None:
    said = {
        "Ten A M, please.": ["10:00am"],
        "twelve oh five PM": ["12:05pm"],
        "The 12:05 PM one.": ["12:05pm"],
        "August 26th, 2026: nine AM, ten AM, and one PM": ["9:00am", "10:00am", "1:00pm"],
        "at ten o'clock a.m.": ["10:00am"],
        "seven twenty-five AM": ["7:25am"],
    }
    for text, times in said.items():
        assert [c.time for c in clock_times(text)] == times, text


def test_times_offered_only_by_a_turn_that_asks_and_not_as_a_span() -> None:
    q = "I have three openings on September twenty ninth: ten AM, eleven AM, and one PM. Which time would you like?"
    opts = offered_options(q)
    assert opts == ["time:10:00am", "time:11:00am", "time:1:00pm"]
    assert chosen_option("Ten A M, please.", opts) == 0 and chosen_option("One PM.", opts) == 2
    assert offered_options("It departs at eight fifteen AM and arrives at nine twenty-five AM.") == []
    assert (
        offered_options("Your shift runs from three PM to eleven PM. Which one would you like to swap?") == []
    )


def test_a_bare_count_is_said_only_as_a_count_of_its_field() -> None:
    facts = goal_facts({"attendee_count": 4, "duration_days": 90, "manager_auth_code": "K4M2P9"})
    assert facts_said("I have four requests: a room booking and access.", facts) == []
    assert facts_said("The last four digits are three six one four.", facts) == []
    assert facts_said("K four M two P nine.", facts) == ["manager_auth_code"]
    assert facts_said("For four attendees.", facts) == ["attendee_count"]
    assert facts_said("Four.", facts, unless_in="How many attendees will there be?") == ["attendee_count"]
    assert facts_said("A ninety day trial.", facts) == ["duration_days"]
