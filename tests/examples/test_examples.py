"""Each example bot, started as its own process, benchmarked by `voxbench run --agent NAME
--profiles examples/<dir>/profile.yaml` on a built-in scenario: the call is scored and the
bot's tool call went through the scenario's tool bridge.

The CI variant runs the bots with ``--fake-services`` (scripted STT/LLM/TTS subclassing
pipecat's base classes: the bots' transports, serializers, aggregators and tool calls are the
real ones) and a tone-voiced trace caller; the real-model variant (whisper, llama.cpp, Piper
on the bot's side, Piper for the caller) is marked slow."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
import yaml

from voxbench.cli.main import main
from voxbench.transports.pairing import free_port

pytest.importorskip("pipecat", reason="the live extra (pipecat) is not installed")

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "pipecat-bot": ("pipecat_bot", "ws://127.0.0.1:{port}"),
    "twilio-bot": ("twilio_bot", "ws://127.0.0.1:{port}/ws"),
}
FAKE_SCRIPT = [
    {"text": "Sure. Could I have your confirmation code and last name, please?"},
    {"tool_calls": [["get_reservation", {"confirmation_number": "QX7T4M", "last_name": "Lee"}]]},
    {"text": "I have looked up your reservation."},
    {"text": "Is there anything else I can help you with?"},
]
FAST_CALL = {
    "simulator": {
        "vad": {"engine": "energy", "start_secs": 0.1, "stop_secs": 0.25},
        "trace": {"turn_gap_s": 0.8, "no_greeting_s": 3},
    },
    "limits": {"inactivity_s": 10, "drain_s": 1},
    "post_call_transcribe_agent": False,  # the fake bot speaks a buzz: nothing to transcribe
}


@dataclass
class Bot:
    name: str
    url: str
    proc: subprocess.Popen[str]
    log: Path
    log_file: IO[str]

    def log_tail(self) -> str:
        return self.log.read_text()[-3000:]


def start_bot(name: str, tmp: Path, *extra: str, ready_timeout_s: float = 60.0) -> Bot:
    """The example as a user starts it, on a free loopback port; ready when it says so."""
    folder, url = EXAMPLES[name]
    port = free_port()
    log = tmp / f"{folder}.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    log_file = log.open("w")
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "examples" / folder / "bot.py"), "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=log_file,
        text=True,
        env=env,
    )
    bot = Bot(name, url.format(port=port), proc, log, log_file)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], ready_timeout_s)
    line = proc.stdout.readline() if ready else ""
    if not line.startswith("listening on"):
        stop_bot(bot)
        raise AssertionError(f"{folder} did not start in {ready_timeout_s:.0f} s: {line!r}\n{bot.log_tail()}")
    return bot


def stop_bot(bot: Bot) -> None:
    bot.proc.terminate()
    try:
        bot.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        bot.proc.kill()
        bot.proc.wait()
    if bot.proc.stdout is not None:
        bot.proc.stdout.close()
    bot.log_file.close()


@pytest.fixture
def fake_bot(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Bot]:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(FAKE_SCRIPT))
    bot = start_bot(request.param, tmp_path, "--fake-services", "--fake-script", str(script))
    yield bot
    stop_bot(bot)


def run_benchmark(
    bot: Bot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: dict[str, object]
) -> Path:
    """`voxbench run --agent NAME --profiles examples/<dir>/profile.yaml` on bb.1, as documented."""
    monkeypatch.setenv("VOXBENCH_EXTERNAL_AGENT_URL", bot.url)
    # the run's worker processes import these sources (a worktree's too)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), str(REPO / "src")]))
    cfg = tmp_path / "run.yaml"
    cfg.write_text(yaml.safe_dump(config))
    out = tmp_path / "run"
    folder = EXAMPLES[bot.name][0]
    rc = main(
        [
            "run",
            "--config",
            str(cfg),
            "--agent",
            bot.name,
            "--profiles",
            str(REPO / "examples" / folder / "profile.yaml"),
            "--scenarios",
            "bb.1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert rc == 0
    return out / "records" / "airline__bb.1__t0__clean"


def check_scored_record(rec_dir: Path, bot: Bot) -> dict[str, object]:
    rec = json.loads((rec_dir / "record.json").read_text())
    assert rec["status"] == "completed", (rec.get("error"), bot.log_tail())
    assert rec["agent"]["name"] == bot.name and rec["agent"]["architecture"] == "external"
    metrics = json.loads((rec_dir / "metrics.json").read_text())["metrics"]
    assert "task_completion" in metrics and "response_speed" in metrics
    assert metrics["response_speed"]["score"] is not None  # the bot's answers were heard and timed
    return rec


@pytest.mark.parametrize("fake_bot", ["pipecat-bot", "twilio-bot"], indirect=True)
def test_example_bot_benchmarked_with_fake_services(
    fake_bot: Bot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = {
        "time_limit_s": 60,
        "simulator": {"kind": "trace", "voice": "tone"},
        "call": FAST_CALL,
        "validation": {"validator": "builtin"},
    }
    rec_dir = run_benchmark(fake_bot, tmp_path, monkeypatch, config)
    rec = check_scored_record(rec_dir, fake_bot)
    assert rec["end_reason"] == "trace_finished"
    # the scripted tool call went from the bot through this call's tool bridge, and was recorded
    events = [json.loads(line) for line in (rec_dir / "events.jsonl").read_text().splitlines() if line]
    calls = [e for e in events if e.get("type") == "tool_call"]
    results = [e for e in events if e.get("type") == "tool_result"]
    assert [c["name"] for c in calls] == ["get_reservation"], calls
    assert results and "status" in results[0]
    assert rec["num_tool_calls"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pipecat-bot", "twilio-bot"])
def test_example_bot_benchmarked_with_real_models(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bot starts its own llama.cpp server and warms it: minutes on 2 shared cores
    bot = start_bot(name, tmp_path, ready_timeout_s=1200)
    # a 1.5B model on shared CPU cores can take longer than the caller's default 45 s of
    # silence to answer: this test checks the plumbing with real models, not their speed
    config = {"time_limit_s": 300, "simulator": {"kind": "trace"}, "call": {"limits": {"inactivity_s": 150}}}
    try:
        rec_dir = run_benchmark(bot, tmp_path, monkeypatch, config)
    finally:
        stop_bot(bot)
    check_scored_record(rec_dir, bot)
