"""Time to completion, failure causes and the variance split, on real toy-domain records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.eval.fake_judge import FakeJudge
from tests.eval.test_metrics import FAITH_REPLY
from tests.eval.toy_records import ToyCall, cancel_call
from voxbench.eval.completion import completion_of
from voxbench.eval.from_record import load_context
from voxbench.eval.runner import score_context, score_run
from voxbench.eval.types import EvalConfig
from voxbench.eval.variance import ci_width, components, split_metric, trials_needed

CODE = ["task_completion", "agent_speech_fidelity", "turn_taking", "conversation_valid_end", "stt_wer"]


def _scored(call: ToyCall, tmp_path: Path, metrics: list[str] = CODE) -> dict:
    ctx = load_context(call.write(tmp_path / call.scenario_id / str(call.trial)))
    return score_context(ctx, EvalConfig(), metrics).analysis


def test_completion_is_the_call_that_reached_the_expected_state(tmp_path: Path) -> None:
    a = _scored(cancel_call(), tmp_path)
    assert a["completion"] == {
        "completed": True,
        "seconds": 8.6,
        "turns": 2,
        "tool_call_index": 1,
        "tool": "cancel_order",
        "call_start": 0.0,
    }
    assert a["failure_cause"] is None


def test_completion_says_when_the_replay_does_not_reach_the_recorded_db(tmp_path: Path) -> None:
    call = cancel_call()
    path = call.write(tmp_path / "r")
    events = [json.loads(x) for x in (path / "events.jsonl").read_text().splitlines()]
    kept = [
        e for e in events if not (e["type"] in ("tool_call", "tool_result") and e["name"] == "cancel_order")
    ]
    (path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in kept))
    c = completion_of(load_context(path))
    assert c.completed and c.seconds is None and "does not reach" in (c.note or "")


def test_misheard_key_entity_is_the_cause(tmp_path: Path) -> None:
    fc = _scored(cancel_call(heard_order="ORD-4812"), tmp_path)["failure_cause"]
    assert fc["cause"] == "misheard_entity" and fc["turn"] == 1
    assert fc["evidence"]["field"] == "order_id" and "ORD-4812" in fc["evidence"]["heard"]
    assert fc["summary"].startswith(f"turn 1: the caller said order_id {fc['evidence']['entity']!r} but")
    assert fc["evidence"]["tool_calls_after"][0]["params"]["order_id"] == "ORD-4812"


def test_wrong_tool_on_correct_input_is_agent_reasoning(tmp_path: Path) -> None:
    c = ToyCall("ty.1")
    c.agent(0.5, 2.0, "Pebble Shop, how can I help?")
    c.user(2.5, 4.0, f"Cancel order ORD-4821, email {c.email}.")
    c.tool(4.6, "find_order", order_id="ORD-4821", email=c.email)
    c.tool(4.9, "update_shipping_address", order_id="ORD-4821", address="1 Nowhere Road, Hull")
    c.agent(5.0, 6.0, "Your address is updated.")
    c.user(6.5, 7.0, "Bye.")
    fc = _scored(c, tmp_path)["failure_cause"]
    assert fc["cause"] == "agent_reasoning" and fc["evidence"]["kind"] == "wrong_call"
    assert any("ORD-4821" in line for line in fc["evidence"]["db_difference"])
    c2 = ToyCall("ty.1", 1).agent(0.5, 2.0, "Hello?").user(2.5, 4.0, f"Cancel ORD-4821, {c.email}.")
    c2.agent(5.0, 6.0, "I cannot help with that.").user(6.5, 7.0, "Bye.")
    assert _scored(c2, tmp_path)["failure_cause"]["evidence"]["kind"] == "missing_call"


def test_infrastructure_stage_and_invalid_simulation(tmp_path: Path) -> None:
    infra = ToyCall("ty.2", status="infra_failure", error="whisper crashed", error_source="stt")
    infra.agent(0.5, 2.0, "Hello")
    fc = _scored(infra, tmp_path)["failure_cause"]
    assert (fc["cause"], fc["stage"]) == ("infrastructure", "stt")
    cut = cancel_call(trial=3)
    cut.end_reason = "time_limit"
    fc = _scored(cut, tmp_path)["failure_cause"]
    assert fc["cause"] == "simulator_invalid" and "time_limit" in fc["summary"]


def test_speech_and_turn_taking_causes_when_the_task_is_done(tmp_path: Path) -> None:
    slow = _scored(cancel_call(latency=6.0), tmp_path)
    assert slow["completion"]["completed"] and slow["failure_cause"]["cause"] == "turn_taking"
    garbled = cancel_call(trial=1)
    last = max(
        i
        for i, e in enumerate(garbled.events)
        if getattr(e, "type", "") == "transcript" and e.channel == "agent"
    )
    garbled.events[last] = garbled.events[last].model_copy(update={"text": "Done, refund is on its way."})
    fc = _scored(garbled, tmp_path)["failure_cause"]
    assert fc["cause"] == "agent_speech" and fc["evidence"]["missing_entities"][2]["missing"] == ["4821"]


def _nested(rng: np.random.Generator, s: int, k: int, r: int, sd: tuple[float, float, float]) -> dict:
    out = {}
    for i in range(s):
        a = rng.normal(0, sd[0])
        out[str(i)] = [[a + b + rng.normal(0, sd[2]) for _ in range(r)] for b in rng.normal(0, sd[1], size=k)]
    return out


def test_variance_components_recover_known_values() -> None:
    y = _nested(np.random.default_rng(0), 400, 4, 3, (0.3, 0.2, 0.1))
    c = components(y)
    assert c is not None and c.judge is not None
    assert c.scenario == pytest.approx(0.09, rel=0.2)
    assert c.trial == pytest.approx(0.04, rel=0.2)
    assert c.judge == pytest.approx(0.01, rel=0.2)
    flat = {s: [[float(np.mean(cell))] for cell in t] for s, t in y.items()}
    c2 = components(flat)
    assert c2 is not None and c2.judge is None  # without repeats, judge noise is inside "trial"
    assert c2.trial == pytest.approx(0.04 + 0.01 / 3, rel=0.2)
    assert components({"a": [[1.0]], "b": [[0.0]]}) is None  # k = 1: nothing to split


def test_split_has_shares_and_bootstrap_cis() -> None:
    y = _nested(np.random.default_rng(1), 30, 3, 1, (0.3, 0.3, 0.0))
    b = split_metric(y, seed=7, n_boot=200)
    assert b is not None and b["n_scenarios"] == 30 and b["trials_per_scenario"] == 3
    assert b["share"]["scenario"] + b["share"]["trial"] == pytest.approx(1.0, abs=1e-3)
    lo, hi = b["ci95"]["scenario"]
    assert lo <= b["variance"]["scenario"] <= hi


def test_trials_needed_reaches_the_target_and_says_when_it_cannot() -> None:
    from voxbench.eval.variance import Components

    c = Components(scenario=0.02, trial=0.2)
    t = trials_needed(c, n_scen=40, k=2, target=0.15)
    k = t["trials_needed"]
    assert k > 2 and ci_width(0.02, 0.2, 0.0, 40, k) <= 0.15 < ci_width(0.02, 0.2, 0.0, 40, k - 1)
    hard = trials_needed(Components(scenario=0.2, trial=0.05), n_scen=10, k=2, target=0.1)
    assert hard["trials_needed"] is None and hard["scenarios_needed_at_k"] > 10


def test_trials_needed_is_not_estimable_when_every_conversation_scored_the_same() -> None:
    """A real k=2 offline run where all 6 calls failed gave a 0.000 CI width and '2 trials':
    zero observed variance says nothing about the width, so the estimate is withheld."""
    from voxbench.eval.variance import Components
    from voxbench.reports.summary_analysis import variance_lines

    t = trials_needed(Components(scenario=0.0, trial=0.0), n_scen=3, k=2, target=0.1)
    assert t["trials_needed"] is None and "scenarios_needed_at_k" not in t
    assert t["note"].startswith("no variation observed")
    per = {
        "task_completion": {"share": {"scenario": None, "trial": None}, "mean": 0.0, "total_variance": 0.0}
    }
    summary = {"variance": {"k": 2, "per_metric": per, "pass_at_1_trials_needed": {"task_completion": t}}}
    assert variance_lines(summary)[-1] == (
        "  task_completion pass@1 CI width 0.000 -> under 0.10: no variation observed "
        "(every conversation scored the same): not estimable from this run"
    )


class NoisyJudge(FakeJudge):
    """Faithfulness rated 3 on one repeat, 2 on the other: a judge with known noise."""

    def for_repeat(self, r: int) -> FakeJudge:
        rating = 3 if r % 2 == 0 else 2
        reply = FAITH_REPLY.replace('"rating": 2', f'"rating": {rating}')
        return FakeJudge({"faithfulness": reply})


def test_eval_summary_carries_the_three_analyses(tmp_path: Path) -> None:
    run = tmp_path / "run"
    for t in range(2):
        cancel_call(t).write(run / "records" / f"ty1_t{t}")
        cancel_call(t + 2, heard_order="ORD-4812" if t == 1 else None).write(
            run / "records" / f"ty1_t{t + 2}"
        )
    for t in range(2):
        c = (
            ToyCall("ty.2", t)
            .agent(0.5, 2.0, "Hi")
            .user(2.5, 4.0, f"New address for ORD-4821, {ToyCall().email}.")
        )
        c.tool(4.6, "find_order", order_id="ORD-4821", email=c.email)
        c.tool(4.8, "update_shipping_address", order_id="ORD-4821", address="7 Orchard Road, Bath")
        c.agent(5.5, 6.5, "Updated.").user(7.0, 7.5, "Bye.").write(run / "records" / f"ty2_t{t}")
    cfg = EvalConfig(judge=NoisyJudge({"faithfulness": FAITH_REPLY}))
    _, summary = score_run(run, cfg, [*CODE, "faithfulness"], judge_repeats=2, ci_target=0.2)
    comp = summary["completion"]["per_domain"]["toy"]
    assert comp["tasks_completed"] == 5 and comp["timed"] == 5 and comp["seconds"]["median"] == 8.6
    fc = summary["failure_causes"]
    assert fc["counts"]["misheard_entity"] == 1 and fc["failed"] >= 1
    var = summary["variance"]
    faith = var["per_metric"]["faithfulness"]
    assert faith["judge_repeats"] == 2 and faith["variance"]["judge"] > 0
    assert set(var["pass_at_1_trials_needed"]) >= {"task_completion"}
    written = json.loads((run / "records" / "ty1_t3" / "metrics.json").read_text())
    assert written["analysis"]["failure_cause"]["cause"] == "misheard_entity"
    assert len(written["analysis"]["judge_repeats"]["faithfulness"]) == 2


def test_vectorised_bootstrap_matches_the_reference_estimator() -> None:
    from voxbench.eval.variance import _balanced, _components_batch

    y = _nested(np.random.default_rng(3), 12, 3, 2, (0.3, 0.2, 0.1))
    arr = _balanced(y)
    assert arr is not None
    got = _components_batch(arr[None])
    ref = components(y)
    assert ref is not None
    assert got["scenario"][0] == pytest.approx(ref.scenario)
    assert got["trial"][0] == pytest.approx(ref.trial)
    assert got["judge"][0] == pytest.approx(ref.judge)


def test_a_caller_talking_into_silence_is_turn_taking_not_mishearing(tmp_path: Path) -> None:
    """As in a live run: the agent's STT kept only the caller's first sentence and the agent
    never answered; the call ended on inactivity."""
    c = ToyCall("ty.1", end_reason="inactivity_timeout")
    c.agent(0.5, 2.0, "Pebble Shop, how can I help?")
    c.user(2.5, 6.0, f"Hi, I want to cancel. It's ORD-4821, email {c.email}.", heard="Hi, I want to cancel.")
    fc = _scored(c, tmp_path)["failure_cause"]
    assert fc["cause"] == "turn_taking" and "never answered" in fc["summary"]


@pytest.mark.parametrize("shape", [(2, 2, 1), (5, 3, 1), (50, 20, 1), (7, 4, 2), (12, 3, 3), (3, 9, 5)])
def test_resampled_components_are_the_copys_floats(shape: tuple[int, int, int]) -> None:
    """The bootstrap's per-scenario statistics, gathered by the draws, are bit for bit the
    components of the resampled copy (`_components_batch(a[picks])`)."""
    from voxbench.eval.variance import _components_batch, _components_resampled

    rng = np.random.default_rng(sum(shape))
    for values in (rng.random(shape), rng.integers(0, 2, shape).astype(float), rng.normal(0, 1e3, shape)):
        picks = rng.integers(0, shape[0], size=(400, shape[0]))
        want = _components_batch(values[picks])
        got = _components_resampled(values, picks)
        for key in ("scenario", "trial", "judge"):
            assert np.array_equal(got[key], want[key]), key
            assert got[key].tobytes() == want[key].tobytes(), key
