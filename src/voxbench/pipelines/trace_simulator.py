"""The deterministic trace-replay caller: speaks a scenario's reference user lines.

It listens to the agent only through VAD: after the agent has spoken and then been
quiet for `turn_gap_s`, the next line is spoken. It speaks first if the agent does not
greet, and moves on if the agent never answers. After the last line and the agent's
reply, it ends the call ("trace_finished").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    EndFrame,
    Frame,
    StartFrame,
    TTSSpeakFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.audio.vad_processor import VADProcessor
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.transports.websocket.client import WebsocketClientTransport

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.config import SimulatorConfig, TraceSimConfig
from voxbench.pipelines.wire import make_vad
from voxbench.scenarios import Scenario
from voxbench.scenarios.culture import CultureResolver
from voxbench.transports.pacing import GapFillProcessor


def reference_user_lines(scenario: Scenario, resolver: CultureResolver) -> list[str]:
    trace = scenario.ground_truth.expected_trace.trace if scenario.ground_truth.expected_trace else []
    lines = [
        str(resolver.resolve(e.utterance)) for e in trace if e.event_type == "user_utterance" and e.utterance
    ]
    if not lines and scenario.starting_utterance():
        lines = [str(resolver.resolve(scenario.starting_utterance()))]
    return lines


class TraceDriver(FrameProcessor):
    """Turn-taking by VAD on the agent's audio; pushes one `TTSSpeakFrame` per line."""

    def __init__(self, lines: Sequence[str], cfg: TraceSimConfig, on_done: Callable[[], None], **kwargs: Any):
        super().__init__(**kwargs)
        self.lines = list(lines)
        self.cfg = cfg
        self.on_done = on_done
        self.next_line = 0
        self._agent_speaking = False
        self._heard_agent = False
        self._agent_quiet_since = 0.0
        self._self_speaking = False
        self._pending_since: float | None = None
        self._my_line_ended = 0.0
        self._started = 0.0
        self._task: asyncio.Task | None = None
        self._done = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        now = time.monotonic()
        if isinstance(frame, StartFrame):
            self._started = self._my_line_ended = now
            await self.push_frame(frame, direction)
            self._task = self.create_task(self._loop())
            return
        if isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        elif isinstance(frame, VADUserStartedSpeakingFrame):
            self._agent_speaking = self._heard_agent = True
        elif isinstance(frame, VADUserStoppedSpeakingFrame):
            self._agent_speaking = False
            self._agent_quiet_since = now
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._self_speaking = True
            self._pending_since = None
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._self_speaking = False
            self._my_line_ended = now
            # only an agent turn heard after our line counts as its reply
            self._heard_agent = self._agent_speaking
        await self.push_frame(frame, direction)

    def _turn_is_ours(self, now: float) -> bool:
        if self._self_speaking or self._agent_speaking:
            return False
        if self._pending_since is not None:
            if now - self._pending_since < 10.0:
                return False
            self._pending_since = None  # TTS produced nothing; carry on
        if self._heard_agent:
            return now - self._agent_quiet_since >= self.cfg.turn_gap_s
        limit = self.cfg.no_greeting_s if self.next_line == 0 else self.cfg.reply_timeout_s
        return now - self._my_line_ended >= limit

    async def _loop(self) -> None:
        while not self._done:
            await asyncio.sleep(0.05)
            now = time.monotonic()
            if not self._turn_is_ours(now):
                continue
            if self.next_line >= len(self.lines):
                self._done = True
                self.on_done()
                return
            text = self.lines[self.next_line]
            self.next_line += 1
            self._heard_agent = False
            self._pending_since = now
            await self.push_frame(TTSSpeakFrame(text))


def build_trace_simulator(
    services: SimulatorServices,
    transport: WebsocketClientTransport,
    lines: Sequence[str],
    cfg: SimulatorConfig,
    on_done: Callable[[], None],
    sample_rate: int,
    gap_fill: bool = True,
) -> tuple[Pipeline, TraceDriver]:
    driver = TraceDriver(lines, cfg.trace, on_done)
    stages: list[FrameProcessor] = [transport.input()]
    if gap_fill:
        stages.append(GapFillProcessor(sample_rate))
    stages += [
        VADProcessor(vad_analyzer=make_vad(cfg.vad, sample_rate)),
        driver,
        services.tts,
        transport.output(),
    ]
    return Pipeline(stages), driver
