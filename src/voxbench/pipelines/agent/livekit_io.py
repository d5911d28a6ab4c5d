"""The call's audio as a LiveKit ``AgentSession`` hears and speaks it.

LiveKit's session reads an ``io.AudioInput`` and writes an ``io.AudioOutput``; its room I/O
and console are two implementations, these are a third:

* :class:`CallAudioInput`: the caller's audio as it reaches the agent's side of the call
  (pipecat input frames, 16-bit mono PCM), queued for the session.
* :class:`CallAudioOutput`: what the session speaks, played into the call at real-time pace
  in ``chunk_ms`` chunks on the event loop's clock (a virtual clock in tests), keeping
  ``lead_ms`` ahead of the line as a transport does. ``clear_buffer`` (the session stopping
  its speech: the caller interrupted) drops what has not been played and tells the call to
  stop the rest (``on_clear``); the channel then falls silent and the recorder sees the
  agent yield. ``pause``/``resume`` hold and release the rest of an answer (LiveKit pauses
  while it decides whether the caller really interrupted). Playback events (started / finished with the position heard) go back to the
  session, so its chat history is truncated where the caller stopped hearing it.

``on_audio`` and ``on_clear`` are where the call plugs in (the session processor pushes pipecat
frames there). ``stamps``, when a benchmark sets it to a list, keeps when each frame was
pushed and taken (input) or captured, due and played (output), on the loop's clock
(``benchmarks/livekit_adapter_timing.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from livekit import rtc
from livekit.agents.voice import io

_CLOSED = object()

# livekit-agents 1.8 modules whose own delays and stamps read the host clock directly; on a
# virtual clock (tests) ``transports.virtual_loop.virtual_time(LIVEKIT_TIME_READERS)`` points
# them at the loop's, and a call's record is then the same run to run
LIVEKIT_TIME_READERS = (
    "livekit.agents.voice.agent_activity",
    "livekit.agents.voice.agent_session",
    "livekit.agents.voice.audio_recognition",
    "livekit.agents.voice.generation",
    "livekit.agents.voice.io",
    "livekit.agents.voice.speech_handle",
    "livekit.agents.voice.events",
    "livekit.agents.stt.stt",
    "livekit.agents.stt.stream_adapter",
    "livekit.agents.tts.tts",
    "livekit.agents.tts.stream_pacer",
    "livekit.agents.llm.llm",
    "livekit.agents.llm.chat_context",
    "livekit.agents.utils.misc",
)


class CallAudioInput(io.AudioInput):
    """The caller's audio for the session; ``push`` never blocks (the call must not stall)."""

    def __init__(self) -> None:
        super().__init__(label="voxbench call")
        self._queue: asyncio.Queue[tuple[rtc.AudioFrame, float] | object] = asyncio.Queue()
        self._closed = False
        self.stamps: list[tuple[float, float, int]] | None = None  # (pushed, taken, samples)

    def push(self, pcm: bytes, sample_rate: int, num_channels: int = 1) -> None:
        if self._closed or not pcm:
            return
        samples = len(pcm) // (2 * num_channels)
        frame = rtc.AudioFrame(
            data=pcm, sample_rate=sample_rate, num_channels=num_channels, samples_per_channel=samples
        )
        self._queue.put_nowait((frame, asyncio.get_running_loop().time()))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(_CLOSED)

    async def __anext__(self) -> rtc.AudioFrame:
        item = await self._queue.get()
        if item is _CLOSED:
            raise StopAsyncIteration
        assert isinstance(item, tuple)
        frame, pushed = item
        if self.stamps is not None:
            self.stamps.append((pushed, asyncio.get_running_loop().time(), frame.samples_per_channel))
        return frame


AudioSink = Callable[[bytes, int], Coroutine[Any, Any, None]]
ClearSink = Callable[[], Coroutine[Any, Any, None]]


class CallAudioOutput(io.AudioOutput):
    """Plays the session's speech into the call in real time; see the module docstring."""

    def __init__(
        self,
        sample_rate: int,
        on_audio: AudioSink,
        on_clear: ClearSink,
        *,
        chunk_ms: int = 20,
        lead_ms: int = 20,
    ) -> None:
        super().__init__(
            label="voxbench call",
            capabilities=io.AudioOutputCapabilities(pause=True),
            sample_rate=sample_rate,
        )
        self._sr = sample_rate
        self._on_audio = on_audio
        self._on_clear = on_clear
        self._chunk_bytes = 2 * max(1, sample_rate * chunk_ms // 1000)
        self._lead_s = lead_ms / 1000
        self._chunks: deque[tuple[bytes, float]] = deque()  # (pcm, loop time captured)
        self._partial = b""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # the current segment (capture_frame .. flush), as LiveKit counts them
        self._in_segment = False
        self._flushed = False
        self._cleared = False
        self._paused = False
        self._played_s = 0.0
        self._next_t: float | None = None  # when the next chunk is due on the line
        self.interruptions = 0
        self._clearing: asyncio.Task[None] | None = None
        # (captured, slot, pushed) per chunk, loop time, when a benchmark asks (a list, not None);
        # slot: when the chunk was due on the line (it is pushed up to lead_ms before)
        self.stamps: list[tuple[float, float, float]] | None = None

    # --- LiveKit's side ------------------------------------------------------------
    async def capture_frame(self, frame: rtc.AudioFrame) -> None:
        if self._cleared:
            return  # the rest of an interrupted segment: never heard
        await super().capture_frame(frame)
        if not self._in_segment:
            self._in_segment, self._flushed, self._played_s, self._paused = True, False, 0.0, False
        now = asyncio.get_running_loop().time()
        data = self._partial + bytes(frame.data)
        n = len(data) - len(data) % self._chunk_bytes
        for i in range(0, n, self._chunk_bytes):
            self._chunks.append((data[i : i + self._chunk_bytes], now))
        self._partial = data[n:]
        self._ensure_task()
        self._wake.set()

    def flush(self) -> None:
        super().flush()
        if self._partial:
            self._chunks.append((self._partial, asyncio.get_running_loop().time()))
            self._partial = b""
        if self._cleared:
            self._finish(interrupted=True)
            return
        self._flushed = True
        self._ensure_task()
        self._wake.set()

    def clear_buffer(self) -> None:
        self._paused = False
        self._chunks.clear()
        self._partial = b""
        if not self._in_segment:
            return
        self.interruptions += 1
        self._cleared = True
        self._next_t = None  # the next segment starts when it comes, not after the lead
        self._ensure_task()
        self._clearing = asyncio.get_running_loop().create_task(self._on_clear(), name="livekit-output-clear")
        if self._flushed:
            self._finish(interrupted=True)

    def pause(self) -> None:
        """Hold the rest of the answer (LiveKit pauses on a possible interruption and resumes
        if it was none); what was already handed to the call still plays (at most the lead)."""
        self._paused = True

    def resume(self) -> None:
        self._paused = False
        self._wake.set()

    # --- the line ------------------------------------------------------------------
    def _finish(self, *, interrupted: bool) -> None:
        played = self._played_s
        self._in_segment = self._flushed = self._cleared = False
        self._played_s = 0.0
        self.on_playback_finished(playback_position=played, interrupted=interrupted)

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._pace(), name="livekit-output-pace")

    async def _pace(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            if not self._chunks:
                if self._in_segment and self._flushed and not self._cleared:
                    due = self._next_t or now
                    if due > now:  # the last chunk is still being heard
                        await self._sleep_or_wake(due - now)
                        continue
                    self._finish(interrupted=False)
                self._wake.clear()
                await self._wake.wait()
                continue
            slot = self._next_t  # where this chunk belongs on the line (None: nothing scheduled)
            if self._paused:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self._next_t is None or self._next_t < now:
                self._next_t = now  # the line is idle (or ran dry): play from now
            wait = self._next_t - self._lead_s - now
            if wait > 0:
                await self._sleep_or_wake(wait)
                continue
            pcm, captured = self._chunks.popleft()
            if self._played_s == 0.0:
                self.on_playback_started(created_at=time.time())
            if self.stamps is not None:
                self.stamps.append((captured, now if slot is None else slot, now))
            self._next_t += len(pcm) / (2 * self._sr)
            self._played_s += len(pcm) / (2 * self._sr)
            await self._on_audio(pcm, self._sr)

    async def _sleep_or_wake(self, seconds: float) -> None:
        """Sleep, unless the session changes something first (a clear, a flush, more audio)."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)

    async def aclose(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        self._task = None
