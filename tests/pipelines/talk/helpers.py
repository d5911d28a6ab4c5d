"""Helpers for the mic-in-the-loop tests: a fake microphone WAV and headless Chromium."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from tests.fakes.services import buzz

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


def chromium_path() -> Path:
    if not CHROMIUM.is_file():
        pytest.skip(
            "Debian chromium not installed (/usr/bin/chromium): `apt-get install -y chromium` as root "
            "(.ci/run does it); the browser talk test needs it"
        )
    pytest.importorskip("playwright.async_api", reason="playwright (dev extra) not installed")
    pytest.importorskip("aiortc", reason="aiortc not installed: pip install 'voxbench[talk]'")
    return CHROMIUM


def fake_mic_flags(wav: Path) -> list[str]:
    return [
        *HEADLESS_FLAGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={wav}%noloop",
    ]


def write_mic_wav(path: Path, segments: list[tuple[float, np.ndarray]], total_s: float, sr: int) -> Path:
    """Place int16 `segments` at their start times in `total_s` of silence (16-bit PCM WAV)."""
    out = np.zeros(round(total_s * sr), dtype=np.int16)
    for t, pcm in segments:
        a = round(t * sr)
        out[a : a + pcm.size] = pcm[: max(0, out.size - a)]
    sf.write(path, out, sr, subtype="PCM_16")
    return path


def buzz_segments(onsets: list[float], dur_s: float, sr: int) -> list[tuple[float, np.ndarray]]:
    return [(t, buzz(dur_s, sr, f0=190.0, level_db=-12.0)) for t in onsets]
