"""A simulated caller's ear for voice activity and its hand on the phone.

* :class:`VoiceTurns`: the ear of a caller that hears the agent by voice activity only (the
  trace caller): an agent turn has ended when the agent has been quiet ``turn_gap_s`` after
  speaking; it says so with an :class:`AgentTurnFrame` that has no words. A caller that hears
  words gets its turns from its STT and pipecat's turn detection instead; the caller's driver
  (``pipelines/caller/driver.py``) takes either.
* :class:`HangUpFrame` / :class:`CallerHangUp`: the call ends once the caller's goodbye has been
  spoken, not when it was decided.

Pure pipecat (no project import above processors).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    ControlFrame,
    EndFrame,
    Frame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    SystemFrame,
    TTSSpeakFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from voxbench.processors.clock import loop_now


class SpeaksReplies(FrameProcessor):
    """A processor whose reply frames (``LLMFullResponseStartFrame``, ``LLMTextFrame``s,
    ``LLMFullResponseEndFrame``) are words to say, as a model service's are: the recorder keeps
    them as the caller's utterance. The caller's driver speaks the LLM caller's acts this way,
    so its TTS says them a sentence at a time."""


@dataclass
class AgentTurnFrame(SystemFrame):
    """An agent turn heard by voice activity: no words, and how long the agent spoke in it
    (a short turn may be a hold line)."""

    speech_s: float = 0.0


class VoiceTurns(FrameProcessor):
    """Ends an agent turn after ``turn_gap_s`` of agent quiet (VAD frames) and pushes an
    :class:`AgentTurnFrame` downstream. Only a turn heard after the caller's own line counts as
    its reply: when the caller stops speaking, a turn the agent is not in the middle of is
    dropped (the caller cannot tell a reply from speech over its line by voice alone)."""

    def __init__(self, turn_gap_s: float, now: Callable[[], float] = loop_now, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.turn_gap_s = turn_gap_s
        self.now = now
        self._speaking = False
        self._open = False  # the agent has spoken since its last ended turn
        self._segment_start = 0.0
        self._speech_s = 0.0
        self._timer: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, EndFrame | CancelFrame):
            await self._cancel_timer()
        elif isinstance(frame, VADUserStartedSpeakingFrame):
            await self._cancel_timer()
            self._speaking = self._open = True
            self._segment_start = self.now()
        elif isinstance(frame, VADUserStoppedSpeakingFrame):
            self._speaking = False
            self._speech_s += self.now() - self._segment_start
            if self._open:
                self._timer = self.create_task(self._end_turn_when_quiet())
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._open = self._speaking
            self._speech_s = 0.0
            if not self._speaking:
                await self._cancel_timer()
        await self.push_frame(frame, direction)

    async def _cancel_timer(self) -> None:
        if self._timer is not None:
            await self.cancel_task(self._timer)
            self._timer = None

    async def _end_turn_when_quiet(self) -> None:
        await asyncio.sleep(self.turn_gap_s)
        self._timer = None
        speech, self._speech_s, self._open = self._speech_s, 0.0, False
        await self.push_frame(AgentTurnFrame(speech_s=speech))


@dataclass
class HangUpFrame(ControlFrame):
    """Pushed behind an act's words when it ends the call, so it arrives after them.
    ``after_words``: wait for those words to be spoken (False: an act without words that ends
    the call, such as the trace caller's end after its last line, hangs up at once unless the
    caller is still speaking)."""

    after_words: bool = True


class CallerHangUp(FrameProcessor):
    """Ends the call once the caller's goodbye has been spoken (sits before the caller's TTS).

    On a :class:`HangUpFrame` it waits for the goodbye's audio to start (if the reply had
    words), then for ``settle_s`` of the caller's silence (a goodbye of two sentences may have
    a synthesis gap between them), then calls ``on_hang_up``; ``wait_s`` bounds the whole
    wait so a TTS that never speaks cannot keep the call open. Ending earlier would cut the
    goodbye: the runner only drains speech that is already playing. ``settle_s`` is 2.5 s, not
    1 s: Kokoro's first audio of a sentence came 3 s after its text on a loaded 2-core machine,
    and under CI load a 1 s settle hung up between the two sentences of a goodbye (the second
    was cut after 0.2 of its 0.32 s). Words come as LLM text or whole (``TTSSpeakFrame``).
    """

    def __init__(self, on_hang_up: Callable[[], object], wait_s: float, settle_s: float = 2.5, **kwargs: Any):
        super().__init__(**kwargs)
        self.on_hang_up = on_hang_up
        self.wait_s = wait_s
        self.settle_s = settle_s
        self.requested = False
        self._speaking = False
        self._words = False  # the latest reply had words to speak...
        self._words_started = False  # ...and the caller has started speaking since
        self._task: asyncio.Task | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMFullResponseStartFrame):
            self._words = self._words_started = False
        elif isinstance(frame, LLMTextFrame) and frame.text.strip():
            self._words = True
        elif isinstance(frame, TTSSpeakFrame) and direction == FrameDirection.DOWNSTREAM:
            self._words = bool(frame.text.strip())
            self._words_started = False
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._speaking = True
            self._words_started = self._words_started or self._words
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._speaking = False
        elif isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        if isinstance(frame, HangUpFrame):
            if not self.requested:
                self.requested = True
                if frame.after_words or self._speaking:
                    self._task = self.create_task(self._wait_then_end())
                else:
                    self.on_hang_up()
            return
        await self.push_frame(frame, direction)

    async def _wait_then_end(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait_s
        while self._words and not self._words_started and loop.time() < deadline:
            await asyncio.sleep(0.05)
        quiet_since = loop.time()
        while loop.time() < deadline and (self._speaking or loop.time() - quiet_since < self.settle_s):
            if self._speaking:
                quiet_since = loop.time()
            await asyncio.sleep(0.05)
        self.on_hang_up()
