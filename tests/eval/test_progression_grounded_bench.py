"""The grounded tool-call counts of benchmarks/progression_grounded.py (measured, not shipped):
EVA's progression prompt flags an identical call after a success and a call made without the
information it needs, not a retry of a failed call."""

from __future__ import annotations

from typing import Any

from tests.bench.bench_scripts import load
from tests.eval.test_offline_judges import ctx_of

LINES = [("assistant", "Hi, how can I help?"), ("user", "Check booking QX7K2M, last name Lee."),
         ("assistant", "I found your booking."), ("user", "Is it on time?"),
         ("assistant", "Yes, it is on time."), ("user", "Thanks, bye.")]  # fmt: skip
CALL: tuple[str, dict[str, object]] = (
    "get_reservation",
    {"confirmation_number": "QX7K2M", "last_name": "Lee"},
)


def _failing_first(ctx: Any) -> Any:
    """The context with the first tool response made a not-found error."""
    first = next(e for e in ctx.conversation_trace if e.get("type") == "tool_response")
    first["tool_response"] = {"status": "error", "error_type": "not_found"}
    return ctx


def test_an_identical_call_counts_only_after_a_success() -> None:
    bench = load("progression_grounded")
    twice = ctx_of(LINES, ((1, *CALL), (2, *CALL)))
    assert bench.grounded_counts(twice)["redundant_calls"] == 1
    retried = _failing_first(ctx_of(LINES, ((1, *CALL), (2, *CALL))))
    assert bench.grounded_counts(retried)["redundant_calls"] == 0


def test_a_failed_call_with_an_identifier_nobody_gave_is_premature() -> None:
    bench = load("progression_grounded")
    guessed = ("get_reservation", {"confirmation_number": "JFKLAX1", "last_name": "Lee"})
    ctx = _failing_first(ctx_of(LINES, ((1, *guessed), (2, *CALL))))
    c = bench.grounded_counts(ctx)
    assert c["premature_calls"] == 1 and c["redundant_calls"] == 0
    said = _failing_first(ctx_of(LINES, ((1, *CALL),)))
    assert bench.grounded_counts(said)["premature_calls"] == 0
    placeholder = ("get_reservation", {"confirmation_number": "UNKNOWN", "last_name": ""})
    assert bench.grounded_counts(ctx_of(LINES, ((1, *placeholder),)))["premature_calls"] == 1
