"""Transcribe the agent's recorded speech after the call, when nothing heard it live.

The LLM caller runs an STT on the agent's audio, so its records carry `transcript`
events on the agent channel. The trace-replay caller and an external agent's records do
not, and without them eval's offline speech-fidelity metrics (agent_speech_fidelity,
tts_fidelity) can only say "unscored". This pass reads a finished record directory,
transcribes each agent speech segment of ``agent.wav`` with the local faster-whisper,
and appends `Transcript(side="harness", channel="agent", source="post_call")` events.

The caller's side gets the same pass (`transcribe_caller_record`): its recording, before any
perturbation (`user_clean.wav`, else `user.wav`), transcribed per caller speech segment into
`Transcript(side="harness", channel="user", source="post_call")` events, which eval never takes
for what the agent heard; offline user_speech_fidelity compares them with what the caller
meant.

It runs after the call (never competing with live audio for the loop), is idempotent
(a record that already has agent-channel transcripts is left alone), and skips cleanly
when faster-whisper or its packaged weights are not installed.
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
import soundfile as sf
from loguru import logger
from pydantic import BaseModel

from voxbench.pipelines.services._assets import ModelAssetError
from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import (
    Event,
    RecordBundle,
    Speech,
    Transcript,
    atomic_write_bytes,
    atomic_write_json,
    read_record,
)

MERGE_GAP_S = 0.6  # pauses inside one agent utterance (between sentences, in spelled codes)
PAD_S = 0.15  # onsets are stamped at the energy threshold: keep the soft word edges
MIN_SEGMENT_S = 0.2  # shorter blips give whisper nothing to go on but room to hallucinate
_LOCK = threading.Lock()  # one model, shared by concurrent calls in a process


class PostCallSTT(BaseModel):
    """What the post-call pass did to one record (kept in ``record.extra["post_call_stt"]``)."""

    status: Literal["transcribed", "skipped"]
    reason: str = ""
    model: str = ""
    segments: int = 0
    transcripts: int = 0
    seconds: float = 0.0


def agent_segments(events: list[Event], agent: np.ndarray, sample_rate: int) -> list[tuple[float, float]]:
    """The agent channel's spans (see `channel_segments`)."""
    return channel_segments(events, agent, sample_rate, "agent")


def channel_segments(
    events: list[Event], audio: np.ndarray, sample_rate: int, channel: str
) -> list[tuple[float, float]]:
    """Agent speech spans to transcribe, on the conversation clock.

    The record's own `speech` onset/offset stamps on `channel` are used (they are what
    eval cuts turns on, so each transcript lands on its turn); without them the same energy
    detector runs on the audio. Spans closer than MERGE_GAP_S are merged, but never across
    an onset of the other side, so one transcript never straddles two turns.
    """
    spans: list[tuple[float, float]] = []
    start: float | None = None
    for e in events:
        if isinstance(e, Speech) and e.channel == channel:
            if e.state == "onset":
                start = e.t
            elif start is not None:
                spans.append((start, e.t))
                start = None
    if start is not None:
        spans.append((start, audio.size / sample_rate))
    if not any(isinstance(e, Speech) and e.channel == channel for e in events):
        spans = detect_segments(audio, sample_rate)
    other = "user" if channel == "agent" else "agent"
    user_onsets = [e.t for e in events if isinstance(e, Speech) and e.channel == other and e.state == "onset"]
    merged: list[tuple[float, float]] = []
    for s, t in spans:
        if (
            merged
            and s - merged[-1][1] < MERGE_GAP_S
            and not any(merged[-1][1] <= u < s for u in user_onsets)
        ):
            merged[-1] = (merged[-1][0], t)
        else:
            merged.append((s, t))
    return [(s, t) for s, t in merged if t - s >= MIN_SEGMENT_S]


@lru_cache(maxsize=2)
def _transcriber(model: str) -> WhisperTranscriber:
    # one thread: other calls of a batch may still be streaming live audio on these cores
    return WhisperTranscriber(WhisperOptions(model=model, cpu_threads=1))


def transcribe_agent_record(record_dir: str | Path, model: str = "tiny.en") -> PostCallSTT:
    """Append post-call agent transcripts to a record directory (events, then record.json).

    Returns what was done; a record that needs nothing, or a machine without
    faster-whisper, gives ``status="skipped"`` with the reason, not an error.
    """
    path = Path(record_dir)
    bundle = read_record(path)
    if any(isinstance(e, Transcript) and e.channel == "agent" for e in bundle.events):
        return PostCallSTT(status="skipped", reason="the record already has agent-channel transcripts")
    wav = bundle.audio_path("agent")
    if wav is None or not wav.is_file():
        return PostCallSTT(status="skipped", reason="no agent.wav")
    done = _transcribe_channel(path, bundle, wav, model, "agent")
    if done.status == "transcribed":
        logger.info(
            f"post-call STT: {done.transcripts} agent transcripts from {done.segments} segments in {done.seconds}s"
        )
    return done


def transcribe_caller_record(record_dir: str | Path, model: str = "tiny.en") -> PostCallSTT:
    """Append post-call transcripts of the caller's own recording (what its voice said), per
    caller speech segment; idempotent; skipped cleanly without whisper or audio."""
    path = Path(record_dir)
    bundle = read_record(path)
    if any(
        isinstance(e, Transcript) and e.channel == "user" and e.source == "post_call" for e in bundle.events
    ):
        return PostCallSTT(status="skipped", reason="the record already has post-call caller transcripts")
    wav = bundle.audio_path("user_clean") or bundle.audio_path("user")
    if wav is None or not wav.is_file():
        return PostCallSTT(status="skipped", reason="no caller audio")
    return _transcribe_channel(path, bundle, wav, model, "user")


_EXTRA_KEY = {"agent": "post_call_stt", "user": "post_call_stt_caller"}


def _transcribe_channel(path: Path, bundle: RecordBundle, wav: Path, model: str, channel: str) -> PostCallSTT:
    """Transcribe ``channel``'s speech spans of ``wav`` and append them as post-call transcripts
    (events.jsonl, then record.json's ``extra``); the one step behind both sides."""
    try:
        stt = _transcriber(model)
    except (ImportError, ModelAssetError) as exc:  # the live extras or the weights package are absent
        return PostCallSTT(status="skipped", reason=f"no local whisper: {exc}")
    t0 = time.perf_counter()
    pcm, sr = sf.read(wav, dtype="int16", always_2d=False)
    pcm = np.asarray(pcm, dtype=np.int16).reshape(-1)
    spans = channel_segments(bundle.events, pcm, sr, channel)
    new: list[Transcript] = []
    for s, t in spans:
        a, b = max(0, round((s - PAD_S) * sr)), min(pcm.size, round((t + PAD_S) * sr))
        with _LOCK:
            text = stt.transcribe(pcm[a:b].astype(np.float32) / 32768.0, sr).strip()
        if text:
            new.append(Transcript(t=t, side="harness", channel=channel, text=text, source="post_call"))
    done = PostCallSTT(
        status="transcribed", model=model, segments=len(spans), transcripts=len(new),
        seconds=round(time.perf_counter() - t0, 3),
    )  # fmt: skip
    events = sorted([*bundle.events, *new], key=lambda e: e.t)
    atomic_write_bytes(path / "events.jsonl", "".join(e.model_dump_json() + "\n" for e in events).encode())
    bundle.record.extra[_EXTRA_KEY[channel]] = done.model_dump(mode="json")
    atomic_write_json(path / "record.json", bundle.record)
    return done
