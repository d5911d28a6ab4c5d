"""The one caller driver and its ears, frame by frame on the virtual clock: a turn heard by
voice activity only, a policy that thinks with a model (an awaitable act), a policy that
fails, and the trace caller's timing (hold waits)."""

from __future__ import annotations

import asyncio

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    ErrorFrame,
    InterruptionFrame,
    LLMContextUserTurnFrame,
    TTSSpeakFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.tests.utils import SleepFrame, run_test

from voxbench.pipelines.caller.driver import QUEUED_LINE_MAX_S, SILENT_TTS_S, HeardTurn, PolicyDriver
from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.pipelines.caller.trace_policy import TracePolicy
from voxbench.pipelines.caller.trace_simulator import TraceTiming
from voxbench.processors.caller_turns import AgentTurnFrame, HangUpFrame, VoiceTurns
from voxbench.processors.trace_config import TraceSimConfig
from voxbench.transports.virtual_loop import run_virtual


def _speech(s: float) -> list[object]:
    return [VADUserStartedSpeakingFrame(), SleepFrame(sleep=s), VADUserStoppedSpeakingFrame()]


def test_voice_turns_end_a_turn_after_the_gap_and_say_how_long_the_agent_spoke() -> None:
    frames = [
        *_speech(1.0),
        SleepFrame(sleep=0.2),  # a pause shorter than the gap: the same turn
        *_speech(0.5),
        SleepFrame(sleep=0.6),
        *_speech(0.3),
        SleepFrame(sleep=0.1),
        BotStoppedSpeakingFrame(),  # heard while the caller's own line was said: not a reply
        SleepFrame(sleep=0.6),
    ]
    down, _ = run_virtual(run_test(VoiceTurns(turn_gap_s=0.4), frames_to_send=frames))  # type: ignore[arg-type]
    turns = [f for f in down if isinstance(f, AgentTurnFrame)]
    assert [round(t.speech_s, 2) for t in turns] == [1.5]


class _Thinking:
    """A policy that takes a second to decide each act (a model), answering what it heard."""

    def __init__(self, fail: bool = False) -> None:
        self.acts: list[CallerAct] = []
        self.heard: list[str] = []
        self.withdrawn: list[str] = []
        self.fail = fail

    @property
    def ended(self) -> bool:
        return bool(self.acts) and self.acts[-1].ends_call

    @property
    def end_reason(self) -> str | None:
        return "done" if self.ended else None

    def open(self) -> CallerAct:
        self.acts.append(CallerAct(turn=0, kind="open", text="Hi.", rule="open"))
        return self.acts[-1]

    async def respond(self, heard: str, t: float | None = None) -> CallerAct:
        self.heard.append(heard)
        await asyncio.sleep(1.0)
        if self.fail:
            raise ConnectionError("model server gone")
        bye = "bye" in heard
        act = CallerAct(
            turn=len(self.heard),
            kind="end" if bye else "answer",
            text=f"re: {heard}",
            rule="r",
            ends_call=bye,
        )
        self.acts.append(act)
        return act

    def withdraw(self, act: CallerAct) -> None:
        self.acts.remove(act)
        self.withdrawn.append(act.text)


def _turn(text: str) -> LLMContextUserTurnFrame:
    return LLMContextUserTurnFrame(text=text, timestamp="")


def test_an_awaitable_act_is_awaited_and_turns_heard_meanwhile_are_answered_after_it() -> None:
    policy = _Thinking()
    assert isinstance(policy, CallerPolicy)
    acts: list[CallerAct] = []
    driver = PolicyDriver(policy, acts.append, no_greeting_s=60.0)
    frames = [_turn("one"), SleepFrame(sleep=0.3), _turn("two"), _turn("three"), SleepFrame(sleep=1.5)]
    frames += [_turn("bye"), SleepFrame(sleep=1.5)]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    assert policy.heard == ["one", "two three", "bye"]  # never two decisions at once
    assert [f.text for f in down if isinstance(f, TTSSpeakFrame)] == ["re: one", "re: two three", "re: bye"]
    assert sum(isinstance(f, HangUpFrame) for f in down) == 1 and acts[-1].ends_call
    assert driver.stats["acts"] == 3 and driver.stats["agent_turns_heard"] == 4


def test_a_decision_the_agent_interrupts_is_dropped_and_the_next_reply_covers_it() -> None:
    policy = _Thinking()
    driver = PolicyDriver(policy, lambda act: None, no_greeting_s=60.0)
    frames = [_turn("one"), SleepFrame(sleep=0.3), InterruptionFrame(), SleepFrame(sleep=0.3)]
    frames += [_turn("two"), SleepFrame(sleep=1.5)]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    assert policy.heard == ["one", "two"]  # the policy keeps the first turn (the LLM caller: in its context)
    assert [f.text for f in down if isinstance(f, TTSSpeakFrame)] == ["re: two"]
    assert driver.stats["decisions_dropped"] == 1


def test_a_policy_that_fails_fails_the_call_saying_why() -> None:
    driver = PolicyDriver(_Thinking(fail=True), lambda act: None, no_greeting_s=60.0)
    _, up = run_virtual(
        run_test(driver, frames_to_send=[_turn("one"), SleepFrame(sleep=1.5)], expected_up_frames=None)  # type: ignore[arg-type]
    )
    errors = [f for f in up if isinstance(f, ErrorFrame)]
    assert errors and "model server gone" in errors[0].error


def test_trace_timing_waits_out_a_short_turn_while_more_are_due() -> None:
    cfg = TraceSimConfig(turn_gap_s=0.8, hold_max_s=1.6, hold_gap_s=12.0)
    policy = TracePolicy(["Hi.", "QX7T4M, Whitfield."], [1, 2])
    timing = TraceTiming(policy, cfg, hold_wait_s=6.0)
    policy.open()
    hold, answer = HeardTurn("", 1.0), HeardTurn("", 3.0)
    assert timing.reply_delay("", (hold,)) == 6.0 - 0.8  # a hold line: wait for the answer
    assert timing.reply_delay("", (answer,)) == 0.0  # a long turn is the answer
    assert timing.reply_delay("", (hold, hold)) == 0.0  # both expected turns heard
    assert timing.holds_waited == 1
    assert timing.reply_delay("hello", (HeardTurn("hello"),)) == 0.0  # words, no speech time: answer
    assert timing.restates("", policy.acts[-1])  # by voice alone a turn over its line is no reply
    assert timing.on_silence() is not None and policy.next_line == 2


def test_a_line_the_tts_never_says_stops_masking_the_agents_turns() -> None:
    policy = TracePolicy(["Hi.", "QX7T4M.", "Bye."])
    timing = TraceTiming(policy, TraceSimConfig(), hold_wait_s=6.0)
    driver = PolicyDriver(policy, lambda act: None, no_greeting_s=60.0, timing=timing)
    heard = AgentTurnFrame(speech_s=3.0)
    frames = [heard, SleepFrame(sleep=2.0), heard, SleepFrame(sleep=9.0), heard, SleepFrame(sleep=0.1)]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    # no audio ever started: the turn 2 s after "Hi." was taken as over its line, the one
    # 11 s after it (SILENT_TTS_S) as a reply
    assert [f.text for f in down if isinstance(f, TTSSpeakFrame)] == ["Hi.", "QX7T4M."]
    assert driver.stats["overlapped_asks"] == 1


def _second_turn_after(gap_s: float) -> list[str]:
    """The agent speaks, the caller's reply goes to a TTS that never says it, and the agent speaks
    again ``gap_s`` after it: the lines the caller sends."""
    policy = TracePolicy(["Hi.", "QX7T4M.", "Bye."])
    timing = TraceTiming(policy, TraceSimConfig(), hold_wait_s=6.0)
    driver = PolicyDriver(policy, lambda act: None, no_greeting_s=60.0, timing=timing)
    heard = AgentTurnFrame(speech_s=3.0)
    frames = [heard, SleepFrame(sleep=gap_s), heard, SleepFrame(sleep=0.1)]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    return [f.text for f in down if isinstance(f, TTSSpeakFrame)]


def test_an_agent_turn_is_answered_once_the_unsaid_line_is_silent_tts_s_old() -> None:
    """SILENT_TTS_S, on the virtual clock: just under it the agent's turn is taken as said over
    the caller's line (let pass), just over it the line is taken as dropped and the turn answered."""
    assert _second_turn_after(SILENT_TTS_S - 0.5) == ["Hi."]
    assert _second_turn_after(SILENT_TTS_S + 0.5) == ["Hi.", "QX7T4M."]


def _never_said(quiet_s: float) -> list[str]:
    """The caller's reply goes to a TTS that never says it, and the agent stays quiet ``quiet_s``
    (silence checked every 25 s): the lines the caller sends."""
    policy = TracePolicy(["Hi.", "QX7T4M.", "Bye."])
    timing = TraceTiming(policy, TraceSimConfig(), hold_wait_s=6.0)
    driver = PolicyDriver(policy, lambda act: None, no_greeting_s=600.0, timing=timing, silence_check_s=25.0)
    frames = [AgentTurnFrame(speech_s=3.0), SleepFrame(sleep=quiet_s)]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    return [f.text for f in down if isinstance(f, TTSSpeakFrame)]


def test_the_silence_check_gives_up_on_a_line_unsaid_for_queued_line_max_s() -> None:
    """QUEUED_LINE_MAX_S, on the virtual clock: every check within it waits for the unsaid line
    (25, 50, 75 s); the first one past it (100 s) takes the line as never said and acts."""
    first = 25.0 * (QUEUED_LINE_MAX_S // 25.0 + 1)
    assert _never_said(first - 1.0) == ["Hi."]
    assert _never_said(first + 1.0) == ["Hi.", "QX7T4M."]


def _said_late(after_s: float) -> list[str]:
    """The caller's reply to a turn reaches the speaker 40 s late, takes 2 s to say, and the
    agent then stays quiet ``after_s``: the lines the caller sends."""
    policy = TracePolicy(["Hi.", "QX7T4M.", "Bye."])
    timing = TraceTiming(policy, TraceSimConfig(), hold_wait_s=6.0)
    driver = PolicyDriver(policy, lambda act: None, no_greeting_s=60.0, timing=timing, silence_check_s=25.0)
    frames = [AgentTurnFrame(speech_s=3.0), SleepFrame(sleep=40.0), BotStartedSpeakingFrame(),
              SleepFrame(sleep=2.0), BotStoppedSpeakingFrame(), SleepFrame(sleep=after_s)]  # fmt: skip
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))  # type: ignore[arg-type]
    return [f.text for f in down if isinstance(f, TTSSpeakFrame)]


def test_the_silence_check_waits_for_the_callers_own_line_to_be_said() -> None:
    """Under load the caller's line can reach the speaker long after it was decided; the agent,
    waiting for it, is silent, and that silence is the caller's own: no check-in until its line
    has been said and the agent then stayed quiet."""
    assert _said_late(20.0) == ["Hi."]
    assert _said_late(26.0)[:2] == ["Hi.", "QX7T4M."]
