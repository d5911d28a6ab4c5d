"""A reference conversation as editable steps, and the record it becomes.

A scenario's expected trace (EVA's format) is split into caller lines, agent lines and tool
calls. Fault injections edit that list; `to_record` then runs every tool call through the
scenario's real `ToolExecutor` on the starting database (ids the trace recorded carried
forward as `voxbench tools replay` does), so the final database is what the calls produce,
and writes a real record directory with `voxbench.records.write_record`: typed events on one
clock, scenario.json, agent.json, the two databases. No audio: the caller's speech is
represented by what was meant (`utterance`), what the agent heard (a live `transcript`) and
what the caller's recording said (a `post_call` transcript of the user channel). The agent's
turn detection is represented by its VAD's `stop` on the caller's channel, `VAD_STOP_S` after
each stretch of caller speech; a caller line can carry a harness pause (`Held`), and an agent
line can be timed from that pause (`Line.cue_s`) instead of after the line before it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from voxbench.records import (
    ConversationRecord,
    EndEvent,
    Event,
    HarnessPause,
    SimulatorInfo,
    Speech,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    Utterance,
    VADEvent,
    write_record,
)
from voxbench.records.models import AgentInfo
from voxbench.records.voice import LEAD_IN_S, SENTENCE_PAUSE_S, split_sentences
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import DomainData
from voxbench.scenarios.reference_script import Call, IdCarry, Say, reference_script

SECONDS_PER_CHAR = 0.065
GAP_S = 0.7
VAD_STOP_S = 0.25
"""An agent's VAD stop after the caller falls silent: a ``stop_secs`` of 0.2 s and one frame."""


@dataclass(frozen=True)
class Held:
    """A harness pause in a caller line: after its first ``sentence`` sentences, the voice
    silent ``seconds`` past its own sentence pause (a ``harness_pause`` event)."""

    sentence: int
    seconds: float


_END_REASONS = {"user_ended_call": "end_call", "goodbye": "goodbye", "transfer": "transfer"}


@dataclass(frozen=True)
class Line:
    """One spoken line. `spoken`: what the caller's recording said, when not the line itself;
    `wait_s`: silence before it (the other side said nothing); `held`: a harness pause inside
    a caller line; `cue_s`: an agent line whose voice starts this long after the start of the
    last harness pause (inside it, or after the caller resumed), not after the line before."""

    who: Literal["user", "agent"]
    text: str
    spoken: str | None = None
    wait_s: float = GAP_S
    held: Held | None = None
    cue_s: float | None = None


Tool = Call
"""One tool call of the agent, with the response the trace recorded: the reference script's step."""


Step = Line | Tool


@dataclass
class RefConversation:
    """One scenario's reference conversation, ready to be edited and written."""

    dd: DomainData
    scenario_id: str
    steps: list[Step]
    end_reason: str
    lang: str = "en"
    goal: dict[str, Any] = field(default_factory=dict)

    def copy(self, steps: list[Step] | None = None, end_reason: str | None = None) -> RefConversation:
        return replace(
            self, steps=list(self.steps if steps is None else steps), end_reason=end_reason or self.end_reason
        )

    def lines(self, who: str) -> list[int]:
        """Indexes of the steps that are lines of `who`."""
        return [i for i, s in enumerate(self.steps) if isinstance(s, Line) and s.who == who]

    def tools(self) -> list[int]:
        return [i for i, s in enumerate(self.steps) if isinstance(s, Tool)]

    def line(self, i: int) -> Line:
        """Step ``i``, a line."""
        s = self.steps[i]
        assert isinstance(s, Line)
        return s

    def tool(self, i: int) -> Tool:
        """Step ``i``, a tool call."""
        s = self.steps[i]
        assert isinstance(s, Tool)
        return s

    def tool_types(self) -> dict[str, str]:
        """Each of the agent's tools by name -> its type ('auth', 'read', 'write', ...)."""
        return {t.name: str(t.tool_type) for t in self.dd.agent.tools}

    def with_text(self, i: int, text: str) -> RefConversation:
        """A copy in which line ``i`` says ``text``."""
        steps = list(self.steps)
        steps[i] = replace(self.line(i), text=text)
        return self.copy(steps)


def succeeded(t: Tool) -> bool:
    """The call's recorded response is a success (EVA's ``status``; none recorded is one)."""
    return str((t.expected or {}).get("status", "success")) == "success"


def from_scenario(dd: DomainData, scenario_id: str, lang: str = "en") -> RefConversation | None:
    """The scenario's expected trace as steps (None when it has no trace with caller lines)."""
    sc = dd.scenarios[scenario_id]
    resolver = dd.resolver(sc, lang)
    script = reference_script(sc, resolver)
    if not script.user_lines or sc.ground_truth.expected_trace is None:
        return None
    steps: list[Step] = []
    for i, block in enumerate((script.prelude, *script.replies)):
        if i > 0:
            steps.append(Line("user", script.user_lines[i - 1]))
        for s in block:
            if isinstance(s, Say):
                steps.append(Line("agent", s.text))
            elif isinstance(s, Call):
                steps.append(Tool(s.name, dict(s.params), s.expected))
    end = _END_REASONS.get(str(script.end_reason or ""), "end_call")
    goal = resolver.resolve(sc.user_goal.model_dump(mode="json"))
    return RefConversation(dd, scenario_id, steps, end, lang, goal)


def _scenario_json(conv: RefConversation) -> dict[str, Any]:
    """scenario.json as a live call writes it (`CallScenario.resolved`): culture-resolved."""
    sc = conv.dd.scenarios[conv.scenario_id]
    resolver = conv.dd.resolver(sc, conv.lang)
    data: dict[str, Any] = resolver.resolve(sc.model_dump(mode="json"))
    data["domain"] = conv.dd.domain
    data["lang"] = conv.lang
    data.setdefault("ground_truth", {})["expected_scenario_db"] = conv.dd.expected_db(
        conv.scenario_id, conv.lang
    )
    data["starting_utterance"] = str(resolver.resolve(sc.starting_utterance(conv.lang)))
    return data


def _speech_s(text: str) -> float:
    return max(0.8, SECONDS_PER_CHAR * len(text))


def _caller_speech(line: Line, t: float) -> tuple[list[Event], float]:
    """The caller's voice for a line starting at `t`: one stretch, or two around a harness
    pause; the agent's VAD stop after each stretch. Returns the events and the end."""
    dur = _speech_s(line.text)
    parts = [(t, t + dur)]
    events: list[Event] = []
    if line.held is not None:
        said = " ".join(split_sentences(line.text)[: line.held.sentence])
        first = dur * len(said) / max(len(line.text), 1)
        pause_t = t + first + SENTENCE_PAUSE_S if said else t - 0.2 + LEAD_IN_S
        resumed = pause_t + line.held.seconds
        parts = [(t, t + first)] if said else []
        parts.append((resumed, resumed + dur - first))
        events.append(
            HarnessPause(t=pause_t, duration_s=line.held.seconds, sentence=line.held.sentence, line=line.text)
        )
    for on, off in parts:
        events += [
            Speech(t=on, channel="user", state="onset"),
            Speech(t=off, channel="user", state="offset"),
            VADEvent(t=off + VAD_STOP_S, side="agent", channel="user", state="stop"),
        ]
    return events, parts[-1][1]


def _line_events(line: Line, t: float) -> tuple[list[Event], float]:
    dur = _speech_s(line.text)
    end = t + dur
    if line.who == "agent":
        return [
            TTSText(t=t - 0.3, side="agent", channel="agent", text=line.text),
            Speech(t=t, channel="agent", state="onset"),
            Speech(t=end, channel="agent", state="offset"),
            Transcript(t=end + 0.4, side="user", channel="agent", text=line.text),
        ], end
    spoken = line.text if line.spoken is None else line.spoken
    events: list[Event] = [Utterance(t=t - 0.2, side="user", channel="user", text=line.text)]
    if spoken.strip():
        speech, end = _caller_speech(line, t)
        events += [*speech, Transcript(t=end + 0.3, side="agent", channel="user", text=spoken)]
    events.append(Transcript(t=end + 0.35, side="harness", channel="user", text=spoken, source="post_call"))
    return events, end


def to_record(conv: RefConversation, out: Path, conversation_id: str, seed: int) -> Path:
    """Run the tool calls through the real executor and write the record directory."""
    dd, sid = conv.dd, conv.scenario_id
    sc = dd.scenarios[sid]
    initial = dd.initial_db(sid, conv.lang)
    ex = ToolExecutor(dd.domain, initial, sc.current_date_time, dd.agent, audit=False)
    carry = IdCarry(dd.domain)
    events: list[Event] = []
    t = 1.0
    pause_t: float | None = None  # the start of the last harness pause
    for n, step in enumerate(conv.steps):
        if isinstance(step, Line):
            cued = step.cue_s is not None and pause_t is not None
            start = pause_t + step.cue_s if cued else t + step.wait_s  # type: ignore[operator]
            evs, end = _line_events(step, start)
            events += evs
            t = max(t, end) if cued else end  # a cued line overlaps the caller's resumed words
            pause_t = next((e.t for e in evs if isinstance(e, HarnessPause)), pause_t)
            continue
        call = Call(step.name, step.params, step.expected)
        args = carry.arguments(call)
        result = ex.execute(step.name, args)
        carry.learn(call, result)
        t += 0.3
        cid = f"call_{n}"
        events += [
            ToolCall(t=t, side="agent", call_id=cid, name=step.name, arguments=args),
            ToolResult(
                t=t + 0.1, side="agent", call_id=cid, name=step.name,
                status=str(result.get("status", "success")), result=result,
            ),
        ]  # fmt: skip
        t += 0.2
    events.append(EndEvent(t=t + 1.0, reason=conv.end_reason))
    rec = ConversationRecord(
        conversation_id=conversation_id,
        domain=dd.domain,
        scenario_id=sid,
        lang=conv.lang,
        end_reason=conv.end_reason,
        duration_s=round(t, 3),
        agent=AgentInfo(name="reference-trace", architecture="cascade"),
        simulator=SimulatorInfo(kind="trace"),
        seeds={"gateset": seed},
        num_tool_calls=len(conv.tools()),
    )
    return write_record(
        out, rec, events=events, scenario=_scenario_json(conv), agent=dd.agent.model_dump(mode="json"),
        initial_db=copy.deepcopy(ex.initial_db), final_db=ex.db,
    )  # fmt: skip
