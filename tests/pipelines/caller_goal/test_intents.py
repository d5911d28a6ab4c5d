"""The caller's requests: details stated with each, done-tracking, options that are requests."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.intents import IntentTracker, intent_facts, words_close
from voxbench.pipelines.caller.goal.phrases import PHRASES
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.stall import LIMITS

_INFO = {
    "employee_id": "EMP071893",
    "application_name_1": "Confluence",
    "access_level_1": "standard",
    "application_name_2": "Datadog",
    "access_level_2": "read_only",
    "license_product_name_renewal": "IntelliJ IDEA",
}
_INTENTS = ["Get Confluence access", "Get Datadog access", "Renew my IntelliJ license"]


def test_intent_facts_by_value_key_words_and_siblings() -> None:
    book = goal_facts(_INFO)
    keys = [f.key for f in intent_facts(_INTENTS[1], book, [_INTENTS[0], _INTENTS[2]])]
    assert keys == ["application_name_2", "access_level_2"]
    renew = [f.key for f in intent_facts(_INTENTS[2], book, _INTENTS[:2])]
    assert renew == ["license_product_name_renewal"]


def test_tracker_needs_the_words_that_tell_a_request_apart() -> None:
    t = IntentTracker(
        ["Get a 30-day Adobe Creative Cloud license", "Renew my expiring IntelliJ IDEA license"]
    )
    t.note("Your Adobe Creative Cloud license is submitted; it will expire in thirty days.", completed=True)
    assert t.done == [True, False]


def test_next_request_is_stated_with_its_details() -> None:
    c = GoalCaller(make_scenario(_INFO, intents=_INTENTS, start="Hi, I need some access."))
    c.open()
    first = c.respond("Thanks, you're verified. What's the first thing you need help with?")
    # the level said with the thing it qualifies, a sentence's first word ('Standard access.')
    assert first.kind == "state_request" and "Confluence" in first.text and "standard" in first.text.lower()
    nxt = c.respond("Your Confluence access request has been submitted. What's your second request?")
    assert nxt.rule == "next_intent" and "Datadog" in nxt.text and "read only" in nxt.text.lower()
    assert "access_level_2" in nxt.facts


def test_options_that_are_the_callers_requests_follow_its_order() -> None:
    intents = ["Get a desk on floor 2", "Get a parking spot", "Get an ergonomic chair"]
    c = GoalCaller(make_scenario({"employee_id": "EMP071893"}, intents=intents))
    c.open()
    act = c.respond("Next, would you like to do the ergonomic chair or the parking?")
    assert act.kind == "choose" and act.rule == "option_is_next_request" and "parking" in act.choice


def test_a_third_party_fact_is_the_qualified_one() -> None:
    book = goal_facts({"date_of_birth": "1990-01-02", "dependent_date_of_birth": "2020-03-04"})
    assert classify("What is her date of birth?", book).asked == ["dependent_date_of_birth"]
    assert classify("What is your date of birth?", book).asked == ["date_of_birth"]


def test_a_fact_offered_as_a_choice_is_still_asked() -> None:
    book = goal_facts({"leave_category": "bonding", "leave_start_date": "2026-08-01"})
    h = classify(
        "I need the leave category. It can be your own condition, bonding, or military exigency.", book
    )
    assert "leave_category" in h.asked


def test_first_as_a_field_word_and_a_last_name_said_with_the_first() -> None:
    """A last name is said with the first ('Ava Murphy'), asked alone or with another field."""
    info = {"confirmation_number": "PP248Z", "first_name": "Ava", "last_name": "Murphy"}
    book = goal_facts(info)
    assert classify("Please spell the first name.", book).asked == ["first_name"]
    c = GoalCaller(make_scenario(info))
    c.open()
    act = c.respond("May I have your last name?")
    assert act.facts == ["last_name", "first_name"] and "Ava" in act.text
    c = GoalCaller(make_scenario(info))
    c.open()
    act = c.respond("May I have your confirmation number and your last name?")
    assert act.facts == ["confirmation_number", "last_name", "first_name"] and "Ava" in act.text


def test_a_sent_code_is_read_out() -> None:
    book = goal_facts({"employee_id": "EMP1", "otp_code": "581894"})
    assert classify("I've sent a security code by text. Is that the right number?", book).asked == [
        "otp_code"
    ]


def test_plural_dates_of_the_request_in_hand() -> None:
    info = {
        "leave_start_date": "2026-08-17",
        "leave_end_date": "2026-10-12",
        "pto_start_date": "2026-08-10",
        "pto_end_date": "2026-08-12",
        "preferred_date": "2026-10-13",
    }
    book = goal_facts(info)
    h = classify("What dates do you want off?", book, focus={"pto_start_date", "pto_end_date"})
    assert h.asked == ["pto_start_date", "pto_end_date"]


def test_an_agent_looping_on_a_given_fact_is_left_after_a_few_turns() -> None:
    """Asked in turn in two wordings, the caller answers four times; the fifth time with nothing
    moved on it gives up (``stall.LIMITS['answer'].times``); the same wording a third time with
    nothing new ends sooner (``.ask``: test_policy_live_repeats)."""
    c = GoalCaller(make_scenario({"last_name": "Murphy", "confirmation_number": "PP248Z"}))
    c.open()
    asks = ["What is your last name?", "Could you spell your last name for me?"]
    acts = [c.respond(asks[i % 2]) for i in range(5)]
    assert [a.kind for a in acts[:4]] == ["answer"] * 4
    assert acts[4].ends_call and not acts[4].facts and "goodbye" in acts[4].text.lower()


def test_a_code_is_said_with_what_it_stands_for() -> None:
    c = GoalCaller(make_scenario({"new_role_code": "MGENG", "new_role": "Engineering Manager"}))
    c.open()
    act = c.respond("What is the new role code for your approved role change?")
    assert act.facts == ["new_role_code", "new_role"] and "Engineering Manager" in act.text


def test_next_one_to_try_is_the_fallback_fact() -> None:
    book = goal_facts({"floor": "FL2", "backup_desk_floor": "FL3"})
    assert classify("What floor would you like me to try next?", book).asked == ["backup_desk_floor"]
    assert classify("What floor do you want?", book).asked == ["floor"]


def test_an_interleaved_loop_ends_after_the_stall_limit() -> None:
    """Live bb.1/bb.2 with the 1.5B agent: questions in turn, none bringing the caller any
    progress, held the call for minutes. The stall budget ends it however they alternate."""
    c = GoalCaller(make_scenario({"last_name": "Murphy", "confirmation_number": "PP248Z"}))
    c.open()
    first = c.respond("What is your last name?")
    assert first.kind == "answer" and first.facts == ["last_name"]
    # the last name asked in two wordings: the same wording a third time is ended sooner (stall.Repeats)
    loop = ["What is your last name?", "What's the flight number?", "Could you spell your last name for me?",
            "What's the flight number?"]  # fmt: skip
    acts = [c.respond(loop[i % 4]) for i in range(10)]
    ends = [a for a in acts if a.ends_call]
    assert ends and ends[0].rule == "stalled_call_end"
    assert acts.index(ends[0]) == c.config.stall_limit  # after stall_limit turns without progress
    assert not any(a.ends_call for a in acts[: c.config.stall_limit])


def test_holds_and_new_facts_are_not_stalls() -> None:
    c = GoalCaller(make_scenario({"last_name": "Murphy", "confirmation_number": "PP248Z"}))
    c.open()
    for _ in range(c.config.stall_limit + 2):
        assert not c.respond("One moment, please.").ends_call
    assert c.respond("What is your confirmation number?").facts == ["confirmation_number"]


def test_after_a_declined_transfer_one_unhelpful_turn_ends_the_call() -> None:
    """EVA's caller declines a forbidden transfer and then ends the call unless the agent finds
    another path (a new question the caller can answer is progress). One unhelpful turn is
    still answered: ending on the very next turn cut 4 more reference calls short (caller check
    premature endings 27 -> 31)."""
    c = GoalCaller(make_scenario({"last_name": "Murphy", "confirmation_number": "PP248Z"}))
    c.open()
    assert c.respond("Would you like me to transfer you to a live agent?").kind == "decline_transfer"
    assert c.respond("What is your confirmation number?").facts == ["confirmation_number"]  # another path
    assert c.respond("Would you like me to transfer you to a live agent?").kind == "decline_transfer"
    assert not c.respond("I'm sorry, I can't do that.").ends_call
    end = c.respond("I'm sorry, I can't do that.")
    assert end.ends_call and end.rule == "stalled_call_end"


def test_silence_gets_a_check_in_then_a_goodbye() -> None:
    c = GoalCaller(make_scenario({"last_name": "Murphy"}))
    c.open()
    first = c.silence()
    assert first.kind == "check_in" and not first.ends_call and first.text.endswith("?")
    assert c.respond("Yes, sorry, I'm here. What is your last name?").facts == ["last_name"]
    assert c.silence().kind == "check_in"  # the agent came back in between: ask again first
    end = c.silence()
    assert end.ends_call and end.rule == "silence_after_check_in_end"
    assert end.text in PHRASES["bye_silence"]  # its reason said, not "Okay, I understand." to nothing


def test_a_request_stated_again_and_again_ends_the_call() -> None:
    """Live bb.2: after a lookup the agent kept asking "Anything else?" without doing the second
    request; the caller stated it seven times. It states it ``LIMITS['state_request'].times - 1``
    times, whatever the words of the question (the very same agent turn again gets no second
    statement: ``test_policy_live_loops``)."""
    c = GoalCaller(
        make_scenario(
            {"last_name": "Murphy"},
            intents=["Move your flight to an earlier one.", "Add a checked bag."],
        )
    )
    c.open()
    c.tracker.done[0] = True  # the first request is done
    turns = [
        "I found your booking. Do you need anything else?",
        "Your booking is for May sixth in main cabin. Is there anything else I can help with?",
        "Thanks for waiting, I have the reservation open here. Anything else today?",
        "The flight leaves Denver at eight twenty. Can I help you with anything else?",
    ]
    acts = [c.respond(t) for t in turns]
    kinds = [a.kind for a in acts]
    limit = LIMITS["state_request"].times
    assert kinds[: limit - 1] == ["state_request"] * (limit - 1)
    assert all("checked bag" in a.text for a in acts[: limit - 1])
    end = acts[limit - 1]
    assert end.ends_call and not end.facts and "goodbye" in end.text.lower()


def test_tracker_reads_a_request_by_its_words_in_another_form() -> None:
    """'badge reactivation is complete' names 'Reactivate my badge', not the first request."""
    t = IntentTracker(["Cancel my parking permit", "Reactivate my badge"])
    t.note("Your badge reactivation is complete.", completed=True)
    assert t.done == [False, True]


def test_requests_told_apart_by_a_number_are_settled_one_at_a_time() -> None:
    """'a desk on floor 2' refused, 'a desk on floor 3' still open: the refusal names floor 2 only,
    and the desk assignment after it is the floor 3 one, not the next request (the monitor arm)."""
    t = IntentTracker(["Get a desk on floor 2", "Get a desk on floor 3", "Get a monitor arm"])
    t.note("There are no desks available on floor F L two at Headquarters.", completed=False)
    assert t.done == [True, False, False]
    t.note("Your desk assignment is complete: desk B L D three, F L three, D one zero one.", completed=True)
    assert t.done == [True, True, False] and t.pending() == [2]


def test_a_completion_after_the_first_choice_was_refused_is_the_backup() -> None:
    """'a desk on floor 2' refused, then 'Your desk assignment is complete': the backup desk request was
    done, not the next request (the chair)."""
    t = IntentTracker(["Get a desk on floor 2", "Get a desk on floor 3 instead", "Get an ergonomic chair"])
    t.note("There are no desks available on floor two.", completed=False)
    t.note("Your desk assignment is complete: desk D one zero one.", completed=True)
    assert t.done == [True, True, False] and t.pending() == [2]


def test_a_spelled_dash_or_an_earlier_turn_names_no_request() -> None:
    """'27-inch' is no 'dash' to meet 'R E Q, dash, H W'; what an earlier turn said does not complete a
    request now; 'I-9' is still a word of its own."""
    t = IntentTracker(["Get a replacement laptop", "Get a new 27-inch monitor", "Submit I-9 documents"])
    t.note("Your replacement laptop request is submitted: R E Q, dash, H W, sixteen inch.", completed=True)
    assert t.done == [True, False, False]
    t.note("I also see a monitor on file for you.", completed=False)
    t.note("Your I-9 documents were received and the case is submitted.", completed=True)
    assert t.done == [True, False, True]
    assert IntentTracker(["Get a laptop", "Submit I-9 documents"]).rank("the I-9") == 1


@pytest.mark.parametrize(
    ("a", "b", "close"),
    [
        ("renew", "renewal", True),
        ("license", "licens", True),
        ("appoint", "appointment", True),
        ("orient", "orientation", True),
        ("attendees", "attend", True),
        ("seat", "Seattle", False),  # a name that starts with a field word is not its form
        ("dept", "departure", False),
    ],
)
def test_words_close_only_by_an_ending(a: str, b: str, close: bool) -> None:
    assert words_close(a, b) is close
