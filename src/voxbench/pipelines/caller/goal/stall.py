"""The goal caller's stall budgets: agent turns in a row that brought it no progress, the same
facts asked for again and again, and the same line about to be said again to the same agent turn."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.spoken import sentences_of


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
        said = [s for s in sentences_of(turn) if not s.endswith("?")]
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


_CONTENT = ("answer", "state_request")
"""Acts whose content a person says again when asked again (its facts, its request)."""
_GIVE_UP_AT = 3
"""The same content a third time to the same ask, with no progress since: the call is going nowhere."""


def _ask(turn: str) -> str:
    """The agent turn's questions, or the turn itself when it asks none; a question that is only a
    courtesy ('... the confirmation number? Please?', whisper's split) is not one."""
    qs = [s for s in sentences_of(turn) if s.endswith("?") and len(_words(s)) > 1]
    return " ".join(qs) or turn


class SameContent:
    """The same content (facts given, request stated) said again anywhere in the call, not only in a
    row: live bb.2 (make run at b10e13d) gave its confirmation code four times and its request three
    times, in turn, to an agent asking 'Could you tell me the confirmation number, please?' and
    'What would you like to do next?' over and over. A person says it a second time with an
    acknowledgement ('As I said, ...'), and the third time to the same ask, when nothing moved on
    in between (no fact newly given, no request done, no part of its question told), gives up.

    Asked again in other words, the content is said again (with the acknowledgement): the agent
    may be asking something new (reference agents ask for a one-time code three ways: 'I'm sending
    a code.', 'Is that a number you recognize?', 'Please read me the code.'); :class:`AskLoop`
    bounds that at ``same_ask_limit``."""

    def __init__(self) -> None:
        # content -> (the ask it answered last, progress after it, times in a row to that ask)
        self._said: dict[tuple[str, ...], tuple[str, tuple[int, ...], int]] = {}

    @staticmethod
    def _key(act: CallerAct) -> tuple[str, ...] | None:
        if act.kind not in _CONTENT or not act.text:
            return None
        if act.facts:  # the facts, whatever came with them ('Yes, that's right.' to a read-back)
            return (act.kind, *sorted(act.facts))
        return (act.kind, "choice", act.choice) if act.choice else (act.kind, *_words(act.text))

    def _streak(self, act: CallerAct, turn: str, progress: tuple[int, ...]) -> int:
        key = self._key(act)
        if key is None or key not in self._said:
            return 0
        ask, before, times = self._said[key]
        return times + 1 if _same(_ask(turn), ask) and progress == before else 1

    def verdict(self, act: CallerAct, turn: str, progress: tuple[int, ...]) -> str:
        """'' (new content), 'again' (said before: acknowledge it) or 'give_up'."""
        streak = self._streak(act, turn, progress)
        return "" if streak == 0 else ("give_up" if streak >= _GIVE_UP_AT else "again")

    def note(self, act: CallerAct, turn: str, before: tuple[int, ...], after: tuple[int, ...]) -> None:
        """``before``: the progress when the agent's turn came; ``after``: with this act's facts."""
        key = self._key(act)
        if key is not None:
            self._said[key] = (_ask(turn), after, max(self._streak(act, turn, before), 1))
