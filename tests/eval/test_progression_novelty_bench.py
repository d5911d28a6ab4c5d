"""The stale-read count of benchmarks/progression_novelty.py (measured, not shipped): a read
call whose result adds almost nothing an earlier result had not returned is unnecessary (EVA's
progression prompt); another call of the same tool that returns new data is not."""

from __future__ import annotations

from typing import Any

from tests.bench.bench_scripts import load
from tests.eval.test_offline_judges import ctx_of

LINES = [("assistant", "Hi, how can I help?"), ("user", "Check booking QX7K2M, last name Lee."),
         ("assistant", "I found your booking."), ("user", "Is my flight on time?"),
         ("assistant", "Yes, it is on time."), ("user", "Thanks, bye.")]  # fmt: skip
BOOKING = {"confirmation_number": "QX7K2M", "flight_number": "SK210", "date": "2026-06-10", "origin": "MCO",
           "destination": "ATL", "departure_time": "14:45", "arrival_time": "16:20", "seat": "12A",
           "gate": "B18"}  # fmt: skip


def _with_results(ctx: Any, *results: dict[str, Any]) -> Any:
    """The context with its tool responses replaced, in order, by `results`."""
    responses = [e for e in ctx.conversation_trace if e.get("type") == "tool_response"]
    for e, r in zip(responses, results, strict=True):
        e["tool_response"] = {"status": "success", **r}
    return ctx


def test_a_read_returning_what_an_earlier_result_held_is_stale() -> None:
    bench = load("progression_novelty")
    calls = ((1, "get_reservation", {"confirmation_number": "QX7K2M"}),
             (2, "get_flight_status", {"flight_number": "SK210"}))  # fmt: skip
    same = _with_results(ctx_of(LINES, calls), {"reservation": BOOKING}, {"flight": BOOKING})
    assert bench.stale_reads(same) == 1
    news = {k: f"{v}-new" for k, v in BOOKING.items()}
    fresh = _with_results(ctx_of(LINES, calls), {"reservation": BOOKING}, {"flight": news})
    assert bench.stale_reads(fresh) == 0


def test_a_small_verdict_and_an_identical_call_are_not_stale_reads() -> None:
    bench = load("progression_novelty")
    calls = ((1, "verify_otp", {"code": "123456"}), (2, "check_eligibility", {"employee_id": "E1"}))
    verdicts = _with_results(ctx_of(LINES, calls), {"authenticated": True}, {"authenticated": True})
    assert bench.stale_reads(verdicts) == 0
    call = (1, "get_reservation", {"confirmation_number": "QX7K2M"})
    twice = ctx_of(LINES, (call, (2, *call[1:])))
    twice = _with_results(twice, {"reservation": BOOKING}, {"reservation": BOOKING})
    assert bench.stale_reads(twice) == 0  # counted once, as v3's identical call
