"""caller_act_selectivity: yields within the window after backchannels/side speech count against."""

from __future__ import annotations

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.selectivity import caller_act_selectivity
from voxbench.eval.types import EvalConfig


def _ctx(acts: list[tuple[float, str, bool]], yields: list[tuple[float, str]]) -> ConversationContext:
    ctx = ConversationContext(record_id="r")
    ctx.caller_acts = [{"t": t, "kind": k, "text": "", "agent_speaking": s} for t, k, s in acts]
    ctx.yields = yields
    return ctx


def test_share_not_yielded_and_barge_in_rate() -> None:
    ctx = _ctx(
        [
            (1.0, "backchannel", True),
            (5.0, "backchannel", True),
            (9.0, "side_speech", True),
            (12.0, "barge_in", True),
        ],
        [(1.4, "agent"), (9.5, "user"), (12.3, "agent")],
    )
    r = caller_act_selectivity(ctx, EvalConfig())
    assert r.ok and r.score == 0.6667  # yielded to the first backchannel only (user-channel yield ignored)
    assert r.sub_metrics["backchannel_selectivity"].score == 0.5
    assert r.sub_metrics["side_speech_selectivity"].score == 1.0
    assert r.sub_metrics["barge_in_yield_rate"].score == 1.0
    assert r.details["eligible"] == 3 and r.details["yielded"] == 1


def test_window_is_a_parameter_and_late_yields_do_not_count() -> None:
    ctx = _ctx([(1.0, "backchannel", True)], [(3.5, "agent")])
    assert caller_act_selectivity(ctx, EvalConfig()).score == 1.0
    cfg = EvalConfig(params={"caller_act_selectivity": {"window_s": 3.0}})
    assert caller_act_selectivity(ctx, cfg).score == 0.0


def test_skipped_without_eligible_acts() -> None:
    r = caller_act_selectivity(_ctx([(1.0, "backchannel", False), (2.0, "barge_in", True)], []), EvalConfig())
    assert r.skipped and r.score is None
    assert r.sub_metrics["barge_in_yield_rate"].score == 0.0
