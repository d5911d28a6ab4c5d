"""τ-voice's panel as registered metrics on a synthetic voxbench call, worked out by hand at
both resolutions, and pooled across calls."""

from __future__ import annotations

import pytest

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.tau_voice import METRIC_NAMES
from voxbench.eval.runner import score_context
from voxbench.eval.tau_voice.pool import panel_lines, pooled_panel
from voxbench.eval.types import REGISTRY, EvalConfig


def call() -> ConversationContext:
    """agent 0-3 s; caller 3.5-5; agent 5.8-9 (a backchannel at 6.5, side speech at 7.5 that
    the caller's detector also stamped); agent 10-11.6, barged in on at 11 (caller to 12);
    agent 12.5-13.5; a vocal tic at 14 in silence, agent 15-15.5; caller 16-18 with the agent
    starting over it at 17 and talking to 19."""
    ctx = ConversationContext(record_id="r")
    ctx.audio_timestamps_assistant_turns = {
        0: [(0.0, 3.0)],
        1: [(5.8, 9.0), (10.0, 11.6)],
        2: [(12.5, 13.5), (15.0, 15.5)],
        3: [(17.0, 19.0)],
    }
    ctx.audio_timestamps_user_turns = {
        1: [(3.5, 5.0)],
        2: [(7.55, 8.3)],
        3: [(11.05, 12.0)],
        4: [(16.0, 18.0)],
    }
    ctx.caller_acts = [
        {"t": 6.5, "kind": "backchannel", "duration_s": 0.4, "agent_speaking": True},
        {"t": 7.5, "kind": "side_speech", "duration_s": 0.8, "agent_speaking": True},
        {"t": 11.0, "kind": "barge_in", "duration_s": 1.0, "agent_speaking": True},
        {"t": 14.0, "kind": "vocal_tic", "duration_s": 0.3, "agent_speaking": False},
        {"t": 13.0, "kind": "pause", "duration_s": 1.0},
    ]
    return ctx


EXPECTED = {
    # field: (grid, native), by hand
    # natively (5.8 - 5.0 + 12.5 - 12.0) / 2; on ticks the agent's 12.5 s onset falls in the
    # tick from 12.4 s: (0.8 + 0.4) / 2
    "response_latency_mean": (0.6, 0.65),
    "yield_latency_mean": (0.6, 0.6),  # 11.6 - 11.0
    "response_rate": (1.0, 1.0),
    "yield_rate": (1.0, 1.0),
    "agent_interruption_rate": (0.5, 0.5),  # the agent at 17 over the caller; 2 turns
    "selectivity_backchannel": (1.0, 1.0),  # talked on 2.5 s
    "selectivity_vocal_tic": (0.0, 0.0),  # answered 0.7 s (grid: 0.8 s) after it, within 2 s
    "selectivity_non_directed": (1.0, 1.0),  # stopped 1.5 s after it, outside 1 s
}


def test_every_field_registered_and_scored_by_hand() -> None:
    assert set(METRIC_NAMES) <= set(REGISTRY)
    scored = score_context(call(), EvalConfig(), list(METRIC_NAMES))
    for field, (grid, native) in EXPECTED.items():
        r = scored.metrics["tau_" + field]
        assert r.ok, (field, r)
        assert r.score == pytest.approx(grid), field
        assert r.sub_metrics["native"].score == pytest.approx(native), field
    d = scored.metrics["tau_agent_interruption_rate"].details
    assert d["grid"]["num"] == 1 and d["grid"]["den"] == 2


def test_grid_and_native_differ_where_the_grid_rounds() -> None:
    ctx = ConversationContext(record_id="r")
    ctx.audio_timestamps_user_turns = {1: [(0.0, 1.05)]}
    ctx.audio_timestamps_assistant_turns = {1: [(1.33, 2.0)]}
    r = score_context(ctx, EvalConfig(), ["tau_response_latency_mean"]).metrics["tau_response_latency_mean"]
    # natively 0.28 s; on ticks the caller speaks through tick 5 (to 1.2 s), the agent from tick 6
    assert r.sub_metrics["native"].score == pytest.approx(0.28)
    assert r.score == pytest.approx(0.0)


def test_no_event_is_a_skip_not_a_zero() -> None:
    r = score_context(call(), EvalConfig(), ["tau_yield_rate"]).metrics["tau_yield_rate"]
    assert r.ok
    ctx = ConversationContext(record_id="no-barge-in")
    ctx.audio_timestamps_user_turns = {1: [(0.0, 1.0)]}
    ctx.audio_timestamps_assistant_turns = {1: [(1.5, 2.0)]}
    res = score_context(ctx, EvalConfig(), ["tau_yield_rate"]).metrics["tau_yield_rate"]
    assert res.skipped and res.score is None


def test_pooling_sums_numerators_and_denominators() -> None:
    one = score_context(call(), EvalConfig(), list(METRIC_NAMES)).metrics
    details = {n: r.details for n, r in one.items()}
    p = pooled_panel([details, details])
    assert p is not None and p["calls"] == 2
    assert p["grid"]["response_latency_mean"] == pytest.approx(0.6)
    assert p["native"]["response_latency_mean"] == pytest.approx(0.65)
    assert p["grid"]["counts"]["response_total"] == 4
    assert p["grid"]["counts"]["vocal_tic_error"] == 2 and p["grid"]["counts"]["vocal_tic_total"] == 2
    lines = "\n".join(panel_lines("sys", p))
    assert "(n<10) [4]" in lines  # R_R backed by 4 turns is hidden
    assert pooled_panel([{}]) is None
