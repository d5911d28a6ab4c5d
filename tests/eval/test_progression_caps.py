"""Progression's cap read outright from the record (`_progression_caps`): a write done twice
(rating 1); and the ordinary conversations that are none (rating 3: a write retried after it
failed, the same write for a second request, a repeat the caller asked for, two identical
ancillary writes for two items).

Every conversation is built here, none taken from a label set.
"""

from __future__ import annotations

from tests.eval.test_progression_flags import A_OPEN, I_OPEN, OK, Step, ctx_of, rated
from voxbench.eval.offline import progression
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline._progression_caps import repeated_writes
from voxbench.eval.offline._progression_record import read_record

REBOOK = {"confirmation_number": "ZK3FFW", "segment_id": "SEG001", "new_flight_id": "FL_SW300_20260623"}
REBOOKED = {"status": "success", "new_segment_id": "SEG_SW300", "new_flight": {"flight_number": "SW300"}}
FAILED = {"status": "error", "error_type": "invalid_parameter", "message": "segment not found"}


def kinds_found(steps: list[Step]) -> dict[str, int]:
    c = progression.counts(progression.findings(ctx_of(steps)))
    return {"repeated_writes": int(c["repeated_writes"])}


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
    trace = ctx_of(steps).conversation_trace
    assert repeated_writes(trace, read_record(trace, [])) == []


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


SEND = {"employee_id": "EMP4821", "email": "jo@example.com", "booking_ref": "RM201-0519"}
SENT = {"status": "success", "message": "confirmation email sent"}
BAG = {"confirmation_number": "ZK3FFW", "passenger_id": "PAX1", "weight_kg": 23}
BAGGED = {"status": "success", "fee": 35}


def test_a_resend_the_caller_asked_for_is_no_repeat() -> None:
    """The reviewer's case: the caller says the email never came and asks for it once more."""
    steps = [
        *I_OPEN,
        ("call", ("send_confirmation_email", SEND, SENT)),
        ("assistant", "I've sent the confirmation to your email."),
        ("user", "I didn't get it, can you send it once more?"),
        ("call", ("send_confirmation_email", SEND, SENT)),
        ("assistant", "Sent again. It should arrive in a minute."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 0
    assert rated(steps) >= 2  # no cap at 1; the weighed identical-call count is version 6's


def test_the_same_resend_unasked_is_a_repeat() -> None:
    """Control for the exemption: the caller's line between the calls asks for nothing again."""
    steps = [
        *I_OPEN,
        ("call", ("send_confirmation_email", SEND, SENT)),
        ("assistant", "I've sent the confirmation to your email."),
        ("user", "Thanks, that's all."),
        ("call", ("send_confirmation_email", SEND, SENT)),
        ("assistant", "Sent. Goodbye."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 1
    assert rated(steps) == 1


def test_two_identical_bags_for_two_bags_is_no_repeat() -> None:
    """The reviewer's case: an ancillary write's repeat is a quantity (two checked bags)."""
    steps = [
        *A_OPEN,
        ("user", "I'd like to add two checked bags, please."),
        ("call", ("add_checked_bag", BAG, BAGGED)),
        ("call", ("add_checked_bag", BAG, BAGGED)),
        ("assistant", "Both bags are added, thirty-five dollars each."),
    ]
    assert kinds_found(steps)["repeated_writes"] == 0
    assert rated(steps) >= 2  # no cap at 1; the weighed identical-call count is version 6's


def test_ordinary_calls_have_none_of_the_caps() -> None:
    """The shared hand-made openings (a lookup, a verification, a status read) find nothing here."""
    for steps in (A_OPEN, I_OPEN):
        assert kinds_found(steps) == {"repeated_writes": 0}


def test_a_cap_only_lowers() -> None:
    """One more capping finding never raises the rating, whatever the weighed counts."""
    model = shipped_model(progression.NAME)
    zero = {k: 0.0 for k in progression.KINDS}
    for kind in ("repeated_writes", "reasked_facts"):
        for base in ({}, {"repeated_tools": 2.0}, {"identical_calls": 3.0, "placeholder_calls": 2.0}):
            for n in (0.0, 1.0):
                before = progression.rating(model, {**zero, **base, kind: n})[0]
                assert progression.rating(model, {**zero, **base, kind: n + 1})[0] <= before
