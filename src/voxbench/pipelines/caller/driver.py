"""The one live driver of every simulated caller: any :class:`CallerPolicy`, one turn-taking.

Between the caller's ear and its voice, the driver turns the agent's ended turns into the
policy's acts: words to speak (``TTSSpeakFrame``), an event to record (``on_act``), a hang-up
after an act that ends the call (``HangUpFrame``). Which ear a caller has is a property of its
registry entry (``hears_words``, see :mod:`.live`): its STT and pipecat's turn detection
(``LLMContextUserTurnFrame``: the turn's words), or voice activity alone
(:class:`~voxbench.processors.caller_turns.VoiceTurns`: a turn without words, with how long the
agent spoke). The driver decides nothing itself; *when* to answer is the policy's
:class:`TurnTiming`:

* ``reply_delay(heard, turns)``: how long the agent must stay quiet before the policy answers
  what it heard since the caller last acted (0: at once). If the agent speaks again first, the
  reply covers every agent turn since then;
* ``restates(heard, in_flight)``: a turn heard while the caller's own line is still being
  said is let pass (the goal caller: the agent only repeated the request that line answers;
  a caller that hears only voice cannot tell such a turn from a reply, and lets it pass);
* ``on_silence()``: the act for an agent silent ``silence_check_s`` after the caller's last
  act (None: keep waiting).

Whatever ``reply_delay`` says, a reply waits until the agent has been quiet the timing's
``agent_quiet_s`` since its voice stopped (0: no such wait): a turn detector can end the agent's turn at the pause
between two of its sentences (live, the agent's voice leaves 0.2-0.5 s there), and the reply
then answers half a turn while the other half is being said. If the agent speaks on within
that time, one reply covers the whole turn.

A line decided but not yet heard (sent to the TTS, no audio yet) is held when the agent's voice
starts (:meth:`PolicyDriver._hold_unsaid_line`): withdrawn from the TTS and the output, forgotten
by the policy (``CallerPolicy.withdraw``), recorded as a ``withdrawn`` act, and the turns it
answered are answered again with the agent's next one.

The default, :class:`AnswerAtTurnEnd`, answers every ended turn at once and waits through
silence. If the agent has not started speaking after ``no_greeting_s``, the caller opens.

An act's words go to the TTS whole (``TTSSpeakFrame``: one synthesis), or, with
:class:`SentenceDriver`, as a model's reply would (the TTS splits it into sentences and speaks
the first while it synthesises the next: the LLM caller's lines, whose first audio then comes
as early as when the model's words were streamed to the TTS).

A policy that thinks with a model returns an awaitable act: the driver awaits it in a task
(frames keep flowing), and agent turns heard meanwhile are answered after it, together. If the
agent's speech interrupts the caller (its turn detection's ``InterruptionFrame``: the agent
started a new turn) while the act is still being decided, the decision is dropped, as a model's
streamed reply was: the policy keeps what it heard, and the reply to the agent's next turn
covers both.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    EndFrame,
    ErrorFrame,
    Frame,
    InterruptionFrame,
    LLMContextFrame,
    LLMContextUserTurnFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    StartFrame,
    TTSSpeakFrame,
    UserStartedSpeakingFrame,
    UserStoppedSpeakingFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection

from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.pipelines.caller.timing import (
    QUEUED_LINE_MAX_S,
    SILENT_TTS_S,
    AnswerAtTurnEnd,
    HeardTurn,
    TurnTiming,
)
from voxbench.processors.caller_turns import AgentTurnFrame, HangUpFrame, SpeaksReplies
from voxbench.processors.clock import loop_now

__all__ = [
    "QUEUED_LINE_MAX_S",
    "SILENT_TTS_S",
    "AnswerAtTurnEnd",
    "HeardTurn",
    "PolicyDriver",
    "SentenceDriver",
    "TurnTiming",
]


STAT_KEYS = (
    "acts",
    "waits",
    "agent_turns_heard",
    "replies_deferred",
    "held_for_quiet",
    "decide_ms_max",
    "overlapped_asks",
    "lines_withdrawn",
)


class PolicyDriver(SpeaksReplies):
    """Runs ``policy`` on the agent's ended turns (see the module docstring). ``on_act``
    receives every act (the builder records it as a ``caller_act`` event); ``now`` is the
    call's clock (the time ``respond`` is given); ``stats`` counts acts, silent waits, agent
    turns heard, replies deferred by the timing, replies held only for the timing's ``agent_quiet_s``
    (``held_for_quiet``), turns let pass while the caller's line was being said and the slowest
    decision (``decide_ms_max``, host milliseconds)."""

    def __init__(
        self,
        policy: CallerPolicy,
        on_act: Callable[[CallerAct], None],
        no_greeting_s: float,
        timing: TurnTiming | None = None,
        stats: dict[str, int] | None = None,
        silence_check_s: float | None = None,
        now: Callable[[], float] = loop_now,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.policy = policy
        self.now = now
        self.on_act = on_act
        self.no_greeting_s = no_greeting_s
        self.timing: TurnTiming = timing or AnswerAtTurnEnd()
        self.silence_check_s = silence_check_s
        self.stats = stats if stats is not None else {}
        for key in STAT_KEYS:
            self.stats.setdefault(key, 0)
        self._acted = False  # the caller has opened (by its own act or in reply to the agent)
        self._heard: list[HeardTurn] = []  # agent turns since the caller's last act
        self._line_in_flight: CallerAct | None = None  # an act whose words are not all said yet
        self._line_sent: float | None = None  # when that line went to the TTS, until its audio starts
        self._answered: list[HeardTurn] = []  # the agent turns the last act answered
        self._own_voice = False  # the caller's voice is being sent (its output's Bot*Speaking)
        self._agent_spoke = False
        self._agent_speaking = False
        self._agent_voice = False  # the ear's VAD hears the agent now
        self._agent_quiet_since: float | None = None  # when its VAD last heard the agent stop
        self._open_timer: asyncio.Task[None] | None = None
        self._reply_timer: asyncio.Task[None] | None = None
        self._silence_timer: asyncio.Task[None] | None = None
        self._deciding: asyncio.Task[None] | None = None  # a policy's awaitable act in flight

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._open_timer = self.create_task(self._open_unless_greeted())
            return
        if isinstance(frame, EndFrame | CancelFrame):
            await self._cancel_timers()
            if self._deciding is not None:
                await self.cancel_task(self._deciding)
                self._deciding = None
        elif isinstance(frame, UserStartedSpeakingFrame | VADUserStartedSpeakingFrame):
            self._agent_spoke = self._agent_speaking = True
            await self._cancel_reply_timer()  # the agent goes on: its whole turn gets the reply
            await self._cancel_silence_timer()
            await self._hold_unsaid_line()
        elif isinstance(frame, InterruptionFrame) and self._deciding is not None:
            await self.cancel_task(self._deciding)  # the agent goes on before the caller answered
            self._deciding = None
            self.stats["decisions_dropped"] = self.stats.get("decisions_dropped", 0) + 1
        elif isinstance(frame, UserStoppedSpeakingFrame | VADUserStoppedSpeakingFrame):
            self._agent_speaking = False
        if isinstance(frame, VADUserStartedSpeakingFrame | VADUserStoppedSpeakingFrame):
            self._agent_voice = isinstance(frame, VADUserStartedSpeakingFrame)
            self._agent_quiet_since = None if self._agent_voice else self.now()
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._line_sent, self._own_voice = None, True
        elif isinstance(frame, ErrorFrame) and direction == FrameDirection.UPSTREAM:
            self._line_in_flight = self._line_sent = None  # its voice failed: that line is not coming
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._own_voice = False
            said, self._line_in_flight = self._line_in_flight, None  # its own line has been said
            if self._silence_timer is not None or (said is not None and self._waiting()):
                await self._start_silence_timer()  # the silence counts from the end of its own line
        if isinstance(frame, AgentTurnFrame):
            await self._agent_turn(HeardTurn("", frame.speech_s))
            return
        if isinstance(frame, LLMContextUserTurnFrame):
            if direction == FrameDirection.DOWNSTREAM and frame.text.strip():
                await self._agent_turn(HeardTurn(frame.text.strip()))
            return
        if isinstance(frame, LLMContextFrame):
            return  # no LLM downstream: the policy decides on the turn's words
        await self.push_frame(frame, direction)

    async def _cancel_reply_timer(self) -> None:
        if self._reply_timer is not None:
            await self.cancel_task(self._reply_timer)
            self._reply_timer = None

    async def _cancel_silence_timer(self) -> None:
        if self._silence_timer is not None:
            await self.cancel_task(self._silence_timer)
            self._silence_timer = None

    async def _start_silence_timer(self) -> None:
        await self._cancel_silence_timer()
        if self.silence_check_s is not None:
            self._silence_timer = self.create_task(self._check_in_when_silent())

    async def _check_in_when_silent(self) -> None:
        """The agent said nothing since the caller's last act: the timing's silence act (the
        goal caller asks if the agent is still there, then hangs up: ``GoalCaller.silence``;
        the trace caller says its next line)."""
        assert self.silence_check_s is not None
        await asyncio.sleep(self.silence_check_s)
        self._silence_timer = None
        if self._own_line_pending():
            await self._start_silence_timer()  # it restarts again when the line has been said
            return
        act = None if self.policy.ended or self._deciding is not None else self.timing.on_silence()
        if act is not None:
            self._answered = []
            await self._act(act)

    def _own_line_pending(self) -> bool:
        """The caller's last line is still queued at its TTS (sent, no audio yet) or being said,
        and not for so long that the TTS must have dropped it."""
        if self._line_in_flight is None:
            return False
        return self._line_sent is None or self.now() - self._line_sent < QUEUED_LINE_MAX_S

    def _waiting(self) -> bool:
        """Nothing pending: the agent is quiet and no turn of it awaits an answer (it spoke
        only over the caller's line, and its turn was let pass)."""
        idle = self._reply_timer is None and self._deciding is None and not self._heard
        return idle and not self._agent_speaking and not self.policy.ended

    async def _cancel_timers(self) -> None:
        await self._cancel_silence_timer()
        await self._cancel_reply_timer()
        if self._open_timer is not None:
            await self.cancel_task(self._open_timer)
            self._open_timer = None

    async def _open_unless_greeted(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        self._open_timer = None
        if not self._acted and not self._agent_spoke:  # a greeting underway opens at its end
            self._answered = []
            await self._act(self.policy.open())

    def _words(self) -> str:
        return " ".join(t.text for t in self._heard if t.text)

    async def _agent_turn(self, turn: HeardTurn) -> None:
        if self.policy.ended:
            return
        if self._line_sent is not None and self.now() - self._line_sent >= SILENT_TTS_S:
            self._line_in_flight = self._line_sent = None  # the TTS said nothing: carry on
        act = self._line_in_flight
        if not self._heard and act is not None and self.timing.restates(turn.text, act):
            self.stats["overlapped_asks"] += 1
            return
        await self._cancel_timers()
        self.stats["agent_turns_heard"] += 1
        self._heard.append(turn)
        timed = self.timing.reply_delay(self._words(), tuple(self._heard))
        delay = max(timed, self._quiet_left())
        if delay <= 0:
            await self._reply()
        else:
            self.stats["replies_deferred" if timed > 0 else "held_for_quiet"] += 1
            self._reply_timer = self.create_task(self._reply_when_quiet(delay))

    def _quiet_left(self) -> float:
        """How much longer the agent must stay quiet before any reply (``agent_quiet_s``)."""
        quiet = self.timing.agent_quiet_s
        if quiet <= 0 or not (self._agent_voice or self._agent_quiet_since is not None):
            return 0.0  # an ear without a VAD of its own says nothing of the agent's voice
        if self._agent_quiet_since is None:
            return quiet  # the agent is speaking
        return quiet - (self.now() - self._agent_quiet_since)

    async def _reply_when_quiet(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._reply_timer = None
        await self._reply()

    async def _reply(self) -> None:
        if self._deciding is not None:
            return  # answered with the decision in flight, once it is done
        text, self._answered, self._heard = self._words(), self._heard, []
        if self.policy.ended:
            return
        t0 = time.perf_counter()
        decided = self.policy.respond(text, self.now())
        if inspect.isawaitable(decided):
            self._deciding = self.create_task(self._act_when_decided(decided, t0))
        else:
            self._note_decision(t0)
            await self._act(decided)

    async def _act_when_decided(self, decided: Awaitable[CallerAct], t0: float) -> None:
        try:
            act = await decided
        except Exception as exc:  # the model server failed: the call fails, saying why
            self._deciding = None
            await self.push_error(f"the caller's policy failed: {type(exc).__name__}: {exc}", exception=exc)
            return
        self._deciding = None
        self._note_decision(t0)
        await self._act(act)
        if self._heard and self._reply_timer is None and not self.policy.ended:
            await self._reply()  # turns the agent took while it thought, due now

    async def _say(self, text: str) -> None:
        await self.push_frame(TTSSpeakFrame(text))

    def _note_decision(self, t0: float) -> None:
        ms = round((time.perf_counter() - t0) * 1000.0)
        self.stats["decide_ms_max"] = max(self.stats["decide_ms_max"], ms)

    async def _hold_unsaid_line(self) -> None:
        """The agent's voice started after the caller decided a line and before its audio did
        (under load the caller's TTS takes seconds): a person who hears the other side start
        holds their words. The line is withdrawn: its words and any audio synthesised leave the
        TTS and the output (an ``InterruptionFrame`` downstream only: the ears are upstream), the
        policy forgets the decision, the trail records the withdrawal at this time, and the
        turns it answered are answered again with the agent's next one. A voice that held the
        line past its lead-in writes that pause as it is withdrawn (``local_tts``).

        Let be: a line whose audio started (speech over it is a barge-in, the agent's), one
        queued behind a line still being said (holding it would cut that one), one with a later
        decision in flight, and a goodbye (the policy has ended). The perturbations' deliberate
        barge-ins and other acts are mixed into the output audio, never decided here."""
        act = self._line_in_flight
        if act is None or self._line_sent is None or self._own_voice:
            return
        if act.ends_call or self._deciding is not None:
            return
        self._line_in_flight = self._line_sent = None
        await self.push_frame(InterruptionFrame())
        self.policy.withdraw(act)
        self._heard[:0], self._answered = self._answered, []
        self.stats["lines_withdrawn"] += 1
        self.on_act(withdrawn(act))

    async def _act(self, act: CallerAct) -> None:
        self._acted = True
        self.stats["acts"] += 1
        self.on_act(act)
        if not act.ends_call:
            await self._start_silence_timer()
        if act.text:
            self._line_in_flight, self._line_sent = act, self.now()
            await self._say(act.text)
        else:
            self.stats["waits"] += 1
        if act.ends_call:
            await self.push_frame(HangUpFrame(after_words=bool(act.text)))


def withdrawn(act: CallerAct) -> CallerAct:
    """The trail's record of a line held unsaid: its words and facts, kind ``withdrawn``, the
    rule ``agent_spoke_first`` (the withdrawn act's own rule follows in ``rules``)."""
    return act.model_copy(
        update={"kind": "withdrawn", "rule": "agent_spoke_first", "rules": ["agent_spoke_first", act.rule]}
    )


class SentenceDriver(PolicyDriver):
    """A :class:`PolicyDriver` that gives an act's words to the TTS as a model's reply (the
    TTS speaks them a sentence at a time; the recorder keeps them as the caller's utterance)."""

    async def _say(self, text: str) -> None:
        await self.push_frame(LLMFullResponseStartFrame())
        await self.push_frame(LLMTextFrame(text))
        await self.push_frame(LLMFullResponseEndFrame())
