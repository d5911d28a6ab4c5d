"""Post-call transcription of the agent channel: a hand-built record with real Piper speech,
transcribed by the real tiny.en whisper, then scored by eval's offline fidelity metrics."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from voxbench.eval.from_record import load_context
from voxbench.eval.runner import score_context
from voxbench.eval.types import EvalConfig
from voxbench.pipelines.call import post_call_stt
from voxbench.pipelines.call.post_call_stt import agent_segments, transcribe_agent_record
from voxbench.processors.perturbations import voices
from voxbench.records import (
    ConversationRecord,
    EndEvent,
    Event,
    Speech,
    Transcript,
    TTSText,
    Utterance,
    read_record,
    write_record,
)
from voxbench.records.events import Channel
from voxbench.records.models import AudioFiles

SR = 16_000
GREETING = "Hello, how can I help you today?"
ANSWER = "Your flight to Denver leaves from gate 12 at 5 PM."


def _speech(t0: float, t1: float, channel: Channel) -> list[Event]:
    return [
        Speech(t=t0, channel=channel, state="onset"),
        Speech(t=t1, channel=channel, state="offset"),
    ]


def test_segments_merge_short_pauses_but_not_across_the_caller() -> None:
    events = [
        *_speech(0.5, 1.5, "agent"),
        *_speech(1.9, 2.5, "agent"),  # 0.4 s pause: same utterance
        *_speech(2.6, 3.0, "user"),
        *_speech(2.9, 3.5, "agent"),  # 0.4 s after, but the caller spoke in between
        *_speech(6.0, 6.1, "agent"),  # a 0.1 s blip
    ]
    assert agent_segments(events, np.zeros(8 * SR, np.int16), SR) == [(0.5, 2.5), (2.9, 3.5)]


def test_segments_from_audio_when_the_record_has_no_stamps() -> None:
    x = np.zeros(4 * SR, np.int16)
    x[SR : 2 * SR] = (8000 * np.sin(np.arange(SR) * 2 * np.pi * 220 / SR)).astype(np.int16)
    [(s, t)] = agent_segments([], x, SR)
    assert abs(s - 1.0) < 0.05 and abs(t - 2.0) < 0.4


def _record(tmp_path: Path) -> Path:
    """Greeting 0.5 s in, a caller turn (live agent STT of it), the answer: no agent transcripts."""
    track = np.zeros(0, np.float32)
    events: list[Event] = []
    for start, text in ((0.5, GREETING), (None, ANSWER)):
        audio, sr = voices.piper_synthesize(text)
        audio = audio if sr == SR else _resample(audio, sr)
        begin = start if start is not None else track.size / SR + 0.8
        track = np.concatenate([track, np.zeros(round(begin * SR) - track.size, np.float32), audio])
        end = track.size / SR
        events += [
            TTSText(t=begin - 0.3, side="agent", channel="agent", text=text),
            *_speech(begin, end, "agent"),
        ]
        if start is not None:  # the caller answers the greeting
            u0 = end + 0.8
            events += [
                Utterance(t=u0 - 0.2, side="user", channel="user", text="When does my flight leave?"),
                *_speech(u0, u0 + 1.5, "user"),
                Transcript(t=u0 + 1.8, side="agent", channel="user", text="When does my flight leave?"),
            ]
            track = np.concatenate([track, np.zeros(round((u0 + 1.5) * SR) - track.size, np.float32)])
    events.append(EndEvent(t=track.size / SR + 0.5, reason="trace_finished"))
    rec = ConversationRecord(
        conversation_id="pc",
        domain="airline",
        scenario_id="pc",
        end_reason="trace_finished",
        audio=AudioFiles(sample_rate=SR, user=None, mix=None),
    )
    out = write_record(tmp_path / "rec", rec, events=events, scenario={}, agent={})
    sf.write(out / "agent.wav", (track * 32767).astype(np.int16), SR, subtype="PCM_16")
    return out


def _resample(audio: np.ndarray, sr: int) -> np.ndarray:
    import soxr

    return np.asarray(soxr.resample(audio, sr, SR), dtype=np.float32)


@pytest.mark.slow  # about 5 s alone, 15 s with other models on the cores
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_post_call_transcripts_make_fidelity_scorable(tmp_path: Path) -> None:
    pytest.importorskip("faster_whisper")
    if not voices.piper_available():
        pytest.skip("Piper voice not installed")
    out = _record(tmp_path)
    before = score_context(load_context(out), EvalConfig(), ["agent_speech_fidelity", "tts_fidelity"])
    assert all(m.details.get("unscored") for m in before.metrics.values())

    done = transcribe_agent_record(out)
    assert (done.status, done.segments, done.transcripts) == ("transcribed", 2, 2)
    heard = [e for e in read_record(out).events if isinstance(e, Transcript) and e.channel == "agent"]
    assert {(e.side, e.source) for e in heard} == {("harness", "post_call")}
    assert "12" in heard[1].text and "denver" in heard[1].text.lower()
    assert json.loads((out / "record.json").read_text())["extra"]["post_call_stt"]["transcripts"] == 2

    ctx = load_context(out)
    assert set(ctx.transcribed_assistant_turns) == {0, 1}
    assert ctx.transcribed_user_turns == {1: "When does my flight leave?"}  # stt_wer's input untouched
    after = score_context(ctx, EvalConfig(), ["agent_speech_fidelity", "tts_fidelity"]).metrics
    asf = after["agent_speech_fidelity"]
    assert asf.score == 1.0 and asf.params["agent_transcript"] == "post_call"
    assert after["tts_fidelity"].score is not None
    assert after["tts_fidelity"].params["agent_transcript"] == "post_call"

    n = len(read_record(out).events)
    again = transcribe_agent_record(out)  # idempotent: agent transcripts exist now
    assert again.status == "skipped" and len(read_record(out).events) == n


def test_no_whisper_skips_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(_model: str) -> None:
        raise ImportError("No module named 'faster_whisper'")

    rec = ConversationRecord(
        conversation_id="x", domain="airline", scenario_id="x", audio=AudioFiles(sample_rate=SR)
    )
    out = write_record(tmp_path / "r", rec, events=[*_speech(0.1, 0.9, "agent")])
    sf.write(out / "agent.wav", np.zeros(SR, np.int16), SR, subtype="PCM_16")
    monkeypatch.setattr(post_call_stt, "_transcriber", missing)
    done = transcribe_agent_record(out)
    assert done.status == "skipped" and "faster_whisper" in done.reason
    assert len(read_record(out).events) == 2
