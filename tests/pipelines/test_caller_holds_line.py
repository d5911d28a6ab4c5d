"""A caller that hears the agent start speaking before its own line's audio holds that line.

The caller's driver, pipecat's TTS service (the fake one: a buzz after ``first_audio_delay_s``)
and pipecat's output transport (its Bot*SpeakingFrames and interruption handling; the audio
goes to a list) run on the virtual clock. The agent's voice is the VAD frames the caller's ear
would push. A line whose audio has not started when the agent's voice does is withdrawn: no
audio of it is sent, the trail records it withdrawn at that time, and the policy answers the
turn again with the agent's next one. A line whose audio started is left to play.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import pytest
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    Frame,
    InterruptionFrame,
    LLMContextUserTurnFrame,
    OutputAudioRawFrame,
    TTSAudioRawFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.tests.utils import SleepFrame, run_test
from pipecat.transports.base_output import BaseOutputTransport
from pipecat.transports.base_transport import TransportParams

from tests.fakes.services import FakeTTS, buzz
from voxbench.pipelines.caller.driver import PolicyDriver
from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.pipelines.caller.trace_policy import TracePolicy
from voxbench.transports.virtual_loop import run_virtual

SR = 16000


class _Speaker(BaseOutputTransport):
    """The caller's output transport, pipecat's own, taking each chunk's duration to send it and
    noting in ``sent`` when each chunk of voice (not silence) went out and its samples."""

    def __init__(self) -> None:
        super().__init__(TransportParams(audio_out_enabled=True, audio_out_sample_rate=SR))
        self.sent: list[tuple[float, int]] = []

    async def start(self, frame: Frame) -> None:  # type: ignore[override]
        await super().start(frame)  # type: ignore[arg-type]
        await self.set_transport_ready(frame)  # type: ignore[arg-type]

    async def write_audio_frame(self, frame: OutputAudioRawFrame) -> bool:
        samples = len(frame.audio) // 2
        if any(frame.audio):
            self.sent.append((asyncio.get_running_loop().time(), samples))
        await asyncio.sleep(samples / frame.sample_rate)
        return True


class _Answers:
    """A policy answering each agent turn with 're: <what it heard>' (withdrawable)."""

    def __init__(self) -> None:
        self.acts: list[CallerAct] = []
        self.heard: list[str] = []

    @property
    def ended(self) -> bool:
        return False

    @property
    def end_reason(self) -> str | None:
        return None

    def open(self) -> CallerAct:
        return self.respond("")

    def respond(self, heard: str, t: float | None = None) -> CallerAct:
        self.heard.append(heard)
        self.acts.append(CallerAct(turn=len(self.heard), kind="answer", text=f"re: {heard}", rule="r"))
        return self.acts[-1]

    def withdraw(self, act: CallerAct) -> None:
        assert self.acts[-1] == act
        self.acts.pop()


def _turn(text: str) -> LLMContextUserTurnFrame:
    return LLMContextUserTurnFrame(text=text, timestamp="")


def _agent_speaks(at_s: float, for_s: float, then: str) -> list[Frame]:
    """The agent is quiet ``at_s`` after the caller heard its first turn, speaks ``for_s``, and
    its turn ``then`` ends."""
    return [SleepFrame(sleep=at_s), VADUserStartedSpeakingFrame(), SleepFrame(sleep=for_s),
            VADUserStoppedSpeakingFrame(), _turn(then), SleepFrame(sleep=6.0)]  # fmt: skip


def _call(policy: CallerPolicy, tts_delay_s: float, frames: list[Frame]):
    trail: list[tuple[float, CallerAct]] = []
    loop_time = lambda: asyncio.get_running_loop().time()  # noqa: E731
    driver = PolicyDriver(policy, lambda a: trail.append((loop_time(), a)), no_greeting_s=60.0, now=loop_time)
    tts = FakeTTS(first_audio_delay_s=tts_delay_s, stop_frame_timeout_s=tts_delay_s + 1.0)
    speaker = _Speaker()
    pipeline = Pipeline([driver, tts, speaker])
    down, _ = run_virtual(run_test(pipeline, frames_to_send=[_turn("one"), *frames]))  # type: ignore[arg-type]
    return driver, tts, speaker, trail, down


def test_a_line_whose_audio_has_not_started_is_withdrawn_and_answered_again() -> None:
    """The TTS takes 2 s; the agent speaks again 0.8 s after the caller decided 're: one'."""
    policy = _Answers()
    driver, tts, speaker, trail, down = _call(policy, 2.0, _agent_speaks(0.8, 1.0, "two"))
    assert [(a.kind, a.text) for _, a in trail] == [
        ("answer", "re: one"),
        ("withdrawn", "re: one"),
        ("answer", "re: one two"),
    ]
    t_withdrawn = trail[1][0]
    t0 = trail[0][0]
    assert t_withdrawn - t0 == pytest.approx(0.8, abs=0.01)  # when the agent's voice started
    assert trail[1][1].rules == ["agent_spoke_first", "r"]
    assert policy.heard == ["one", "one two"]  # decided again, on the turn and what followed
    assert driver.stats["lines_withdrawn"] == 1
    assert sum(isinstance(f, InterruptionFrame) for f in down) == 1
    # its synthesis had begun; none of its audio was sent: the first chunk is the new line's,
    # 2 s after the agent's next turn, and the audio sent is that line's alone
    assert tts.spoken == ["re: one", "re: one two"]
    assert speaker.sent and speaker.sent[0][0] >= trail[2][0] + 2.0
    said = sum(n for _, n in speaker.sent) / SR
    assert abs(said - FakeTTS.duration_of("re: one two")) < 0.05


def test_a_line_whose_audio_started_is_left_to_play() -> None:
    """The TTS takes 0.2 s; the agent speaks over the caller 0.3 s after 're: one' was decided:
    that is speech over a line being said, not a line held, and nothing is withdrawn."""
    policy = _Answers()
    driver, _, speaker, trail, down = _call(policy, 0.2, _agent_speaks(0.3, 1.0, "two"))
    assert [(a.kind, a.text) for _, a in trail] == [("answer", "re: one"), ("answer", "re: two")]
    assert driver.stats["lines_withdrawn"] == 0
    assert not any(isinstance(f, InterruptionFrame) for f in down)
    first_line = [t for t, _ in speaker.sent if t < trail[1][0]]
    assert first_line and first_line[0] - trail[0][0] < 0.3  # it had started before the agent spoke
    said = sum(n for _, n in speaker.sent) / SR
    assert abs(said - FakeTTS.duration_of("re: one") - FakeTTS.duration_of("re: two")) < 0.1


def test_a_withdrawn_trace_line_is_said_to_the_next_turn() -> None:
    """The trace caller (a real policy): its withdrawn line is the next one again."""
    policy = TracePolicy(["Hi.", "QX7T4M.", "Bye."])
    policy.open()
    _, _, _, trail, _ = _call(policy, 2.0, _agent_speaks(0.8, 1.0, "two"))
    assert [(a.kind, a.text) for _, a in trail] == [
        ("answer", "QX7T4M."),
        ("withdrawn", "QX7T4M."),
        ("answer", "QX7T4M."),
    ]
    assert policy.next_line == 2


class _PausingTTS(FakeTTS):
    """A TTS whose line comes in two chunks with ``pause_s`` between them, as the Kokoro playout
    releases a line on a machine slower than real time (``services/playout.py``): the first
    sentence, a pause lengthened at the sentence boundary, then the rest."""

    def __init__(self, pause_s: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pause_s = pause_s

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        self.spoken.append(text)
        await asyncio.sleep(self.delay)
        for i in range(2):
            if i:
                await asyncio.sleep(self.pause_s)
            pcm = buzz(self.duration_of(text), self.sample_rate, self.f0)
            await self.stop_ttfb_metrics()
            yield TTSAudioRawFrame(pcm.tobytes(), self.sample_rate, 1, context_id=context_id)


@pytest.mark.parametrize(("pause_s", "segments"), [(2.0, 1), (5.0, 2)])
def test_the_agent_speaking_in_a_pause_between_sentences_is_no_line_held(
    pause_s: float, segments: int
) -> None:
    """The line's first sentence plays 0.2 s after it was decided and the rest ``pause_s`` later;
    the agent speaks from 0.5 s after the first sentence until the rest has started. The line's
    audio had started, so nothing is withdrawn: the rest plays over the agent, the agent's turn
    gets its reply after it. Pipecat's output ends the caller's voice segment on its TTS stop or
    after 3 s without audio, so a pause under 3 s keeps the line one segment and a longer one
    splits it in two (one utterance, two audio segments in the record)."""
    policy = _Answers()
    trail: list[tuple[float, CallerAct]] = []
    loop_time = lambda: asyncio.get_running_loop().time()  # noqa: E731
    driver = PolicyDriver(policy, lambda a: trail.append((loop_time(), a)), no_greeting_s=60.0, now=loop_time)
    tts = _PausingTTS(pause_s, first_audio_delay_s=0.2, stop_frame_timeout_s=pause_s + 1.0)
    speaker = _Speaker()
    frames = [_turn("one"), *_agent_speaks(0.2 + FakeTTS.duration_of("re: one") + 0.5, pause_s, "two")]
    down, _ = run_virtual(run_test(Pipeline([driver, tts, speaker]), frames_to_send=frames))  # type: ignore[arg-type]
    assert [(a.kind, a.text) for _, a in trail] == [("answer", "re: one"), ("answer", "re: two")]
    assert driver.stats["lines_withdrawn"] == 0
    assert not any(isinstance(f, InterruptionFrame) for f in down)
    assert tts.spoken == ["re: one", "re: two"]
    said = sum(n for _, n in speaker.sent) / SR
    assert abs(said - 2 * FakeTTS.duration_of("re: one") - 2 * FakeTTS.duration_of("re: two")) < 0.1
    runs = [t for i, (t, _) in enumerate(speaker.sent) if i == 0 or t - speaker.sent[i - 1][0] > 0.1]
    agent_voice = (trail[0][0] + 1.0, trail[0][0] + 1.0 + pause_s)
    assert len(runs) == 4  # each line: its first sentence, the rest after the pause
    assert agent_voice[0] < runs[1] < agent_voice[1] <= trail[1][0] <= runs[2]  # the rest over the agent
    assert sum(isinstance(f, BotStartedSpeakingFrame) for f in down) == 2 * segments
