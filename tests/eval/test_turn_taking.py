"""turn_taking: every constant and branch of EVA §3.3, hand-computed."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from tests.eval.builders import Conv
from voxbench.eval.context import ConversationContext, ToolCallInfo
from voxbench.eval.eva_format import load_eva_context
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.turn_taking import latency_score, turn_taking
from voxbench.eval.types import EvalConfig
from voxbench.records import UsageEvent


@pytest.mark.parametrize(
    ("ms", "tool", "expected"),
    [
        (-600, False, 0.0),
        (-500, False, 0.0),  # hard early: 0 at or below
        (-400, False, 0.1),
        (0, False, 0.5),
        (200, False, 0.7),
        (500, False, 1.0),  # sweet spot low
        (2000, False, 1.0),  # sweet spot high (non-tool)
        (2750, False, 0.5),
        (3000, False, 1 / 3),
        (3500, False, 0.0),  # hard late non-tool
        (3000, True, 1.0),  # tool sweet spot high
        (4000, True, 0.5),
        (5000, True, 0.0),  # tool hard late
    ],
)
def test_latency_curve(ms: float, tool: bool, expected: float) -> None:
    assert latency_score(ms, tool) == pytest.approx(expected)


def ctx(users, assts, **kw) -> ConversationContext:  # type: ignore[no-untyped-def]
    c = ConversationContext(
        record_id="r", audio_timestamps_user_turns=users, audio_timestamps_assistant_turns=assts, **kw
    )
    c.num_turns = max([*users, *assts])
    return c


def run(c: ConversationContext):  # type: ignore[no-untyped-def]
    return turn_taking(c, EvalConfig())


def test_latency_branch_and_tool_awareness() -> None:
    # turn 1: latency 5.0-2.0 = 3000 ms non-tool -> 1/3 ; turn 2: 10.0-6.0 = 4000 ms tool -> 0.5
    c = ctx({1: [(1.0, 2.0)], 2: [(5.8, 6.0)]}, {0: [(0.0, 0.5)], 1: [(5.0, 5.5)], 2: [(10.0, 11.0)]})
    c.tool_calls = [ToolCallInfo(turn_id=2, name="x", params={})]
    r = run(c)
    assert r.details["per_turn_score"] == {1: 0.3333, 2: 0.5}
    assert r.details["per_turn_reason"] == {1: "latency", 2: "latency"}
    assert r.score == round((0.3333 + 0.5) / 2, 4)
    assert r.details["per_turn_evidence"][2]["has_tool_call"] is True
    # late: 3000 >= 2750 non-tool; 4000 >= 4000 tool -> both late
    assert r.sub_metrics["late_rate"].score == 1.0
    assert r.sub_metrics["p50_latency_ms"].score == 4000.0  # sorted[min(1, int(0.5*2))] = sorted[1]
    assert r.sub_metrics["p50_latency_ms"].normalized_score is None


def test_agent_interrupt_overlap_count_and_post_latency() -> None:
    # user 1.0-3.0; agent cuts in 2.5-3.5 (overlap 0.5 s) then speaks again at 4.0 (1000 ms after user end)
    c = ctx({1: [(1.0, 3.0)]}, {1: [(2.5, 3.5), (4.0, 5.0)]}, assistant_interrupted_turns=[1])
    r = run(c)
    ev = r.details["per_turn_evidence"][1]
    assert ev["overlap_ms"] == 500.0
    assert ev["overlap_score"] == 0.375  # 0.5 * (1 - 500/2000)
    assert ev["n_interrupt_segments"] == 1
    assert ev["interrupt_count_score"] == 0.5
    # segment 2.5-3.5 spans the user's end (3.0) -> post-interrupt latency undefined
    assert ev["post_interrupt_latency_ms"] is None
    assert r.details["per_turn_score"][1] == 0.375
    assert r.details["per_turn_reason"][1] == "agent_interrupt"


def test_agent_interrupt_two_segments_and_post_latency_defined() -> None:
    # user 0-4; agent 1.0-1.5 and 2.0-2.5 inside (overlap 1.0 s, n=2), then 5.0 (1000 ms late)
    c = ctx({1: [(0.0, 4.0)]}, {1: [(1.0, 1.5), (2.0, 2.5), (5.0, 6.0)]}, assistant_interrupted_turns=[1])
    ev = run(c).details["per_turn_evidence"][1]
    assert ev["overlap_score"] == 0.25
    assert ev["interrupt_count_score"] == 0.25  # 0.5 * (1 - 1/2)
    assert ev["post_interrupt_latency_ms"] == 1000.0
    assert ev["post_interrupt_latency_score"] == 1.0
    assert run(c).details["per_turn_score"][1] == 0.25


def test_agent_interrupt_three_segments_scores_zero() -> None:
    c = ctx({1: [(0.0, 6.0)]}, {1: [(1.0, 1.1), (2.0, 2.1), (3.0, 3.1)]}, assistant_interrupted_turns=[1])
    ev = run(c).details["per_turn_evidence"][1]
    assert ev["n_interrupt_segments"] == 3 and ev["interrupt_count_score"] == 0.0
    assert run(c).details["per_turn_score"][1] == 0.0


def test_overlap_of_one_ms_or_less_is_not_an_interrupt_segment() -> None:
    c = ctx({1: [(0.0, 2.0)]}, {1: [(1.9995, 3.0)]}, assistant_interrupted_turns=[1])
    ev = run(c).details["per_turn_evidence"][1]
    assert ev["n_interrupt_segments"] == 0 and ev["interrupt_count_score"] is None


def test_user_interrupt_yield() -> None:
    # agent turn 1 speaks until 5.0; caller barges in at 4.5 -> yield 500 ms -> 0.75
    c = ctx(
        {1: [(1.0, 2.0)], 2: [(4.5, 6.0)]}, {1: [(3.0, 5.0)], 2: [(7.0, 8.0)]}, user_interrupted_turns=[2]
    )
    r = run(c)
    assert r.details["per_turn_score"][2] == 0.75
    assert r.details["per_turn_reason"][2] == "user_interrupt"
    assert r.sub_metrics["user_interruption.rate"].score == 0.5
    assert r.sub_metrics["user_interruption.mean_yield_ms"].score == 500.0


def test_yield_over_2s_scores_zero() -> None:
    c = ctx(
        {1: [(1.0, 2.0)], 2: [(3.0, 6.0)]}, {1: [(2.5, 5.5)], 2: [(7.0, 8.0)]}, user_interrupted_turns=[2]
    )
    assert run(c).details["per_turn_score"][2] == 0.0  # yield 2500 ms


def test_dual_interrupt_takes_min() -> None:
    # turn 2: caller barges into agent (yield 200 ms -> 0.9) and agent barges back (overlap 0.4 s -> 0.4)
    c = ctx(
        {1: [(1.0, 2.0)], 2: [(4.8, 7.0)]},
        {1: [(3.0, 5.0)], 2: [(6.6, 8.0)]},
        user_interrupted_turns=[2],
        assistant_interrupted_turns=[2],
    )
    r = run(c)
    assert r.details["per_turn_reason"][2] == "dual_interrupt"
    # agent part: overlap 0.4 s -> 0.4, n=1 -> 0.5, post undefined (spans user end) -> 0.4; yield 0.9
    assert r.details["per_turn_score"][2] == 0.4


def test_fallback_turn_scores_zero_even_without_audio() -> None:
    c = ctx({1: [(1.0, 2.0)]}, {1: [(2.7, 3.0)], 2: [(20.0, 21.0)]}, fallback_turn_ids=[2])
    r = run(c)
    assert r.details["per_turn_score"] == {1: 1.0, 2: 0.0}
    assert r.details["per_turn_reason"][2] == "turn_end_fallback"
    assert r.sub_metrics["fallback_nudge.count"].score == 1.0
    assert r.sub_metrics["fallback_nudge.rate"].score == 0.5


def test_missed_turn_forces_zero() -> None:
    c = ctx(
        {1: [(1.0, 2.0)], 2: [(5.0, 6.0)]}, {1: [(3.0, 4.0)]}, conversation_ended_reason="inactivity_timeout"
    )
    r = run(c)
    assert r.details["missed_turn"] is True
    assert r.details["per_turn_score"] == {1: 1.0}
    assert r.score == 0.0


def test_no_evaluable_turns_is_zero_not_error() -> None:
    r = run(ctx({}, {0: [(0.0, 1.0)]}))
    assert r.score == 0.0 and r.error is None and r.details["num_evaluated"] == 0


def test_rates_early_on_time_late() -> None:
    users = {t: [(10.0 * t, 10.0 * t + 1)] for t in (1, 2, 3)}
    # latencies: 100 ms (early), 1000 ms (on time), 3000 ms (late, non-tool)
    assts = {1: [(11.1, 12.0)], 2: [(22.0, 23.0)], 3: [(34.0, 35.0)]}
    r = run(ctx(users, assts))
    assert r.sub_metrics["early_rate"].score == pytest.approx(1 / 3, abs=1e-4)
    assert r.sub_metrics["on_time_rate"].score == pytest.approx(1 / 3, abs=1e-4)
    assert r.sub_metrics["late_rate"].score == pytest.approx(1 / 3, abs=1e-4)
    assert r.sub_metrics["mean_latency_ms"].score == pytest.approx(1366.7, abs=0.1)
    assert r.sub_metrics["p90_latency_ms"].score == 3000.0


def test_token_means_count_agent_responses_and_never_invent_reasoning(tmp_path: Path) -> None:
    conv = Conv().agent(0.5, 2.0, "Hello.").user(3.0, 4.0, "Hi.").agent(5.0, 6.0, "Yes?")
    conv.events += [
        UsageEvent(t=4.5, side="agent", model="m", completion_tokens=20, reasoning_tokens=8),
        UsageEvent(t=5.5, side="agent", model="m", completion_tokens=40),  # no reasoning reported
        UsageEvent(t=3.5, side="user", model="sim", completion_tokens=999, reasoning_tokens=999),
    ]
    r = run(load_context(conv.write(tmp_path / "a")))
    assert r.sub_metrics["mean_output_tokens"].score == 30.0  # the simulator's LLM is not the agent
    rt = r.sub_metrics["mean_reasoning_tokens"]
    assert rt.score == 8.0 and rt.normalized_score is None
    assert rt.details == {"responses_with_usage": 2, "responses_with_reasoning": 1}
    plain = Conv().agent(0.5, 2.0, "Hello.").user(3.0, 4.0, "Hi.").agent(5.0, 6.0, "Yes?")
    plain.events.append(UsageEvent(t=4.5, side="agent", model="m", completion_tokens=12))
    rt = run(load_context(plain.write(tmp_path / "b"))).sub_metrics["mean_reasoning_tokens"]
    assert rt.score is None and rt.skipped and rt.details["skip_reason"] == "reasoning tokens not recorded"


def test_eva_reasoning_tokens_column(eva_data: Path, tmp_path: Path) -> None:
    sample = eva_data / "tests" / "artifacts" / "records" / "1.1.2"
    csv.field_size_limit(1 << 30)
    with (sample / "agent_perf_stats.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    out_tokens = [int(r["output_tokens"]) for r in rows]
    r = run(load_eva_context(sample))
    assert r.sub_metrics["mean_output_tokens"].score == round(sum(out_tokens) / len(out_tokens), 4)
    assert r.sub_metrics["mean_reasoning_tokens"].skipped  # this EVA version logs none
    copy = tmp_path / "1.1.2"
    shutil.copytree(sample, copy)
    with (copy / "agent_perf_stats.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[*rows[0], "reasoning_tokens"])
        w.writeheader()
        w.writerows({**row, "reasoning_tokens": str(10 * i)} for i, row in enumerate(rows))
    rt = run(load_eva_context(copy)).sub_metrics["mean_reasoning_tokens"]
    assert rt.score == round(sum(10 * i for i in range(len(rows))) / len(rows), 4)
