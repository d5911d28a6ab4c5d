"""The trace caller's policy: the scenario's reference user lines, in order, whatever it hears.

Each reply is the next line; after the last one the call ends ("trace_finished"). The policy
also says how many agent turns the next line waits for (:func:`.trace_simulator.reference_user_turns`:
the agent's utterances and the hold lines of its tool calls), which its live timing
(:class:`~voxbench.pipelines.caller.trace_simulator.TraceTiming`) uses to wait out hold lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from voxbench.pipelines.caller.goal.acts import CallerAct

END_REASON = "trace_finished"


class TracePolicy:
    """``lines`` said in order; ``agent_turns[i]`` agent turns expected before line ``i``
    (one each when not given, or when its length does not match the lines: a perturbation
    added or dropped lines)."""

    def __init__(self, lines: Sequence[str], agent_turns: Sequence[int] | None = None) -> None:
        self.lines = list(lines)
        use = agent_turns is not None and len(agent_turns) == len(self.lines)
        self.agent_turns = list(agent_turns) if use and agent_turns is not None else [1] * len(self.lines)
        self.next_line = 0
        self.acts: list[CallerAct] = []

    @property
    def ended(self) -> bool:
        return bool(self.acts) and self.acts[-1].ends_call

    @property
    def end_reason(self) -> str | None:
        return END_REASON if self.ended else None

    def agent_turns_due(self) -> int:
        """How many agent turns the next line waits for (1 after the last line)."""
        return self.agent_turns[self.next_line] if self.next_line < len(self.agent_turns) else 1

    def open(self) -> CallerAct:
        return self.respond("")

    def respond(self, heard: str, t: float | None = None) -> CallerAct:
        """The next reference line; after the last one, the end of the call (no words)."""
        turn = len(self.acts)
        if self.next_line >= len(self.lines):
            act = CallerAct(turn=turn, kind="end", text="", rule=END_REASON, ends_call=True)
        else:
            kind = "open" if self.next_line == 0 else "answer"
            act = CallerAct(turn=turn, kind=kind, text=self.lines[self.next_line], rule="reference_line")
            self.next_line += 1
        self.acts.append(act)
        return act

    def withdraw(self, act: CallerAct) -> None:
        """The last act was never said (the agent spoke first): its line is the next one again."""
        if not self.acts or self.acts[-1] != act:
            raise ValueError("only the caller's last act can be withdrawn")
        self.acts.pop()
        if act.rule == "reference_line":
            self.next_line -= 1
