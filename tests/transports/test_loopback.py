"""Pitfalls (b), (c), (d) over a real loopback WebSocket, on the virtual clock.

The exchanges run on `VirtualClockLoop` (real sockets, virtual time), so what is heard in
a listening window is exact: every chunk leaves on its slot, none late.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import pytest
from pipecat.frames.frames import (
    Frame,
    InputAudioRawFrame,
    OutputAudioRawFrame,
    StartFrame,
    TTSAudioRawFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.workers.runner import WorkerRunner

from voxbench.transports.config import WireConfig
from voxbench.transports.paced import PacedClientOutput, SampleClockPacer
from voxbench.transports.pacing import GapFillProcessor
from voxbench.transports.pairing import client_params, free_port, wait_for_server
from voxbench.transports.serializers import AudioOnlyProtobufSerializer
from voxbench.transports.virtual_loop import run_virtual
from voxbench.transports.wire import make_client, make_server, simulator_serializer

SR = 16000


class Collector(FrameProcessor):
    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.sizes: list[int] = []
        self.first: float | None = None
        self.sender_pacer: SampleClockPacer | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, InputAudioRawFrame):
            self.sizes.append(len(frame.audio))
            self.first = self.first or asyncio.get_running_loop().time()
        await self.push_frame(frame, direction)


class Burst(FrameProcessor):
    """Speaks one 0.2 s burst when the pipeline starts, then nothing (like a TTS)."""

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)
        if isinstance(frame, StartFrame):
            pcm = (np.ones(int(0.2 * SR)) * 3000).astype(np.int16).tobytes()
            await self.push_frame(TTSStartedFrame())
            await self.push_frame(TTSAudioRawFrame(pcm, SR, 1))
            await self.push_frame(TTSStoppedFrame())


def _worker(stages: list[FrameProcessor]) -> PipelineWorker:
    return PipelineWorker(
        Pipeline(stages),
        params=PipelineParams(audio_in_sample_rate=SR, audio_out_sample_rate=SR),
        idle_timeout_secs=None,
        enable_rtvi=False,
        enable_turn_tracking=False,
    )


async def _exchange(continuous: bool, listen_s: float = 1.2, chunk_ms: int = 40) -> Collector:
    wire = WireConfig(continuous_output=continuous, chunk_ms=chunk_ms)
    port = free_port()
    server = make_server(wire, port)
    col = Collector()
    sw = _worker([server.input(), col, server.output()])
    sr_ = WorkerRunner(handle_sigint=False)
    await sr_.add_workers(sw)
    st = asyncio.create_task(sr_.run())
    await wait_for_server("127.0.0.1", port, 5)
    ser = simulator_serializer(wire, None)
    client = make_client(wire, port, ser)
    cw = _worker([client.input(), Burst(), client.output()])

    @cw.event_handler("on_pipeline_started")
    async def _listening(*_a: Any) -> None:
        # as the runner does: audio arriving before the input queue exists kills the
        # client's receive task (the server streams from the moment it connects)
        ser.accepting = True

    cr = WorkerRunner(handle_sigint=False)
    await cr.add_workers(cw)
    ct = asyncio.create_task(cr.run())
    await asyncio.sleep(listen_s)
    await cw.cancel()
    await sw.cancel()
    await asyncio.wait_for(asyncio.gather(ct, st, return_exceptions=True), 10)
    out = client.output()
    col.sender_pacer = out.pacer if isinstance(out, PacedClientOutput) else None
    return col


def test_continuous_output_streams_while_idle() -> None:
    """(b) with the mixer the far side hears a real-time stream, not just the 0.2 s burst:
    the whole 1.2 s listening window, 30 chunks of 40 ms, none late."""
    col = run_virtual(_exchange(continuous=True))
    assert len(col.sizes) == 30 and sum(col.sizes) / 2 / SR == 1.2
    assert col.sender_pacer is not None
    assert (col.sender_pacer.reanchors, col.sender_pacer.max_late_s) == (0, 0.0)


def test_chunks_carry_no_wav_header() -> None:
    """(c) every chunk is exactly 40 ms of PCM (a WAV header would add 44 bytes)."""
    col = run_virtual(_exchange(continuous=True, listen_s=0.6))
    assert len(col.sizes) == 15
    assert col.sizes and all(n == 1280 for n in col.sizes), set(col.sizes)
    assert client_params(AudioOnlyProtobufSerializer(), SR).add_wav_header is False


def test_chunk_size_is_honoured_and_paced_on_the_sample_clock() -> None:
    """`WireConfig.chunk_ms` sets what one message carries; the sender's pipecat output asked
    our pacer (not its own sleep-after-send) for every chunk it sent."""
    col = run_virtual(_exchange(continuous=True, listen_s=0.6, chunk_ms=20))
    assert len(col.sizes) == 30 and all(n == 640 for n in col.sizes), set(col.sizes)
    pacer = col.sender_pacer
    assert pacer is not None and pacer.due is not None
    assert pacer.samples_sent > 0


def test_gap_fill_keeps_received_audio_continuous() -> None:
    """(b) a far end that goes quiet still yields a real-time stream downstream: the 40 ms
    received, then 20 ms silence ticks (after the 60 ms grace) through the 0.5 s pause."""
    from pipecat.tests.utils import SleepFrame, run_test

    frames = [InputAudioRawFrame(b"\x00\x10" * 640, SR, 1), SleepFrame(sleep=0.5)]
    down, _ = run_virtual(
        run_test(
            GapFillProcessor(SR),
            frames_to_send=frames,
            pipeline_params=PipelineParams(audio_in_sample_rate=SR),
        )
    )
    audio = [f for f in down if isinstance(f, InputAudioRawFrame)]
    total = sum(len(f.audio) for f in audio) / 2 / SR
    assert (len(audio), total) == (21, 0.44), (len(audio), total)


def test_wait_for_server_covers_connect_race() -> None:
    """(d) a server that comes up late is waited for; a bare connect would be refused. On the
    virtual clock: found at the first 50 ms probe after it came up (0.45 s), and a missing
    server times out at the first probe past 0.3 s (0.35 s)."""
    waited = run_virtual(_connect_race())
    assert [round(w, 9) for w in waited] == [0.45, 0.35]


async def _connect_race() -> tuple[float, float]:
    port = free_port()
    loop = asyncio.get_running_loop()

    async def late_server() -> asyncio.Server:
        await asyncio.sleep(0.4)
        return await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", port)

    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)
    srv_task = asyncio.create_task(late_server())
    t0 = loop.time()
    await wait_for_server("127.0.0.1", port, timeout_s=5)
    found = loop.time() - t0
    srv = await srv_task
    srv.close()
    await srv.wait_closed()
    t0 = loop.time()
    with pytest.raises(TimeoutError):
        await wait_for_server("127.0.0.1", free_port(), timeout_s=0.3)
    return found, loop.time() - t0


def test_no_audio_output_without_mixer_is_bursty() -> None:
    """Documents the pipecat behaviour the mixer fixes: idle output sends nothing (the 0.2 s
    burst, then silence on the wire for the rest of the 1.2 s)."""
    col = run_virtual(_exchange(continuous=False))
    assert sum(col.sizes) / 2 / SR == 0.2
    _ = OutputAudioRawFrame  # keep import for readers comparing with the sender side
