"""Progression's rubric flags (`_progression_flags`): a failed call made up before the caller
was asked, and a fact asked again after a call used it, each capping the rating at 2; and the
lines that are no such flag."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.judged import conversation_progression
from voxbench.eval.offline import progression
from voxbench.eval.offline._progression_flags import asks_own_field
from voxbench.eval.types import EvalConfig

OFF = EvalConfig(judge_mode="offline")
OK = {"status": "success", "reservation": {"confirmation_number": "KX42PZ", "last_name": "Hill"}}
MISSING = {"status": "error", "error_type": "not_found", "message": "No reservation found"}
GOOD_CALL = ("get_reservation", {"confirmation_number": "KX42PZ", "last_name": "Hill"}, OK)
Step = tuple[str, Any]


def ctx_of(steps: list[Step]) -> ConversationContext:
    """A context from ("user" | "assistant", text) lines and ("call", (tool, params, response))
    steps; a caller line opens a turn."""
    trace: list[dict[str, Any]] = []
    turn = 0
    for kind, what in steps:
        if kind == "call":
            name, params, resp = what
            trace.append({"type": "tool_call", "tool_name": name, "parameters": params, "turn_id": turn})
            trace.append({"type": "tool_response", "tool_name": name, "tool_response": resp, "turn_id": turn})
            continue
        turn += kind == "user"
        trace.append({"role": kind, "content": what, "type": "intended", "turn_id": turn})
    return ConversationContext(record_id="hand", conversation_trace=trace)


def kinds(steps: list[Step]) -> list[str]:
    return [f["feature"] for f in progression.findings(ctx_of(steps)) if f["feature"] in progression.CAPPING]


OPENING: list[Step] = [
    ("assistant", "Hi, how can I help you today?"),
    ("user", "I'd like to move my flight to the afternoon."),
]
VERIFIED: list[Step] = [
    *OPENING,
    ("assistant", "Sure. What's your confirmation number and last name?"),
    ("user", "It's K X four two P Z, last name Hill."),
    ("call", GOOD_CALL),
    ("assistant", "Thanks, I found your booking."),
]
CLOSE: list[Step] = [
    ("user", "Great, thanks."),
    ("assistant", "You're all set. Goodbye."),
]


def test_a_made_up_lookup_before_asking_caps_the_rating_at_2() -> None:
    made_up = (
        "call",
        ("get_reservation", {"confirmation_number": "QQ77ZZ", "last_name": "Assumed"}, MISSING),
    )
    steps = [*OPENING, made_up, *VERIFIED[2:], *CLOSE]
    assert kinds(steps) == ["premature_calls"]
    assert conversation_progression(ctx_of([*VERIFIED, *CLOSE]), OFF).score == 3
    r = conversation_progression(ctx_of(steps), OFF)
    assert r.score == 2 and "unnecessary_tool_calls" in r.details["flagged"]


def test_a_failed_call_on_the_callers_own_words_or_after_asking_is_no_premature_call() -> None:
    heard = ("call", ("get_reservation", {"confirmation_number": "KX42PZ", "last_name": "Hill"}, MISSING))
    said = [OPENING[0], ("user", "My code is K X four two P Z, last name Hill."), heard]
    assert kinds([*said, ("assistant", "I couldn't find that one."), *CLOSE]) == []
    later = ("call", ("get_reservation", {"confirmation_number": "KX42BZ", "last_name": "Hill"}, MISSING))
    assert kinds([*VERIFIED[:4], later, *VERIFIED[4:], *CLOSE]) == []


def test_a_fact_asked_again_after_a_call_used_it_caps_the_rating_at_2() -> None:
    steps = [*VERIFIED, ("assistant", "Sorry, could you give me your confirmation number again?"), *CLOSE]
    assert kinds(steps) == ["reasked_facts"]
    r = conversation_progression(ctx_of(steps), OFF)
    assert r.score == 2 and "information_loss" in r.details["flagged"]


def test_other_owners_read_backs_and_cut_off_lines_are_no_reasked_fact() -> None:
    for line in (
        "And what is your colleague's confirmation number?",
        "Is your confirmation number K X four two P Z?",
        "What time would you like to leave?",
    ):
        assert kinds([*VERIFIED, ("assistant", line), *CLOSE]) == [], line
    cut = [*VERIFIED, ("user", "And my last name is..."), ("assistant", "Sorry, what was your last name?")]
    assert kinds([*cut, *CLOSE]) == []


def test_a_field_is_asked_as_the_callers_own() -> None:
    assert asks_own_field("What's your six-character confirmation number?", "confirmation_number")
    assert asks_own_field("Could you repeat your employee I D?", "employee_id")
    assert asks_own_field("What is your employee number?", "employee_id")
    assert not asks_own_field("What's the last name on the booking?", "last_name")
    assert not asks_own_field("What is your manager's employee ID?", "employee_id")
    assert not asks_own_field("What is your ID?", "employee_id")
