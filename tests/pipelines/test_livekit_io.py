"""CallAudioOutput, the LiveKit session's speech played into the call, on the virtual clock:
real-time pace, the position LiveKit is told at the end of an answer, an interruption
(clear) and a pause/resume."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip(
    "livekit.agents", reason="livekit-agents is not installed (pip install 'voxbench[livekit]')"
)

from livekit import rtc
from livekit.agents.voice.io import PlaybackFinishedEvent

from voxbench.pipelines.agent.livekit_io import CallAudioInput, CallAudioOutput
from voxbench.transports.virtual_loop import run_virtual

SR = 16000


def frame(seconds: float) -> rtc.AudioFrame:
    n = int(seconds * SR)
    return rtc.AudioFrame(data=b"\x01\x00" * n, sample_rate=SR, num_channels=1, samples_per_channel=n)


class Line:
    """What reached the call: (loop time, seconds of audio) per push, and clears."""

    def __init__(self) -> None:
        self.pushed: list[tuple[float, float]] = []
        self.clears: list[float] = []

    async def audio(self, pcm: bytes, sr: int) -> None:
        self.pushed.append((asyncio.get_running_loop().time(), len(pcm) / 2 / sr))

    async def clear(self) -> None:
        self.clears.append(asyncio.get_running_loop().time())


def output() -> tuple[CallAudioOutput, Line, list[PlaybackFinishedEvent]]:
    line = Line()
    out = CallAudioOutput(SR, line.audio, line.clear)
    done: list[PlaybackFinishedEvent] = []
    out.on("playback_finished", done.append)
    return out, line, done


def test_an_answer_plays_in_real_time_and_reports_its_length() -> None:
    async def go() -> Any:
        out, line, done = output()
        t0 = asyncio.get_running_loop().time()
        await out.capture_frame(frame(1.0))  # faster than real time, as a TTS delivers
        out.flush()
        ev = await out.wait_for_playout()
        return t0, asyncio.get_running_loop().time(), line, done, ev

    t0, t1, line, done, ev = run_virtual(go())
    assert len(line.pushed) == 50 and all(d == pytest.approx(0.02) for _, d in line.pushed)
    # chunk k leaves 20 ms before its slot; the answer is over when its last chunk has played
    assert [round(t - t0, 6) for t, _ in line.pushed[:3]] == [0.0, 0.0, 0.02]
    assert t1 - t0 == pytest.approx(1.0)
    assert len(done) == 1 and not ev.interrupted and ev.playback_position == pytest.approx(1.0)


def test_clear_drops_the_rest_and_reports_what_was_heard() -> None:
    async def go() -> Any:
        out, line, _ = output()
        t0 = asyncio.get_running_loop().time()
        await out.capture_frame(frame(2.0))
        await asyncio.sleep(0.5)
        out.clear_buffer()  # the caller interrupted
        out.flush()
        ev = await out.wait_for_playout()
        await asyncio.sleep(1.0)
        return t0, line, out, ev

    t0, line, out, ev = run_virtual(go())
    assert ev.interrupted and out.interruptions == 1
    heard = sum(d for _, d in line.pushed)
    assert heard == pytest.approx(0.52)  # 0.5 s played plus the 20 ms lead, then nothing
    assert ev.playback_position == pytest.approx(heard)
    assert line.clears == [pytest.approx(t0 + 0.5)]


def test_pause_holds_the_answer_and_resume_plays_the_rest() -> None:
    async def go() -> Any:
        out, line, _ = output()
        t0 = asyncio.get_running_loop().time()
        await out.capture_frame(frame(1.0))
        out.flush()
        await asyncio.sleep(0.3)
        out.pause()
        await asyncio.sleep(1.0)
        held = sum(d for _, d in line.pushed)
        out.resume()
        ev = await out.wait_for_playout()
        return t0, asyncio.get_running_loop().time(), held, line, ev

    t0, t1, held, line, ev = run_virtual(go())
    assert held == pytest.approx(0.32)
    assert sum(d for _, d in line.pushed) == pytest.approx(1.0)
    assert not ev.interrupted and ev.playback_position == pytest.approx(1.0)
    assert t1 - t0 == pytest.approx(2.0, abs=0.03)  # 1 s of speech plus the 1 s pause


def test_input_hands_frames_over_in_order_and_ends_on_close() -> None:
    async def go() -> list[int]:
        inp = CallAudioInput()
        for n in (320, 640):
            inp.push(b"\x00\x00" * n, SR)
        inp.close()
        return [f.samples_per_channel async for f in inp]

    assert run_virtual(go()) == [320, 640]
