"""The deterministic trace-replay caller: speaks a scenario's reference user lines.

It listens to the agent only through VAD: an agent *turn* ends when the agent has been
quiet for `turn_gap_s`, and then the next line is spoken. It speaks first if the agent does
not greet, and moves on if the agent never answers. After the last line and the agent's
reply, it ends the call ("trace_finished").

Tool calls make the agent speak more than once before it needs the caller again: a live
cascade agent says a hold line ("One moment please.") and goes quiet while its LLM and the
tool run, then gives the answer. A caller that took the hold line's silence for the end of
the agent's turn would answer a question not asked yet. The caller hears only audio, so the
reference trace says how many agent turns to expect before each line
(:func:`reference_user_turns`: the agent's utterances, plus, for an agent known to speak
before every tool call, a hold line for each tool call it did not announce itself), and the
driver waits for them, except that

* a turn longer than ``hold_max_s`` is taken as the answer (an agent that skipped the hold
  line, or merged it into its answer, would otherwise leave the caller waiting), and
* after a short turn it speaks anyway once the agent has been quiet for ``hold_gap_s``
  (bounded by ``reply_timeout_s``, the safety net for an agent that never answers, and by
  ``max_wait_s``, which the runner keeps under its inactivity limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipecat.pipeline.pipeline import Pipeline

from voxbench.pipelines.caller.driver import HeardTurn
from voxbench.pipelines.caller.live import LiveCaller, live_caller
from voxbench.pipelines.caller.policy import CallerAct
from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.pipelines.caller.trace_policy import TracePolicy
from voxbench.processors.trace_config import TraceSimConfig
from voxbench.scenarios import Scenario
from voxbench.scenarios.culture import CultureResolver


@dataclass(frozen=True)
class TraceTurn:
    """One reference user line and how many agent turns to expect before it is spoken."""

    text: str
    agent_turns: int = 1


def reference_user_turns(
    scenario: Scenario, resolver: CultureResolver, tool_holds: bool = True
) -> list[TraceTurn]:
    """The reference user lines, each with the agent turns the trace puts before it.

    Between two user lines the trace has the agent's utterances and its tool calls. A live
    agent speaks each of those utterances; with ``tool_holds`` (an agent that always speaks
    before a tool call, like the cascade agent with ``pre_tool_speech``) it also says a hold
    line before each tool-call run it did not announce in words. The expected agent turns are
    the utterances plus those hold lines (at least one).
    """
    trace = scenario.ground_truth.expected_trace.trace if scenario.ground_truth.expected_trace else []
    turns: list[TraceTurn] = []
    utterances = holds = 0
    prev = ""
    for e in trace:
        kind = e.event_type
        if kind == "user_utterance" and e.utterance:
            turns.append(TraceTurn(str(resolver.resolve(e.utterance)), max(1, utterances + holds)))
            utterances = holds = 0
        elif kind == "agent_utterance" and e.utterance:
            utterances += 1
        elif (
            tool_holds
            and kind == "tool_call"
            and prev not in ("tool_call", "tool_response", "agent_utterance")
        ):
            holds += 1  # a run of tool calls the agent did not announce: expect a hold line
        prev = kind
    if not turns and scenario.starting_utterance():
        turns = [TraceTurn(str(resolver.resolve(scenario.starting_utterance())))]
    return turns


def reference_user_lines(scenario: Scenario, resolver: CultureResolver) -> list[str]:
    return [t.text for t in reference_user_turns(scenario, resolver)]


class TraceTiming:
    """When the trace caller speaks (:class:`~voxbench.pipelines.caller.driver.TurnTiming`).

    An agent turn heard (by voice, without words) is answered at once, unless more agent turns
    are due before the next line (:meth:`TracePolicy.agent_turns_due`) and the turn was short
    enough to be a hold line (``hold_max_s`` of speech): then the caller waits until the agent
    has been quiet ``hold_wait_s``. A turn heard while its own line is being said is not a
    reply to it. An agent silent ``reply_timeout_s`` after the caller's line gets the next line."""

    agent_quiet_s = 0.0  # its ear ends a turn after turn_gap_s of agent quiet already

    def __init__(self, policy: TracePolicy, cfg: TraceSimConfig, hold_wait_s: float) -> None:
        self.policy, self.cfg, self.hold_wait_s = policy, cfg, hold_wait_s
        self.holds_waited = 0  # short agent turns after which it waited for more

    def reply_delay(self, heard: str, turns: Sequence[HeardTurn] = ()) -> float:
        last = turns[-1].speech_s if turns else None
        if last is None or len(turns) >= self.policy.agent_turns_due() or last > self.cfg.hold_max_s:
            return 0.0
        self.holds_waited += 1
        # the turn ended turn_gap_s after the agent went quiet; the wait counts from then
        return max(0.0, self.hold_wait_s - self.cfg.turn_gap_s)

    def restates(self, heard: str, in_flight: CallerAct) -> bool:
        return True

    def on_silence(self) -> CallerAct | None:
        return self.policy.respond("")


def build_trace_caller(b: CallerBuild) -> Pipeline:
    """The trace caller's pipeline: the shared live caller with ears of voice activity only,
    the :class:`TracePolicy` saying the reference lines (a perturbation may add or drop lines;
    the expected agent turns then no longer apply) with its :class:`TraceTiming`; each line is
    a ``caller_act`` event. It ends the call ("trace_finished") after the last line and the
    agent's reply."""
    live, scfg = b.live, b.live.cfg.simulator
    tr = scfg.trace
    turns = reference_user_turns(live.call.scenario, live.call.resolver, b.tool_holds)[: tr.max_lines]
    lines = [t.text for t in turns]
    if b.caller_side is not None:
        lines = b.caller_side.lines(lines)
    policy = TracePolicy(lines, [t.agent_turns for t in turns] if tr.follow_trace_turns else None)
    # a hold wait must end while the caller's voice can still beat the inactivity limit
    hold_wait_s = min(
        tr.hold_gap_s, tr.reply_timeout_s, max(tr.turn_gap_s, live.cfg.limits.inactivity_s - 2.0)
    )
    return live_caller(
        b,
        LiveCaller(
            policy,
            TraceTiming(policy, tr, hold_wait_s),
            tr.no_greeting_s,
            hangup_wait_s=tr.reply_timeout_s,
            turn_gap_s=tr.turn_gap_s,
            silence_check_s=tr.reply_timeout_s,
            stats={},  # not in the record: decide_ms_max is host time, and the golden call is a trace call
        ),
    )
