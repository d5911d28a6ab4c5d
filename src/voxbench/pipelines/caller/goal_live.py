"""The goal caller live: hears the agent through its STT, decides by its goal, speaks with its voice.

The decision is :class:`~voxbench.pipelines.caller.goal.policy.GoalCaller`'s, the same one
`voxbench caller check` measures in text; this module gives it its timing (:class:`GoalTiming`)
and builds it on the pipeline every caller shares (:func:`~voxbench.pipelines.caller.live.live_caller`):

    wire in -> (gap fill) -> STT -> turn detection -> PolicyDriver -> hang-up -> TTS -> wire out

* **ears**: the caller's STT transcribes the agent and pipecat's user-turn aggregator (VAD +
  smart-turn or a silence timeout, ``GoalSimConfig.turn``) says when an agent turn has ended.
* **decision**: at the end of each agent turn that asks something (or, for one that asks
  nothing yet, once the agent has stayed quiet: :class:`GoalTiming`) the driver asks the
  policy for one act over everything the agent said since the caller last spoke. The act's
  words (its phrasing seeded by the call's attempt seed) go to the TTS whole, and the act
  itself is recorded as a ``caller_act`` event: the rule that fired, every classifier match,
  the fact keys disclosed, the option chosen, whether it hangs up. A ``wait`` act (the agent
  asked to hold) says nothing.
* **hand on the phone**: an act that ends the call ends it once the goodbye has been spoken,
  so the agent hears it whole.

If the agent has not started speaking after ``no_greeting_s``, the caller opens with its
starting utterance (a greeting that started late, as Piper's first audio can on loaded cores,
still gets the opening at its end, not over it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pipecat.pipeline.pipeline import Pipeline

from voxbench.pipelines.caller.driver import HeardTurn, PolicyDriver
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.classify import ANYTHING_ELSE_OFFERED, classify
from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig
from voxbench.pipelines.caller.live import LiveCaller, live_caller
from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.pipelines.config import GoalSimConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.caller_turns import CallerHangUp
from voxbench.scenarios import Scenario

__all__ = [
    "GoalDriver",
    "GoalTiming",
    "SpokenHangUp",
    "build_goal_caller",
    "calls_for_reply",
    "goal_caller_for",
    "is_fragment",
    "reply_delay",
]

SpokenHangUp = CallerHangUp
"""The hang-up every caller shares (it waits for words given whole as well as for LLM text)."""


_MAY_GO_ON = {"statement", "completed", "readback", "hold"}
"""What an agent turn may be and still not be over: it asked nothing yet."""


def _may_go_on(caller: GoalCaller, agent_text: str) -> set[str] | None:
    """The kinds of a turn that asked nothing yet, or None when it calls for an answer at once."""
    if "?" in agent_text:
        return None
    if not caller.opened:
        return {"greeting"}  # "Hello." before "How can I help you?"
    heard = classify(agent_text, caller.book, caller.given)
    kinds: set[str] = set(heard.kinds)
    # 'If you have any other questions, feel free to ask.' asks nothing yet: the agent may go on
    waiting = kinds - {"anything_else"} if ANYTHING_ELSE_OFFERED in heard.rules else kinds
    return kinds if waiting <= _MAY_GO_ON else None


def calls_for_reply(caller: GoalCaller, agent_text: str) -> bool:
    """Whether the agent's words call for an answer at once (a question, a request, options,
    a goodbye...) rather than being a statement it may go on from after a pause."""
    return _may_go_on(caller, agent_text) is None


def is_fragment(agent_text: str) -> bool:
    """Words that cannot be a whole agent turn: STT heard a piece of a sentence ('information.',
    'with that.': lower-case start) or one or two words ('Sure.', 'I'm sorry.'). Under load the
    agent's audio comes with gaps inside its sentences, and each piece reaches the caller as a turn."""
    text = agent_text.strip()
    return bool(text) and (text[0].islower() or len(text.split()) <= 2)


def reply_delay(
    caller: GoalCaller,
    agent_text: str,
    statement_wait_s: float,
    fragment_wait_s: float,
    done_wait_s: float | None = None,
) -> float:
    """How long the agent must stay quiet before the caller answers ``agent_text`` (0: at once).
    A plain statement that is only a fragment waits longest: all the caller would say is "Okay.";
    so does a request cut before its object ('First, I need your'): the recogniser may have split
    the line, and its rest comes as the next turn, answered with it as one.
    One that completes every request waits ``done_wait_s`` (at most ``statement_wait_s``): the
    caller's reply is its goodbye whatever the agent adds."""
    if caller.opened and "cut_request" in classify(agent_text, caller.book, caller.given).rules:
        return max(statement_wait_s, fragment_wait_s)  # 'First, I need your': the rest may follow
    kinds = _may_go_on(caller, agent_text)
    if kinds is None and not (caller.opened and "?" not in agent_text and is_fragment(agent_text)):
        return 0.0  # ('Please.', the tail of a request already answered, is no new request)
    if (kinds is None or kinds <= {"statement"}) and is_fragment(agent_text):
        return max(statement_wait_s, fragment_wait_s)
    if done_wait_s is not None and caller.would_finish(agent_text):
        return min(statement_wait_s, done_wait_s)
    return statement_wait_s


class GoalTiming:
    """When the goal caller answers (:class:`~voxbench.pipelines.caller.driver.TurnTiming`).

    A turn that asks something is answered at once. One that asks nothing yet ("Hello.",
    "Let me look that up.", "Done.") is answered only after ``statement_wait_s`` of agent
    silence (``done_wait_s`` when it completes every request the caller has): the small local
    agent pauses seconds between its sentences while it generates the next, and a caller that
    answered each sentence would talk into the next one and then answer the question again. A
    piece of a sentence (:func:`is_fragment`) waits ``fragment_wait_s``: "Okay." to
    "information." is a line the agent talks over. An agent silent after the caller's act gets
    :meth:`GoalCaller.silence`."""

    def __init__(self, caller: GoalCaller, waits: GoalSimConfig) -> None:
        self.caller, self.waits = caller, waits
        self.agent_quiet_s = waits.agent_quiet_s  # no reply before the agent is this quiet

    def reply_delay(self, heard: str, turns: Sequence[HeardTurn] = ()) -> float:
        w = self.waits
        return reply_delay(self.caller, heard, w.statement_wait_s, w.fragment_wait_s, w.done_wait_s)

    def restates(self, heard: str, in_flight: CallerAct) -> bool:
        """The agent's words only ask for facts the caller's line, still being said, gives.

        The local agent speaks a sentence at a time as its LLM writes them, with pauses
        between; the caller's turn detector can end the agent's turn at such a pause, and the
        caller answers the request it heard. Its next sentence often restates the request
        ("Please provide the code and last name. ... Could you tell me the code and last
        name?"): that is the same question, asked before the answer could be heard, and
        answering it again is a repeated line (live bb.1, make run 2026-12-04)."""
        if not in_flight.facts:
            return False
        asked = classify(heard, self.caller.book, self.caller.given).asked
        return bool(asked) and set(asked) <= set(in_flight.facts)

    def on_silence(self) -> CallerAct:
        return self.caller.silence()


class GoalDriver(PolicyDriver):
    """The :class:`PolicyDriver` running a :class:`GoalCaller` with its :class:`GoalTiming`."""

    def __init__(
        self,
        caller: GoalCaller,
        on_act: Callable[[CallerAct], None],
        waits: GoalSimConfig,
        stats: dict[str, int] | None = None,
        silence_check_s: float | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            caller, on_act, waits.no_greeting_s, GoalTiming(caller, waits), stats, silence_check_s, **kwargs
        )
        self.caller = caller
        self._acted = caller.opened


def goal_caller_for(call: CallScenario, seed: int) -> GoalCaller:
    """The policy for the call's scenario as the caller sees it (culture-resolved), keeping what
    it needs to withdraw an act the live driver holds unsaid."""
    resolved = call.resolver.resolve(call.scenario.model_dump(mode="json"))
    return GoalCaller(Scenario.model_validate(resolved), GoalCallerConfig(seed=seed), withdrawable=True)


def build_goal_caller(b: CallerBuild) -> Pipeline:
    """The goal caller's pipeline: the shared live caller around the policy (phrasings seeded
    by the call's attempt seed) with its :class:`GoalTiming`; the call ends "end_call"."""
    live = b.live
    cfg = live.cfg
    gcfg = cfg.simulator.goal
    caller = goal_caller_for(live.call, b.seed)
    return live_caller(
        b,
        LiveCaller(
            caller,
            GoalTiming(caller, gcfg),
            gcfg.no_greeting_s,
            gcfg.hangup_wait_s,
            turn=gcfg.turn,
            yields_to_agent=gcfg.yields_to_agent,
            # off when the call's inactivity limit would end the call first
            silence_check_s=gcfg.silence_check_s
            if gcfg.silence_check_s + 10.0 <= cfg.limits.inactivity_s
            else None,
            end_reason="end_call",
            stats=b.services.info.caller_stats,
        ),
    )
