"""Progression's caps read outright from the record (`_progression_caps`): a write done twice
(rating 1), an announced restatement and a caller saying it already answered (rating 2 each);
and the ordinary conversations that are none of them (rating 3: a write retried after it
failed, the same write for a second request, a read-back, a repeat the caller asked for, a
caller volunteering a value it gave before without being asked).

Every conversation is built here, none taken from a label set.
"""

from __future__ import annotations

from tests.eval.test_progression_flags import A_OPEN, I_OPEN, OK, Step, ctx_of, rated
from voxbench.eval.offline import progression
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline._progression_caps import already_said, repeated_writes, restatements

REBOOK = {"confirmation_number": "ZK3FFW", "segment_id": "SEG001", "new_flight_id": "FL_SW300_20260623"}
REBOOKED = {"status": "success", "new_segment_id": "SEG_SW300", "new_flight": {"flight_number": "SW300"}}
FAILED = {"status": "error", "error_type": "invalid_parameter", "message": "segment not found"}


def kinds_found(steps: list[Step]) -> dict[str, int]:
    c = progression.counts(progression.findings(ctx_of(steps)))
    return {k: int(c[k]) for k in ("repeated_writes", "restatements", "caller_already_said")}


def test_a_write_done_twice_rates_1() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "Shall I move you to the one PM flight?"),
        ("user", "Yes, please."),
        ("call", ("rebook_flight", REBOOK, REBOOKED)),
        ("call", ("rebook_flight", REBOOK, REBOOKED)),
        ("assistant", "Done, you are on flight three hundred at one PM."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 1
    assert rated(steps) == 1


def test_a_write_retried_after_it_failed_is_no_repeat() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "Shall I move you to the one PM flight?"),
        ("user", "Yes, please."),
        ("call", ("rebook_flight", REBOOK, FAILED)),
        ("call", ("rebook_flight", REBOOK, REBOOKED)),
        ("assistant", "Done, you are on flight three hundred at one PM."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 0
    assert repeated_writes(ctx_of(steps).conversation_trace, {}) == []


def test_the_same_write_for_another_request_is_no_repeat() -> None:
    """Two bookings of one call: the same tool, other parameters."""
    steps = [
        *I_OPEN,
        ("user", "I also need a room for Tuesday and one for Wednesday."),
        ("call", ("submit_room_booking", {"room_code": "BLD2-FL2-RM201", "date": "2026-05-19"}, OK)),
        ("call", ("submit_room_booking", {"room_code": "BLD2-FL2-RM201", "date": "2026-05-20"}, OK)),
        ("assistant", "Both rooms are booked."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 0
    assert rated(steps) == 3


def test_an_announced_restatement_rates_2() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "The change fee is seventy-five dollars and the fare difference is sixty dollars."),
        ("user", "Okay. I'll call back later, thanks."),
        (
            "assistant",
            "Understood. Just to repeat what we discussed: the change would be one hundred thirty-five "
            "dollars in total. No changes have been made.",
        ),
    ]
    assert kinds_found(steps)["restatements"] == 1
    assert rated(steps) == 2


def test_a_repeat_the_caller_asked_for_is_no_restatement() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "The change fee is seventy-five dollars and the fare difference is sixty dollars."),
        ("user", "Sorry, could you say that again?"),
        (
            "assistant",
            "Of course. As I mentioned, the change fee is seventy-five dollars, plus sixty dollars.",
        ),
    ]
    assert kinds_found(steps)["restatements"] == 0
    assert rated(steps) == 3


def test_a_read_back_is_no_restatement() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "Let me repeat that back: Z K three F F W, last name Rodriguez. Is that right?"),
        ("user", "Yes."),
    ]
    assert restatements(ctx_of(steps).conversation_trace) == []
    assert rated(steps) == 3


def test_the_caller_saying_it_already_answered_rates_2() -> None:
    steps = [
        *A_OPEN,
        ("assistant", "Could you remind me what you wanted to do with this booking?"),
        ("user", "I just told you. I want to check on it."),
        ("assistant", "Thanks. Your flight is on time."),
    ]
    assert kinds_found(steps)["caller_already_said"] == 1
    assert rated(steps) == 2


def test_a_caller_saying_it_before_any_ask_is_no_loss() -> None:
    """The caller recalls its own words unprompted: the agent asked nothing."""
    steps = [
        *A_OPEN,
        ("user", "Like I already said at the start, I'm flying on Friday."),
        ("assistant", "Thanks. Your flight on Friday is on time."),
    ]
    assert already_said(ctx_of(steps).conversation_trace) == []
    assert rated(steps) == 3


def test_ordinary_calls_have_none_of_the_caps() -> None:
    """The shared hand-made openings (a lookup, a verification, a status read) find nothing here."""
    for steps in (A_OPEN, I_OPEN):
        assert kinds_found(steps) == {"repeated_writes": 0, "restatements": 0, "caller_already_said": 0}


def test_a_cap_only_lowers() -> None:
    """One more capping finding never raises the rating, whatever the weighed counts."""
    model = shipped_model(progression.NAME)
    zero = {k: 0.0 for k in progression.KINDS}
    for kind in ("repeated_writes", "restatements", "caller_already_said"):
        for base in ({}, {"repeated_tools": 2.0}, {"identical_calls": 3.0, "placeholder_calls": 2.0}):
            for n in (0.0, 1.0):
                before = progression.rating(model, {**zero, **base, kind: n})[0]
                assert progression.rating(model, {**zero, **base, kind: n + 1})[0] <= before
