"""Composites, run-level summary (failures counted apart), the CLI, and the HTTP judge."""

from __future__ import annotations

import copy
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.eval.builders import EXPECTED_DB, small_conversation
from voxbench.cli.main import main
from voxbench.eval.aggregate import bootstrap_ci, record_aggregates
from voxbench.eval.judges.openai_http import OpenAIJudge
from voxbench.eval.runner import score_run
from voxbench.eval.types import EvalConfig, MetricResult


def R(name: str, v: float | None, **kw: Any) -> MetricResult:
    return MetricResult(name=name, score=v, normalized_score=v, **kw)


def test_record_aggregates_rules() -> None:
    res = {
        "task_completion": R("task_completion", 1.0),
        "faithfulness": R("faithfulness", 0.5),
        "agent_speech_fidelity": MetricResult.skip("agent_speech_fidelity", "no entities"),  # ignored
        "conversation_progression": R("conversation_progression", 1.0),
        "turn_taking": R("turn_taking", 0.8 - 1e-12),  # isclose >= threshold
        "conciseness": R("conciseness", 0.4),
    }
    agg = record_aggregates(res)
    assert agg["EVA-A_pass"] == 1.0
    assert agg["EVA-X_pass"] == 0.0  # conciseness 0.4 < 0.5
    assert agg["EVA-overall_pass"] == 0.0
    assert agg["EVA-A_mean"] == 0.75
    res["faithfulness"] = MetricResult.fail("faithfulness", "judge down")
    assert record_aggregates(res)["EVA-A_pass"] is None  # errored component -> None
    res["faithfulness"] = MetricResult.unscored("faithfulness", "no judge")
    assert record_aggregates(res)["EVA-A_pass"] is None  # not computed is missing, not ignored
    assert record_aggregates(res)["EVA-overall_pass"] is None


def test_bootstrap_is_deterministic_and_over_scenario_means() -> None:
    data = {"a": [1.0, 0.0], "b": [1.0], "c": [0.0, 0.0, 0.0]}
    lo, hi, n = bootstrap_ci(data, seed=42)
    assert n == 3 and (lo, hi) == bootstrap_ci(data, seed=42)[:2]
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0  # scenario means 0.5, 1, 0 -> mean 0.5
    assert bootstrap_ci({}, 1) == (None, None, 0)


def make_run(root: Path) -> Path:
    run = root / "run1"
    wrong = copy.deepcopy(EXPECTED_DB)
    wrong["reservations"]["ZK3FFW"]["flight"] = "SK1"
    for trial in range(3):
        conv = small_conversation()
        conv.trial = trial
        conv.write(run / "conversations" / "1.1.1" / f"trial_{trial}", final_db=wrong if trial == 2 else None)
    bad = small_conversation()
    bad.scenario_id, bad.end_reason = "1.1.2", "connection_lost"  # invalid simulation
    bad.write(run / "conversations" / "1.1.2" / "trial_0")
    infra = small_conversation()
    infra.scenario_id, infra.status = "1.1.3", "infra_failure"
    infra.write(run / "conversations" / "1.1.3" / "trial_0")
    small_conversation().write(
        run / "conversations" / "1.1.1" / "trial_0_failed_attempt_0"
    )  # archived: ignored
    return run


def test_score_run_summary_counts_failures_apart(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    _, summary = score_run(run, EvalConfig(judge_mode="none"))  # the gate's end check only
    assert summary["total_records"] == 5 and summary["scored_records"] == 3
    assert summary["failures"]["validation"]["count"] == 1
    assert summary["failures"]["infrastructure"]["count"] == 1
    tc = summary["per_metric"]["task_completion"]
    assert tc["mean"] == pytest.approx(0.6667, abs=1e-4) and tc["count"] == 3
    pk = tc["pass_k"]
    assert pk["k"] == 3 and pk["pass_at_1"] == pytest.approx(0.6667, abs=1e-4)
    assert pk["pass_at_k"] == 1.0 and pk["pass_power_k_observed"] == 0.0
    assert summary["per_metric"]["turn_taking"]["sub_metrics"]["late_rate"]["higher_is_better"] is False
    assert summary["per_metric"]["response_speed"]["higher_is_better"] is False
    assert "stt_wer" not in summary["pass_at_k_config"]["per_metric_thresholds"]
    assert summary["provenance"]["metrics_versions"]["turn_taking"] == "v0.2"
    m = json.loads((run / "conversations/1.1.1/trial_0/metrics.json").read_text())
    assert m["metrics"]["task_completion"]["score"] == 1.0 and m["status"] == "completed"
    assert json.loads((run / "conversations/1.1.2/trial_0/metrics.json").read_text())["status"] == "invalid"


def test_cli_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    assert main(["eval", str(run), "--metrics", "task_completion,turn_taking,conversation_valid_end"]) == 0
    out = capsys.readouterr().out
    assert "task_completion" in out and "validation failures: 1" in out
    summary = json.loads((run / "metrics_summary.json").read_text())
    assert set(summary["per_metric"]) == {"task_completion", "turn_taking", "conversation_valid_end"}
    # append mode keeps what was not re-run
    assert main(["eval", str(run), "--metrics", "stt_wer,conversation_valid_end", "--merge"]) == 0
    m = json.loads((run / "conversations/1.1.1/trial_0/metrics.json").read_text())
    assert {"task_completion", "stt_wer", "turn_taking"} <= set(m["metrics"])
    assert main(["eval", str(run), "--metrics", "nope"]) == 2


class _Handler(BaseHTTPRequestHandler):
    fails = 2
    calls = 0

    def do_POST(self) -> None:
        type(self).calls += 1
        n = int(self.headers["Content-Length"])
        body = json.loads(self.rfile.read(n))
        if type(self).fails > 0:
            type(self).fails -= 1
            self.send_response(503)
            self.end_headers()
            return
        reply = {
            "model": body["model"],
            "choices": [{"message": {"content": 'ok {"rating": 3}'}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a: Any) -> None:
        pass


def test_openai_judge_retries_caches_and_counts(tmp_path: Path) -> None:
    srv = HTTPServer(("127.0.0.1", 0), _Handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        sleeps: list[float] = []
        j = OpenAIJudge(
            base_url=f"http://127.0.0.1:{srv.server_port}/v1", model="m", cache_dir=tmp_path / "c",
            price_per_mtok_in=1.0, price_per_mtok_out=2.0, sleep=sleeps.append,
        )  # fmt: skip
        r = j.complete("sys", "user")
        assert r.text.endswith('{"rating": 3}') and r.prompt_tokens == 100
        assert len(sleeps) == 2 and _Handler.calls == 3  # two 503s retried with backoff
        r2 = j.complete("sys", "user")
        assert r2.cached and _Handler.calls == 3  # served from disk
        assert j.usage.calls == 2 and j.usage.cached_calls == 1
        assert j.usage.cost_usd == pytest.approx((100 * 1 + 20 * 2) / 1e6)
    finally:
        srv.shutdown()
        srv.server_close()
