"""The example LiveKit agent's local STT and TTS (examples/livekit_agent/agent.py) on the real
models: Piper speaks a sentence through LiveKit's TTS API, whisper hears it back through
LiveKit's STT API. Slow (loads both models); skipped without the livekit extra."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "livekit.agents", reason="livekit-agents is not installed (pip install 'voxbench[livekit]')"
)
pytest.importorskip("faster_whisper", reason="the local models are not installed (voxbench[local])")

from livekit import rtc

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "livekit_agent" / "agent.py"


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("voxbench_example_livekit_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
async def test_piper_speaks_and_whisper_hears_through_livekit_apis() -> None:
    ex = _example()
    text = "Your flight to Chicago leaves at nine in the morning."
    frames: list[rtc.AudioFrame] = []
    async with ex.LocalPiperTTS().synthesize(text) as stream:
        async for audio in stream:
            frames.append(audio.frame)
    spoken = rtc.combine_audio_frames(frames)
    assert spoken.sample_rate == ex.SAMPLE_RATE and spoken.duration > 1.5
    heard = await ex.LocalWhisperSTT().recognize(frames)
    words = heard.alternatives[0].text.lower()
    assert "chicago" in words and "flight" in words, words
