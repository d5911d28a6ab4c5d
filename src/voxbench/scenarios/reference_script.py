"""A scenario's reference conversation as the agent's script, reply by reply (pure).

EVA's expected trace interleaves the caller's lines, the agent's lines and the agent's
tool calls. The reference agent (``voxbench.pipelines.agent.reference``) re-enacts the
agent's side of it live: what it says before the caller's first line (the ``prelude``,
usually a greeting) and, after the caller's line ``i`` ends, ``replies[i]`` (its lines
and tool calls in trace order, up to the caller's next line).

Tool-call arguments are culture-resolved here; ids that our tools generate differently
from the ones EVA's trace recorded are carried forward at run time by :class:`IdCarry`,
exactly as ``voxbench tools replay`` does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from voxbench.scenarios.culture import CultureResolver
from voxbench.scenarios.domains import generated_id_pattern
from voxbench.scenarios.models import Scenario
from voxbench.scenarios.replay import collect_id_changes, substitute_ids


@dataclass(frozen=True)
class Say:
    """One agent line of the trace."""

    text: str


@dataclass(frozen=True)
class Call:
    """One tool call of the trace, with the response the trace recorded (for id carrying)."""

    name: str
    params: dict[str, Any]
    expected: dict[str, Any] | None = None


Step = Say | Call


@dataclass(frozen=True)
class ReferenceScript:
    prelude: tuple[Step, ...]
    replies: tuple[tuple[Step, ...], ...]  # replies[i] follows the caller's line i
    user_lines: tuple[str, ...]
    end_reason: str | None = None

    @property
    def agent_lines(self) -> list[str]:
        return [s.text for r in (self.prelude, *self.replies) for s in r if isinstance(s, Say)]

    @property
    def tool_calls(self) -> list[str]:
        return [s.name for r in (self.prelude, *self.replies) for s in r if isinstance(s, Call)]

    @property
    def responses(self) -> list[str]:
        """What the agent says as one response each: a block's lines joined up to each tool call."""
        return [text for _, text in self.response_blocks()]

    def response_blocks(self) -> list[tuple[int, str]]:
        """Each response with the caller line it answers (-1: the opening, before any line)."""
        out: list[tuple[int, str]] = []
        for i, block in enumerate((self.prelude, *self.replies)):
            texts: list[str] = []
            for step in (*block, None):
                if isinstance(step, Say):
                    texts.append(step.text)
                elif texts:
                    out.append((i - 1, join_lines(texts)))
                    texts = []
        return out

    def reply_after(self, user_turn: int) -> tuple[Step, ...]:
        """The agent's reply to the caller's line ``user_turn`` (0-based); empty past the end."""
        return self.replies[user_turn] if 0 <= user_turn < len(self.replies) else ()


def join_lines(texts: list[str]) -> str:
    """Consecutive agent lines said as one response."""
    return " ".join(t.strip() for t in texts if t.strip())


def reference_script(scenario: Scenario, resolver: CultureResolver) -> ReferenceScript:
    """Split the expected trace at the caller's lines (the same lines the trace caller speaks)."""
    et = scenario.ground_truth.expected_trace
    trace = et.trace if et else []
    prelude: list[Step] = []
    replies: list[list[Step]] = []
    lines: list[str] = []
    current = prelude
    last_call: Call | None = None
    for e in trace:
        if e.event_type == "user_utterance" and e.utterance:
            lines.append(str(resolver.resolve(e.utterance)))
            replies.append([])
            current = replies[-1]
        elif e.event_type == "agent_utterance" and e.utterance:
            current.append(Say(str(resolver.resolve(e.utterance))))
        elif e.event_type == "tool_call" and e.tool_name:
            last_call = Call(e.tool_name, dict(resolver.resolve(e.params or {})))
            current.append(last_call)
        elif (
            e.event_type == "tool_response" and last_call is not None and current and current[-1] is last_call
        ):
            current[-1] = Call(last_call.name, last_call.params, dict(resolver.resolve(e.response or {})))
            last_call = None
    if not lines and scenario.starting_utterance():
        lines = [str(resolver.resolve(scenario.starting_utterance()))]
        replies = [[]]
    return ReferenceScript(
        tuple(prelude), tuple(tuple(r) for r in replies), tuple(lines), et.end_reason if et else None
    )


@dataclass
class IdCarry:
    """Ids the trace recorded -> ids our tools generated, learnt from each response."""

    domain: str
    ids: dict[str, str] = field(default_factory=dict)

    def arguments(self, call: Call) -> dict[str, Any]:
        out: dict[str, Any] = substitute_ids(call.params, self.ids)
        return out

    def learn(self, call: Call, result: dict[str, Any]) -> None:
        id_re = generated_id_pattern(self.domain)
        if id_re is None or call.expected is None:
            return
        got = json.loads(json.dumps(result, default=str))
        collect_id_changes(substitute_ids(call.expected, self.ids), got, id_re, self.ids)
