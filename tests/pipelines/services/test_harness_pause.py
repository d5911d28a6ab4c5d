"""A silence the caller's TTS held past its natural length reaches the record as a typed event.

The TTS is the real :class:`LocalTTSService` (pipecat's ``TTSService``, audio contexts and all)
around a synthesiser that plays the Kokoro synth's part: sentence by sentence through
``paced_chunks``, on a fake clock that advances ``rtf`` seconds per second of audio made. The
pipeline runs on the virtual clock (a worker thread's job runs inline there). The recorder is
the real observer; its events are compared with the pauses ``paced_chunks`` reported.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from pipecat.frames.frames import EndFrame, Frame, InterruptionFrame, TTSAudioRawFrame, TTSSpeakFrame
from pipecat.observers.base_observer import FramePushed
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.tests.utils import run_test
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.services.local_tts import LocalTTSService
from voxbench.pipelines.services.playout import HeldPause, OpenPause, paced_chunks
from voxbench.processors.clock import ConversationClock
from voxbench.processors.harness_pause import HarnessPauseFrame
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import HarnessPause
from voxbench.records.voice import split_sentences
from voxbench.transports.virtual_loop import run_virtual

SR = 16_000
SECONDS_PER_CHAR = 0.065
LINE = (
    "I need to change my flight. The confirmation number is Q X 7 T 4 M. "
    "My last name is Whitfield. I'd like to move the return to November 8, 2026."
)


@dataclass(frozen=True)
class _Voice:
    model: str = "fake-paced"
    voice_id: str = "fake:paced"


class PacedSynth:
    """The synth side of a local TTS (``local_tts.Synth``): whole sentences released by
    ``paced_chunks`` on its own clock, which synthesis advances by ``rtf`` per second of audio."""

    params = _Voice()

    def __init__(self, rtf: float) -> None:
        self.rtf = rtf
        self.t = 0.0
        self.reported: list[HeldPause] = []

    def _synth(self, i: int, text: str) -> bytes:
        secs = len(text) * SECONDS_PER_CHAR
        self.t += self.rtf * secs
        return b"\x10\x00" * round(secs * SR)

    def iter_sentences(
        self,
        text: str,
        out_rate: int,
        on_pause: Callable[[HeldPause], None] | None = None,
        on_open: Callable[[OpenPause], None] | None = None,
    ) -> Iterator[bytes]:
        def note(p: HeldPause) -> None:
            self.reported.append(p)
            if on_pause is not None:
                on_pause(p)

        return paced_chunks(
            split_sentences(text),
            self._synth,
            2.0 * out_rate,
            now=lambda: self.t,
            on_pause=note,
            on_open=on_open,
        )


def _speak(rtf: float) -> tuple[PacedSynth, list[Frame], ConversationRecorder]:
    synth = PacedSynth(rtf)
    tts = LocalTTSService(synth, sample_rate=SR)
    rec = ConversationRecorder(ConversationClock(), SR)
    down, _ = run_virtual(
        run_test(
            Pipeline([tts]),
            frames_to_send=[TTSSpeakFrame(LINE)],
            observers=[rec.observer("user")],
        )
    )
    return synth, list(down), rec


@pytest.mark.parametrize("rtf", [2.0, 3.0])
def test_a_slow_voice_s_pauses_are_recorded_for_the_caller_with_their_line(rtf: float) -> None:
    synth, down, rec = _speak(rtf)
    assert synth.reported  # the machine is slower than real time: the line was paused
    frames = [f for f in down if isinstance(f, HarnessPauseFrame)]
    assert [(f.duration_s, f.sentence) for f in frames] == [(p.length_s, p.sentence) for p in synth.reported]
    for f in frames:  # each right before the chunk whose release ended it
        assert isinstance(down[down.index(f) + 1], TTSAudioRawFrame)
    events = [e for e in rec.events if isinstance(e, HarnessPause)]
    assert [(e.side, e.channel, e.duration_s, e.sentence, e.line) for e in events] == [
        ("user", "user", p.length_s, p.sentence, LINE) for p in synth.reported
    ]


def test_a_voice_faster_than_real_time_records_no_pause() -> None:
    synth, down, rec = _speak(0.3)
    assert synth.reported == []
    assert not any(isinstance(f, HarnessPauseFrame) for f in down)
    assert not any(isinstance(e, HarnessPause) for e in rec.events)


def test_the_event_starts_where_the_silence_did_on_the_call_clock() -> None:
    """Pushed when the chunk ending the silence is released: the event is back-dated by its length."""
    rec = ConversationRecorder(ConversationClock(), SR)
    src, dst = FrameProcessor(), FrameProcessor()
    frame = HarnessPauseFrame(duration_s=2.5, sentence=2, line="A. B. C.")
    pushed = FramePushed(
        source=src,
        destination=dst,
        frame=frame,
        direction=FrameDirection.DOWNSTREAM,
        timestamp=12_000_000_000,
    )
    run_virtual(rec.observer("user").on_push_frame(pushed))
    assert rec.events == [HarnessPause(t=9.5, side="user", duration_s=2.5, sentence=2, line="A. B. C.")]
    run_virtual(rec.observer("agent").on_push_frame(pushed))  # only the caller's voice pauses so
    assert len(rec.events) == 1


class StalledSynth(PacedSynth):
    """A voice whose first sentence takes 5 s on its clock and then stalls (in the worker
    thread) until ``release`` is set: the line is held before its first word."""

    def __init__(self) -> None:
        super().__init__(rtf=0.0)
        self.stalled = threading.Event()
        self.release = threading.Event()

    def _synth(self, i: int, text: str) -> bytes:
        if i == 0:
            self.t += 5.0
            self.stalled.set()
            self.release.wait(timeout=60)  # a guard against a hung test, never the measure
        return super()._synth(i, text)


class WithdrawWhenStalled(FrameProcessor):
    """Plays the caller driver's part: the agent started speaking, the line is withdrawn (an
    ``InterruptionFrame`` downstream) once the voice is stalled in it."""

    def __init__(self, synth: StalledSynth) -> None:
        super().__init__()
        self.synth = synth

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)
        if isinstance(frame, TTSSpeakFrame):
            self.create_task(self._withdraw())

    async def _withdraw(self) -> None:
        await asyncio.to_thread(self.synth.stalled.wait)
        await self.push_frame(InterruptionFrame())


async def _call_until_released(synth: StalledSynth, rec: ConversationRecorder) -> list[Frame]:
    """Run the line through the caller's voice; end the call once the voice has gone on."""
    down: list[Frame] = []

    class Sink(FrameProcessor):
        async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
            await super().process_frame(frame, direction)
            down.append(frame)
            await self.push_frame(frame, direction)

    pipeline = Pipeline([WithdrawWhenStalled(synth), LocalTTSService(synth, sample_rate=SR), Sink()])
    worker = PipelineWorker(pipeline, cancel_on_idle_timeout=False, observers=[rec.observer("user")])

    async def speak() -> None:
        await worker.queue_frame(TTSSpeakFrame(LINE))
        await asyncio.to_thread(synth.release.wait, 60)  # a guard: no pause written ends the call too
        await worker.queue_frame(EndFrame())

    runner = WorkerRunner()
    await runner.add_workers(worker)
    await asyncio.gather(runner.run(), speak())
    return down


def test_a_line_withdrawn_while_held_records_the_part_of_the_pause_that_played() -> None:
    """Decided at 0 on the voice's clock, held from 2 s (the lead-in) and withdrawn at 5 s: a
    3 s pause before sentence 0, written when the line is withdrawn, with no audio after it."""
    synth = StalledSynth()
    rec = ConversationRecorder(ConversationClock(), SR)
    rec.listeners.append(lambda e: synth.release.set() if isinstance(e, HarnessPause) else None)
    try:
        down = asyncio.run(_call_until_released(synth, rec))
    finally:
        synth.release.set()
    # the one pause written is the one cut short (the stalled thread, let go afterwards, made its
    # chunk and reported its release to nobody: the line was gone)
    [event] = [e for e in rec.events if isinstance(e, HarnessPause)]
    assert (event.duration_s, event.sentence, event.line) == (3.0, 0, LINE)
    assert not any(isinstance(f, TTSAudioRawFrame) for f in down)
    [frame] = [f for f in down if isinstance(f, HarnessPauseFrame)]
    assert isinstance(down[down.index(frame) + 1], InterruptionFrame)
