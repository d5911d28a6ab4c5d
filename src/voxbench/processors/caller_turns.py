"""The LLM caller's turn-taking processors: its opening line, when it replies at all, and its hang-up.

Pure pipecat (no project import above processors): which agent turn is a hold line is a
predicate the caller's pipeline passes in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    ControlFrame,
    EndFrame,
    Frame,
    LLMContextFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    StartFrame,
    TTSSpeakFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor


class OpeningLine(FrameProcessor):
    """The caller's first turn is the scenario's starting utterance, not an LLM answer.

    The first context frame (the agent's greeting has ended) is swallowed and the line is
    spoken instead; if the agent never greets, the line is spoken after `no_greeting_s`.
    """

    def __init__(self, text: str, no_greeting_s: float, **kwargs: Any):
        super().__init__(**kwargs)
        self.text = text
        self.no_greeting_s = no_greeting_s
        self._said = False
        self._task: asyncio.Task | None = None

    async def _say(self) -> None:
        if not self._said:
            self._said = True
            await self.push_frame(TTSSpeakFrame(self.text))

    async def _timer(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        await self._say()

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._task = self.create_task(self._timer())
            return
        if isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        if isinstance(frame, LLMContextFrame) and not self._said:
            if self._task is not None:
                await self.cancel_task(self._task)
                self._task = None
            await self._say()
            return
        await self.push_frame(frame, direction)


class HangUpFrame(ControlFrame):
    """Pushed by the ``end_call`` handler behind the goodbye's words, so it arrives after them."""


class CallerHangUp(FrameProcessor):
    """Ends the call once the caller's goodbye has been spoken (sits between the LLM and TTS).

    On a :class:`HangUpFrame` it waits for the goodbye's audio to start (if the reply had
    words), then for ``settle_s`` of the caller's silence (a goodbye of two sentences may have
    a synthesis gap between them), then calls ``on_hang_up``; ``wait_s`` bounds the whole
    wait so a TTS that never speaks cannot keep the call open. Ending earlier would cut the
    goodbye: the runner only drains speech that is already playing. ``settle_s`` is 2.5 s, not
    1 s: Kokoro's first audio of a sentence came 3 s after its text on a loaded 2-core machine,
    and under CI load a 1 s settle hung up between the two sentences of a goodbye (the second
    was cut after 0.2 of its 0.32 s).
    """

    def __init__(self, on_hang_up: Callable[[], object], wait_s: float, settle_s: float = 2.5, **kwargs: Any):
        super().__init__(**kwargs)
        self.on_hang_up = on_hang_up
        self.wait_s = wait_s
        self.settle_s = settle_s
        self.requested = False
        self._speaking = False
        self._words = False  # the latest LLM reply had words to speak...
        self._words_started = False  # ...and the caller has started speaking since
        self._task: asyncio.Task | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMFullResponseStartFrame):
            self._words = self._words_started = False
        elif isinstance(frame, LLMTextFrame) and frame.text.strip():
            self._words = True
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
                self._task = self.create_task(self._wait_then_end())
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


class CallerTurnGate(FrameProcessor):
    """Decides whether an ended agent turn gets a caller reply at all.

    No reply once the caller has hung up, and (``on_hold`` given) none to an agent turn that
    only asks the caller to wait (``on_hold(context)``, the caller's
    :func:`~voxbench.pipelines.caller.llm_simulator.agent_asked_to_wait`): the
    agent is about to run a tool and will speak again. The hold line stays in the context, so
    the next request shows it before the agent's answer.
    """

    def __init__(
        self,
        hang_up: CallerHangUp,
        on_hold: Callable[[Any], bool] | None,
        stats: dict[str, int] | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.hang_up = hang_up
        self.on_hold = on_hold
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("holds_waited", 0)

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame):
            if self.hang_up.requested:
                return
            if self.on_hold is not None and self.on_hold(frame.context):
                self.stats["holds_waited"] += 1
                return
        await self.push_frame(frame, direction)
