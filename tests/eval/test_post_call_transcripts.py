"""Post-call transcripts (the harness transcribed the recording after the call) feed the
speech-fidelity metrics, and are never taken for the agent's own STT of the caller."""

from __future__ import annotations

from pathlib import Path

from tests.eval.builders import Conv
from voxbench.eval.from_record import load_context
from voxbench.eval.runner import score_context
from voxbench.eval.types import EvalConfig
from voxbench.records import Transcript

METRICS = ["agent_speech_fidelity", "tts_fidelity", "stt_wer"]


def _conv() -> Conv:
    conv = Conv().agent(0.5, 2.0, "Hello, how can I help?")
    conv.user(3.0, 4.0, "My code is ZK3FFW.", heard="My code is ZK3FFW.")
    conv.agent(5.0, 7.0, "Found ZK3FFW, your gate is 12.")
    return conv


def test_post_call_agent_transcripts_score_fidelity(tmp_path: Path) -> None:
    conv = _conv()
    conv.events += [
        Transcript(t=2.0, channel="agent", text="Hello, how can I help?", source="post_call"),
        Transcript(t=7.0, channel="agent", text="Found ZK3FFW, your gate is 13.", source="post_call"),
    ]
    ctx = load_context(conv.write(tmp_path / "r"))
    got = score_context(ctx, EvalConfig(), METRICS).metrics
    asf = got["agent_speech_fidelity"]
    assert asf.score == 0.0 and asf.details["per_turn_entities"][1]["missing"] == ["12"]
    assert asf.params["agent_transcript"] == "post_call"
    assert got["tts_fidelity"].score == 0.5 and got["tts_fidelity"].params["agent_transcript"] == "post_call"
    assert got["stt_wer"].score == 0.0  # the agent heard the caller right; post-call text is not involved


def test_post_call_user_transcript_is_not_the_agents_stt(tmp_path: Path) -> None:
    conv = Conv().agent(0.5, 2.0, "Hello, how can I help?")
    conv.events += [
        *Conv().user(3.0, 4.0, "My code is ZK3FFW.").events[:3],  # intended + speech, no live STT
        Transcript(t=4.0, side="harness", channel="user", text="My code is ZK3FFW.", source="post_call"),
    ]
    ctx = load_context(conv.write(tmp_path / "r"))
    assert ctx.transcribed_user_turns == {}
    assert score_context(ctx, EvalConfig(), ["stt_wer"]).metrics["stt_wer"].skipped


def test_live_transcripts_carry_no_source_param(tmp_path: Path) -> None:
    conv = Conv().agent(0.5, 2.0, "Hello, how can I help?", heard="Hello, how can I help?")
    conv.user(3.0, 4.0, "Which gate?").agent(5.0, 7.0, "Your gate is 12.", heard="Your gate is 12.")
    got = score_context(load_context(conv.write(tmp_path / "r")), EvalConfig(), METRICS).metrics
    assert got["agent_speech_fidelity"].score == 1.0
    assert "agent_transcript" not in got["agent_speech_fidelity"].params
