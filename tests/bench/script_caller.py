"""A scripted text caller shared by the bench tests: its replies are fixed, so a tally's
figures follow from the script alone."""

from __future__ import annotations

from voxbench.bench.caller_check import Reply


class ScriptCaller:
    """Says its lines in order (the last one again once they run out), ending the call on the
    reply marked by ``end_at`` (0-based; None never ends)."""

    def __init__(self, lines: list[str], end_at: int | None = None) -> None:
        self.lines, self.end_at, self.n = lines, end_at, 0

    def open(self) -> Reply:
        return Reply(text="hi")

    def respond(self, agent_text: str) -> Reply:
        self.n += 1
        return Reply(text=self.lines[min(self.n, len(self.lines)) - 1], ends_call=self.n - 1 == self.end_at)
