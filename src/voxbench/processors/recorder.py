"""The conversation recorder: a pipecat observer (never an inline processor).

One `ConversationRecorder` holds the shared state of a call (clock, events, audio
tracks, onset detectors); each pipeline gets its own `RecorderObserver` from
`recorder.observer(side)`. Audio is recorded where it is *heard*: the user channel
as the agent's input transport receives it, the agent channel as the simulator's
input transport receives it. Both tracks and every event use the one
`ConversationClock`, so a Speech event's `t` is its sample position in the WAV.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    ErrorFrame,
    Frame,
    FunctionCallInProgressFrame,
    FunctionCallResultFrame,
    InputAudioRawFrame,
    InterimTranscriptionFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    MetricsFrame,
    TranscriptionFrame,
    TTSSpeakFrame,
    TTSTextFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.metrics.metrics import LLMUsageMetricsData, TTFBMetricsData
from pipecat.observers.base_observer import BaseObserver, FramePushed
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.llm_service import LLMService
from pipecat.transports.base_input import BaseInputTransport

from voxbench.processors.audio_track import Placement, TimelineTrack
from voxbench.processors.caller_turns import SpeaksReplies
from voxbench.processors.clock import ConversationClock
from voxbench.processors.fallback_nudge import FallbackNudgeFrame
from voxbench.processors.harness_pause import HarnessPauseFrame
from voxbench.processors.speech_onset import EnergyOnsetDetector, OnsetConfig
from voxbench.processors.turn_taking import derive_turn_taking
from voxbench.records import (
    AudioSegment,
    BargeIn,
    ConnectionEvent,
    EndEvent,
    ErrorEvent,
    Event,
    EventWriter,
    FallbackNudge,
    HarnessPause,
    LLMText,
    PacingEvent,
    Speech,
    StageTiming,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    UsageEvent,
    Utterance,
    VADEvent,
    Yield,
)
from voxbench.records.events import Channel, Side

REPLY_SOURCES = (LLMService, SpeaksReplies)
"""Whose reply frames are words meant to be said: a model's, or a caller driver's."""

_OTHER: dict[str, Channel] = {"agent": "user", "user": "agent"}


class ConversationRecorder:
    """Shared recording state of one call; hand `observer(side)` to each worker."""

    def __init__(
        self,
        clock: ConversationClock,
        sample_rate: int,
        writer: EventWriter | None = None,
        onset: OnsetConfig | None = None,
        vad_engine: str = "silero",
    ):
        self.clock = clock
        self.sample_rate = sample_rate
        self.writer = writer
        self.vad_engine = vad_engine
        self.events: list[Event] = []
        self.tracks: dict[Channel, TimelineTrack] = {
            "user": TimelineTrack(sample_rate),
            "agent": TimelineTrack(sample_rate),
        }
        self._detectors: dict[Channel, EnergyOnsetDetector] = {
            "user": EnergyOnsetDetector(sample_rate, onset),
            "agent": EnergyOnsetDetector(sample_rate, onset),
        }
        self.listeners: list[Callable[[Event], None]] = []
        self.last_speech_t = 0.0
        self.frozen = False
        self.reference: dict[Channel, TimelineTrack] = {}

    def freeze(self) -> None:
        """Stop recording audio and pipeline events (the call is over; teardown follows)."""
        self.frozen = True

    def observer(self, side: Side) -> RecorderObserver:
        return RecorderObserver(self, side)

    def emit(self, event: Event) -> None:
        if self.frozen and not isinstance(
            event, ConnectionEvent | EndEvent | ErrorEvent | PacingEvent | Speech | BargeIn | Yield
        ):
            return
        self.events.append(event)
        if self.writer is not None:
            self.writer.write(event)
        for fn in self.listeners:
            fn(event)

    def add_audio(self, channel: Channel, frame: InputAudioRawFrame, t: float) -> None:
        if self.frozen:
            return
        pcm = np.frombuffer(frame.audio, dtype=np.int16)
        if frame.num_channels > 1:
            pcm = pcm[:: frame.num_channels]
        if frame.sample_rate != self.sample_rate:
            return  # the transports resample to the pipeline rate; anything else is a bug upstream
        det = self._detectors[channel]
        quiet = det.quiet(pcm)
        if channel in self.reference:  # stamped from the clean reference feed instead
            self.tracks[channel].place(pcm, t, quiet)
            return
        self._stamp(channel, self.tracks[channel].place(pcm, t, quiet, starts_sound=not quiet and det.idle))

    def use_reference(self, channel: Channel) -> None:
        """Stamp `channel`'s speech from a clean reference feed (`add_reference`), not from the
        audio as heard: a perturbed caller's noise bed is not caller speech. The heard audio
        still makes the channel's WAV; the reference becomes `<channel>_clean.wav`."""
        self.reference[channel] = TimelineTrack(self.sample_rate)

    def add_reference(self, channel: Channel, pcm: np.ndarray, t: float) -> None:
        """Clean int16 samples of `channel`, sent at `t` (the sender's clock, a few ms before
        the far end hears them)."""
        if self.frozen or channel not in self.reference:
            return
        x = np.asarray(pcm, dtype=np.int16)
        det = self._detectors[channel]
        quiet = det.quiet(x)
        self._stamp(channel, self.reference[channel].place(x, t, quiet, starts_sound=not quiet and det.idle))

    def _stamp(self, channel: Channel, placed: Placement) -> None:
        """Speech marks from exactly what the track wrote, so an event's `t` is its WAV position."""
        det = self._detectors[channel]
        for m in det.feed(placed.written, placed.written_start):
            self.last_speech_t = max(self.last_speech_t, m.t)
            self.emit(Speech(t=m.t, side="harness", channel=channel, state=m.state, level_db=m.level_db))
        if det.in_speech and not det.quiet(placed.written):
            # someone is talking right now: a reply longer than the inactivity limit (a minute
            # of Piper reading a 1,000-character answer) is not an idle line
            end = placed.written_start + placed.written.size / self.sample_rate
            self.last_speech_t = max(self.last_speech_t, end)

    def speaking(self, channel: Channel) -> bool:
        return self._detectors[channel].in_speech

    def finalize(self) -> list[Event]:
        """Close open speech, add barge-ins/yields; returns all events ordered by time."""
        for ch in ("user", "agent"):
            for m in self._detectors[ch].flush():
                self.emit(Speech(t=m.t, side="harness", channel=ch, state=m.state, level_db=m.level_db))
        speech = [e for e in self.events if isinstance(e, Speech)]
        for ev in derive_turn_taking(speech):
            self.emit(ev)
        return sorted(self.events, key=lambda e: e.t)


class RecorderObserver(BaseObserver):
    """Maps the frames of one pipeline (`side`) to typed events."""

    def __init__(self, recorder: ConversationRecorder, side: Side):
        super().__init__()
        self.rec = recorder
        self.side = side
        self.own: Channel = "agent" if side == "agent" else "user"
        self.heard: Channel = _OTHER[self.own]
        self._seen: set[int] = set()
        self._seen_order: deque[int] = deque()
        self._llm_text: list[str] = []

    def _first(self, frame: Frame) -> bool:
        ids = (frame.id, getattr(frame, "broadcast_sibling_id", None))
        if any(i is not None and i in self._seen for i in ids):
            return False
        self._seen.add(frame.id)
        self._seen_order.append(frame.id)
        if len(self._seen_order) > 20000:
            self._seen.discard(self._seen_order.popleft())
        return True

    async def on_push_frame(self, data: FramePushed) -> None:
        frame = data.frame
        t = data.timestamp / 1e9
        if isinstance(frame, InputAudioRawFrame):
            if isinstance(data.source, BaseInputTransport) and self._first(frame):
                self.rec.add_audio(self.heard, frame, t)
            return
        if data.direction != FrameDirection.DOWNSTREAM or not self._first(frame):
            return  # broadcast frames travel both ways; the downstream copy is enough
        ev = self._event(frame, data.source, t)
        if ev is not None:
            self.rec.emit(ev)

    def _event(self, frame: Frame, source: Any, t: float) -> Event | None:
        s = self.side
        if isinstance(frame, VADUserStartedSpeakingFrame | VADUserStoppedSpeakingFrame):
            state = "start" if isinstance(frame, VADUserStartedSpeakingFrame) else "stop"
            return VADEvent(t=t, side=s, channel=self.heard, state=state, engine=self.rec.vad_engine)
        if isinstance(frame, InterimTranscriptionFrame):
            return Transcript(t=t, side=s, channel=self.heard, text=frame.text, final=False)
        if isinstance(frame, TranscriptionFrame):
            return Transcript(t=t, side=s, channel=self.heard, text=frame.text, final=True)
        if isinstance(frame, LLMFullResponseStartFrame) and isinstance(source, REPLY_SOURCES):
            self._llm_text = []
            return None
        if isinstance(frame, LLMTextFrame) and isinstance(source, REPLY_SOURCES):
            self._llm_text.append(frame.text)
            return None
        if isinstance(frame, LLMFullResponseEndFrame) and isinstance(source, REPLY_SOURCES):
            text = "".join(self._llm_text).strip()
            self._llm_text = []
            if text and s == "user":  # the caller's LLM text is what it means to say
                self.rec.emit(Utterance(t=t, side=s, channel="user", text=text))
            return LLMText(t=t, side=s, channel=self.own, text=text) if text else None
        if isinstance(frame, TTSTextFrame):
            return TTSText(t=t, side=s, channel=self.own, text=frame.text)
        if isinstance(frame, TTSSpeakFrame) and s == "user":
            return Utterance(t=t, side=s, channel="user", text=frame.text)
        if isinstance(frame, BotStartedSpeakingFrame | BotStoppedSpeakingFrame):
            state = "start" if isinstance(frame, BotStartedSpeakingFrame) else "end"
            return AudioSegment(t=t, side=s, channel=self.own, state=state)
        if isinstance(frame, FunctionCallInProgressFrame) and s == "agent":
            args = frame.arguments if isinstance(frame.arguments, dict) else dict(frame.arguments or {})
            return ToolCall(t=t, side=s, call_id=frame.tool_call_id, name=frame.function_name, arguments=args)
        if isinstance(frame, FunctionCallResultFrame) and s == "agent":
            result = frame.result if isinstance(frame.result, dict) else {"value": frame.result}
            status = str(result.get("status", "unknown"))
            return ToolResult(
                t=t,
                side=s,
                call_id=frame.tool_call_id,
                name=frame.function_name,
                status=status,
                result=result,
            )
        if isinstance(frame, FallbackNudgeFrame) and s == "agent":
            return FallbackNudge(t=t, side=s, silence_s=frame.silence_s)
        if isinstance(frame, HarnessPauseFrame) and s == "user":
            # pushed as the chunk ending the silence is released: the silence began before
            start = max(t - frame.duration_s, 0.0)
            return HarnessPause(
                t=start, side=s, duration_s=frame.duration_s, sentence=frame.sentence, line=frame.line
            )
        if isinstance(frame, ErrorFrame):
            return ErrorEvent(
                t=t,
                side=s,
                source=str(source),
                message=str(frame.error),
                fatal=bool(getattr(frame, "fatal", False)),
            )
        if isinstance(frame, MetricsFrame):
            for d in frame.data:
                if isinstance(d, TTFBMetricsData) and d.value > 0:
                    stage = _stage(d.processor)
                    if stage:
                        self.rec.emit(
                            StageTiming(t=t, side=s, stage=stage, seconds=d.value, processor=d.processor)
                        )
                elif isinstance(d, LLMUsageMetricsData):
                    u = d.value
                    self.rec.emit(
                        UsageEvent(
                            t=t,
                            side=s,
                            model=d.model or "",
                            prompt_tokens=u.prompt_tokens,
                            completion_tokens=u.completion_tokens,
                            reasoning_tokens=u.reasoning_tokens,
                        )
                    )
        return None


def _stage(processor: str) -> str | None:
    p = processor.lower()
    if "stt" in p:
        return "stt"
    if "llm" in p:
        return "llm_ttft"
    if "tts" in p:
        return "tts_ttfb"
    return None
