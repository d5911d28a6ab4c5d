"""Writing one conversation directory from a finished recorder."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from voxbench.processors.audio_track import stereo_mix
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import ConversationRecord, Event, atomic_write_bytes, write_record
from voxbench.records.models import AudioFiles


def _wav_bytes(data: np.ndarray, sample_rate: int) -> bytes:
    buf = io.BytesIO()
    sf.write(buf, data, sample_rate, format="WAV", subtype="PCM_16")
    return buf.getvalue()


def write_audio(out: Path, recorder: ConversationRecorder) -> AudioFiles:
    sr = recorder.sample_rate
    user = recorder.tracks["user"].samples()
    agent = recorder.tracks["agent"].samples()
    n = max(user.size, agent.size)
    user = recorder.tracks["user"].samples(n)
    agent = recorder.tracks["agent"].samples(n)
    atomic_write_bytes(out / "user.wav", _wav_bytes(user, sr))
    atomic_write_bytes(out / "agent.wav", _wav_bytes(agent, sr))
    atomic_write_bytes(out / "mix.wav", _wav_bytes(stereo_mix(user, agent), sr))
    files = AudioFiles(sample_rate=sr)
    if "user" in recorder.reference:  # a perturbed caller: what it said before the line
        atomic_write_bytes(out / "user_clean.wav", _wav_bytes(recorder.reference["user"].samples(n)[:n], sr))
        files.user_clean = "user_clean.wav"
    return files


def write_conversation(
    out: Path,
    record: ConversationRecord,
    events: list[Event],
    recorder: ConversationRecorder,
    scenario: dict[str, Any],
    agent: dict[str, Any],
    initial_db: dict[str, Any],
    final_db: dict[str, Any],
) -> Path:
    """Audio first, `record.json` last (its presence marks a complete directory)."""
    out.mkdir(parents=True, exist_ok=True)
    record.audio = write_audio(out, recorder)
    return write_record(
        out,
        record,
        events=events,
        scenario=scenario,
        agent=agent,
        initial_db=initial_db,
        final_db=final_db,
    )
