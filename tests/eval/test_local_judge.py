"""`--judge local`: model selection, JSON-schema requests, provenance in the summary.

The fast test replaces llama.cpp with a tiny OpenAI-chat server on 127.0.0.1; the slow one
makes one real call to the embedded model.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.eval.builders import small_conversation
from voxbench.cli.main import main
from voxbench.localmodels import QWEN_05B, QWEN_15B, LlamaServer, assets, default_judge_llm, server


class _Chat(BaseHTTPRequestHandler):
    bodies: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        props = body["response_format"]["json_schema"]["schema"]["properties"]
        reply: dict[str, Any] = {
            "corruptions": {},
            "rating": 1,
            "turns": [],
        }  # other prompts: clean, no turns
        if "dimensions" in props:
            dims = props["dimensions"]["required"]
            reply = {"dimensions": {d: {"evidence": "", "flagged": False, "rating": 3} for d in dims}}
        content = json.dumps(reply)
        data = json.dumps(
            {
                "model": body["model"],
                "choices": [{"message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a: Any) -> None:
        pass


def test_default_prefers_the_bigger_installed_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assets, "llm_installed", lambda spec: True)
    assert default_judge_llm() is QWEN_15B
    monkeypatch.setattr(assets, "llm_installed", lambda spec: spec is QWEN_05B)
    assert default_judge_llm() is QWEN_05B
    assert default_judge_llm("qwen-1.5b") is QWEN_15B
    monkeypatch.setattr(assets, "llm_installed", lambda spec: False)
    with pytest.raises(assets.ModelAssetError, match="pip install"):
        default_judge_llm()
    with pytest.raises(ValueError, match="unknown local model"):
        default_judge_llm("llama-70b")


def test_eval_judge_local_wiring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    httpd = HTTPServer(("127.0.0.1", 0), _Chat)
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    launched: list[tuple[Path, int]] = []

    def fake_launch(self: LlamaServer, path: Path, threads: int) -> tuple[Any, str]:
        launched.append((path, threads))
        return httpd, f"http://127.0.0.1:{httpd.server_port}"

    monkeypatch.setattr(assets, "llm_installed", lambda spec: spec is QWEN_05B)  # only the 0.5B parts
    monkeypatch.setattr(server, "llm_gguf", lambda spec: tmp_path / spec.filename)
    monkeypatch.setattr(LlamaServer, "_launch", fake_launch)
    _Chat.bodies = []
    run = tmp_path / "run"
    small_conversation().write(run / "conversations" / "1.1.1" / "trial_0")
    try:
        rc = main(
            ["eval", str(run), "--judge", "local", "--metrics", "conversation_progression,task_completion"]
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert rc == 0
    assert launched and launched[0][0] == tmp_path / QWEN_05B.filename
    body = _Chat.bodies[0]
    assert body["model"] == QWEN_05B.alias and body["temperature"] == 0.0
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "progression"

    summary = json.loads((run / "metrics_summary.json").read_text())
    prov = summary["provenance"]
    assert prov["judges"]["text"] == QWEN_05B.alias
    det = prov["judge_details"]["text"]
    assert det["sha256"] == QWEN_05B.sha256 and det["gguf"] == QWEN_05B.filename
    assert det["kind"] == "embedded-local" and det["confidence"] == "low"
    assert summary["judge_confidence"]["level"] == "low"
    res = json.loads((run / "conversations/1.1.1/trial_0/metrics.json").read_text())["metrics"]
    cp = res["conversation_progression"]
    assert cp["score"] == 3.0 and cp["judge_model"] == QWEN_05B.alias and cp["prompt_hash"]
    out = capsys.readouterr().out
    assert "LOW-CONFIDENCE" in out and QWEN_05B.alias in out


@pytest.mark.slow
def test_real_local_judge_call_parses_a_rating(tmp_path: Path) -> None:
    """One real conciseness call to the embedded model (smallest installed for speed)."""
    from voxbench.eval.judges import parse_json_list
    from voxbench.eval.judges import prompts as P
    from voxbench.eval.judges.openai_http import OpenAIJudge

    spec = QWEN_05B if assets.llm_installed(QWEN_05B) else default_judge_llm()
    with LlamaServer(spec, n_ctx=4096) as srv:
        judge = OpenAIJudge(base_url=srv.base_url, model=srv.model, json_schema=True, max_tokens=512)
        reply = judge.complete(
            P.render(P.CONCISENESS),
            "Turn ids to rate: [1]\n\nTurn 1:\n  user: What's my seat?\n  assistant: Seat 12A, by the window.",
        )
    items = parse_json_list(reply.text)
    assert items, reply.text
    assert items[0]["turn_id"] == 1 and items[0]["rating"] in (1, 2, 3, None)
    assert reply.model and judge.usage.completion_tokens > 0


def test_orchestrator_scoring_with_local_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from voxbench.orchestrator.config import JudgesConfig
    from voxbench.orchestrator.eval_bridge import score_run_dir

    httpd = HTTPServer(("127.0.0.1", 0), _Chat)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    monkeypatch.setattr(server, "llm_gguf", lambda spec: tmp_path / spec.filename)
    monkeypatch.setattr(
        LlamaServer, "_launch", lambda self, path, threads: (httpd, f"http://127.0.0.1:{httpd.server_port}")
    )
    run = tmp_path / "run"
    small_conversation().write(run / "conversations" / "1.1.1" / "trial_0")
    try:
        summary = score_run_dir(run, JudgesConfig(local="qwen-1.5b"))
    finally:
        httpd.shutdown()
        httpd.server_close()
    det = summary["provenance"]["judge_details"]["text"]
    assert det["model"] == QWEN_15B.alias and det["sha256"] == QWEN_15B.sha256
    assert summary["per_metric"]["conversation_progression"]["mean"] == 1.0
    assert summary["judge_confidence"]["level"] == "low"


def test_cli_calibrate_on_human_rated_records_and_a_set(tmp_path: Path) -> None:
    httpd = HTTPServer(("127.0.0.1", 0), _Chat)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    run = tmp_path / "run"
    rec = small_conversation().write(run / "conversations" / "1.1.1" / "trial_0")
    data = json.loads((rec / "record.json").read_text())
    data["human_rating"] = {"task_done": True, "natural": 3, "comment": ""}
    (rec / "record.json").write_text(json.dumps(data))
    small_conversation().write(run / "conversations" / "1.1.2" / "trial_0")  # not rated: ignored
    sets = tmp_path / "sets"
    sets.mkdir()
    trace = [
        {"event_type": "agent_utterance", "utterance": "Hello"},
        {"event_type": "user_utterance", "utterance": "hi"},
        {"event_type": "agent_utterance", "utterance": "Done."},
    ]
    (sets / "conversation_progression.jsonl").write_text(
        json.dumps({"id": 1, "trace": trace, "expected_rating": 3}) + "\n"
        + json.dumps({"id": 2, "trace": trace, "expected_rating": 2}) + "\n"
    )  # fmt: skip
    out = tmp_path / "calibration.json"
    url = f"http://127.0.0.1:{httpd.server_port}/v1"
    try:
        rc = main(
            ["judges", "calibrate", "--dataset", str(sets), "--records", str(run), "--out", str(out),
             "--metrics", "conversation_progression", "--judge-base-url", url, "--judge-model", "m",
             "--judge-json-schema"]
        )  # fmt: skip
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert rc == 0
    cal = json.loads(out.read_text())
    cp = cal["metrics"]["conversation_progression"]["agreement"]
    assert cp["n"] == 2 and cp["accuracy"] == 0.5 and cp["mae"] == 0.5
    assert cal["judge"]["model"] == "m" and cal["judge_usage"]["calls"] >= 2
    hr = cal["human_rated_records"]
    assert hr["records"] == 1
    assert hr["metrics"]["conversation_progression"]["agreement"]["accuracy"] == 1.0
    assert hr["metrics"]["task_completion"]["agreement"]["accuracy"] == 1.0
    assert main(["judges", "calibrate", "--dataset", str(sets)]) == 2  # no judge: one clear error
