"""The goal caller's stall budget: agent turns in a row that brought it no progress."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.acts import CallerAct


class Stalls:
    """Counts turns without progress: no newly disclosed fact, no decision not made before, no
    request done (waiting on a hold is neutral); a declined transfer leaves one such turn."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._decisions: set[tuple[str, str]] = set()

    @property
    def spent(self) -> bool:
        return self.count >= self.limit

    def note(self, act: CallerAct, new_facts: bool, request_done: bool) -> None:
        if act.kind == "wait":
            return
        decision = (
            (act.kind, act.choice or act.text)
            if act.kind in ("choose", "confirm", "correct", "refuse")
            else None
        )
        new_decision = decision is not None and decision not in self._decisions
        if decision is not None:
            self._decisions.add(decision)
        self.count = 0 if (new_facts or request_done or new_decision) else self.count + 1
        if act.kind == "decline_transfer":
            self.count = max(self.count, self.limit - 1)
