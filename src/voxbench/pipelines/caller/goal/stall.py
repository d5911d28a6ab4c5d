"""The goal caller's stall budgets: agent turns in a row that brought it no progress, the same
facts asked for again and again, and the same line about to be said again to the same agent turn."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

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


_FREE = ("answer", "correct", "wait", "open", "end", "check_in")
"""Acts that may be said again: facts asked again (the agent's STT may have missed them: live bb.2
heard 'H N four R eight B' as 'h and 4r8b'; :class:`AskLoop` bounds that at ``same_ask_limit``),
silence, the opening, the goodbye, the check-in."""
_ONCE_MORE = ("confirm",)
"""A yes to the same read-back or offer is said a second time (a short 'Yes.' is what the agent's
VAD and STT miss most), not a third."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _same(a: str, b: str) -> bool:
    """The same words, up to a few an STT hears differently ('May 20' / 'May 20th', '7.30pm' / 'p.m.')."""
    return SequenceMatcher(None, _words(a), _words(b)).ratio() >= 0.8


class SameLine:
    """The caller's last spoken line and the agent turn it answered.

    The same line (same kind, rule, choice and facts, whatever the seeded wording) to the same
    agent turn again (its words, or its question after only an acknowledgement) is a loop a person
    does not keep up: live bb.2 said "No, thank you." to 'Do you want to add bags?' seven times,
    bb.3 restated its request to the same turn seven times (make run, 2026-12-04)."""

    def __init__(self) -> None:
        self._last: tuple[tuple[str, ...], str, str] | None = None
        self._times = 0  # the last line, said to that turn this many times in a row

    @staticmethod
    def _key(act: CallerAct) -> tuple[str, ...]:
        return (act.kind, act.rule, act.choice, *sorted(act.facts))

    def _repeats(self, act: CallerAct, turn: str, question: str) -> bool:
        if self._last is None or self._key(act) != self._last[0]:
            return False
        last_turn, last_q = self._last[1], self._last[2]
        if _same(turn, last_turn):
            return True
        # the same question after no more than an acknowledgement ('I understand. Do you want ...?')
        said = [s for s in re.split(r"(?<=[.!?])\s+", turn.strip()) if s and not s.endswith("?")]
        return (
            bool(question and last_q) and _same(question, last_q) and all(len(_words(s)) <= 3 for s in said)
        )

    def again(self, act: CallerAct, turn: str, question: str) -> bool:
        """Whether ``act`` says the last line again to the same agent turn, once too often."""
        if act.kind in _FREE or not self._repeats(act, turn, question):
            return False
        return self._times >= (2 if act.kind in _ONCE_MORE else 1)

    def note(self, act: CallerAct, turn: str, question: str) -> None:
        if act.text:
            self._times = self._times + 1 if self._repeats(act, turn, question) else 1
            self._last = (self._key(act), turn, question)
