"""The goal caller's stall budgets: agent turns in a row that brought it no progress, and the
same facts asked for again and again."""

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


class AskLoop:
    """The agent asks again, turn after turn, only for facts the caller already gave."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._last: tuple[str, ...] = ()
        self._same = 0

    def looping(self, asked: list[str], given: set[str]) -> bool:
        ask = tuple(sorted(asked))
        repeat = bool(ask) and ask == self._last and set(ask) <= given
        self._same = self._same + 1 if repeat else 0
        self._last = ask
        return self._same >= self.limit
