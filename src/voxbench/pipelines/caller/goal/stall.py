"""When the goal caller stops repeating itself or gives up: one rule for the same thing said again
(:class:`Repeats`), one budget of turns that bring nothing (:class:`Stalls`), one measure of
progress for both (:meth:`.state.CallState.progress`: facts given, requests done, parts of its
question told, decisions made, completions the agent reported; see :data:`Progress`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import NamedTuple

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.spoken import sentences_of

Progress = tuple[int, ...]
"""What the call has moved on by, counts that only grow: two equal values mean nothing moved on.
The last is the facts confirmed read back right (:meth:`Stalls.note`: only half a move)."""

DECISIONS = ("choose", "confirm", "correct", "refuse")
"""Acts whose (kind, choice) made for the first time is progress."""


class Stalls:
    """Counts agent turns in a row that brought no progress (waiting on a hold is neutral); a
    declined transfer leaves one such turn. A turn that moves on only by facts confirmed read back
    for the first time (the last of :data:`Progress`) is neutral too: an agent reading seven fields
    back one by one does not stall, nor does it forgive the turns before that brought nothing (one
    reading two given values back among its asks of them again still stalls)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._seen: Progress = ()

    @property
    def spent(self) -> bool:
        return self.count >= self.limit

    def note(self, progress: Progress, kind: str = "wait") -> None:
        """The progress now, after an act of ``kind`` (the default, a wait, only looks)."""
        before, self._seen = self._seen, progress
        checked = len(before) == len(progress) and before[:-1] == progress[:-1] and before != progress
        self.count = (
            0 if progress != before and not checked else self.count + (kind != "wait" and not checked)
        )
        if kind == "decline_transfer":
            self.count = max(self.count, self.limit - 1)


class Limit(NamedTuple):
    """How often the same content may be said before the caller says goodbye instead (0: no limit)."""

    echo: int = 2
    """Said in a row to the agent's same turn (its words, or its question after only an
    acknowledgement): the agent did not take the line in, and saying it again will not help."""
    ask: int = 0
    """Said to the same question (the agent's questions, whatever else the turn says, a lone
    'Please?' dropped), with nothing moved on since: the lines between may differ."""
    times: int = 0
    """Said with nothing moved on since, whatever was asked."""
    again: bool = False
    """Said again with an acknowledgement ('As I said, ...'), as a person does."""
    total: int = 0
    """Said in the call at all, progress or not: a progress the recogniser makes up (the agent's
    same read-back heard with other words each time counts as a new report) must not keep a
    caller giving its code forever (make run bb.2: 7 times in 8.5 minutes; now 4 at most)."""


LIMITS: dict[str, Limit] = {
    # Facts are given again to the same turn (the agent's STT may have missed them: live bb.2 heard
    # 'H N four R eight B' as 'h and 4r8b'); a third time to the same question is a loop (live bb.2
    # gave its code 4 times to 'Could you tell me the confirmation number, please?'), a fifth to
    # questions in other words too ('What is your last name?' / 'Could you spell ...?' in turn).
    # Asked in new words, they may be a new question: reference agents ask for a one-time code as
    # 'I'm sending a code', 'Is that a number you recognize?', 'Please read me the code'; a limit
    # of 3 whatever the ask ended 3 reference calls early on caller check (premature 13 -> 16).
    "answer": Limit(echo=0, ask=3, times=5, again=True, total=5),
    # A request: stated once to a turn (live bb.3 restated it 7 times to the same turn), a third
    # time with nothing moved on, whatever the agent asked, is a loop (live bb.2: "Anything else?"
    # after a lookup, the same request stated 7 times).
    "state_request": Limit(echo=2, times=3, again=True),
    # A short 'Yes.' is what the agent's VAD and STT miss most: said twice, not a third time.
    "confirm": Limit(echo=3),
    # Said whenever the turn calls for it: a correction (bounded by its own count in a row, as a
    # new read-back may get the same value wrong again: :mod:`.corrections`), silence, the
    # opening, goodbye, the check-in.
    **{k: Limit(echo=0) for k in ("correct", "wait", "open", "end", "check_in")},
}
_ONCE = Limit()
"""Any other line (a no, a choice, 'I don't have that', a push-back, 'Okay.'): once to a turn
(live bb.2 said "No, thank you." to 'Do you want to add bags?' seven times)."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _same(a: str, b: str) -> bool:
    """The same words, up to a few an STT hears differently ('May 20' / 'May 20th', '7.30pm' / 'p.m.')."""
    return SequenceMatcher(None, _words(a), _words(b)).ratio() >= 0.8


def _ask(turn: str) -> str:
    """The agent turn's questions, or the turn itself when it asks none; a question that is only a
    courtesy ('... the confirmation number? Please?', whisper's split) is not one."""
    qs = [s for s in sentences_of(turn) if s.endswith("?") and len(_words(s)) > 1]
    return " ".join(qs) or turn


def _same_turn(turn: str, question: str, last_turn: str, last_question: str) -> bool:
    """The agent's turn again: its words, or its question after no more than an acknowledgement
    ('I understand. Do you want ...?')."""
    if _same(turn, last_turn):
        return True
    said = [s for s in sentences_of(turn) if not s.endswith("?")]
    return (
        bool(question and last_question)
        and _same(question, last_question)
        and all(len(_words(s)) <= 3 for s in said)
    )


def _key(act: CallerAct, about: str) -> tuple[str, ...]:
    """What a line says, whatever the seeded wording: the requests it states (``about``, whatever
    details come with them), a push-back by its words (a tree that says to push back three times
    gets three, :meth:`.pushback.PushBacks.next_line`; the same one again to the same refusal is
    an echo), else its choice (else the rule that phrased it) and its facts; an
    answer by its facts alone, whatever came with them ('Yes, that's right.' to a read-back)."""
    if about:
        return (act.kind, about)
    if act.kind == "pushback":  # the tree's n-th push-back is another line, in other words
        return (act.kind, act.rule, *_words(act.text))
    if act.facts and LIMITS.get(act.kind, _ONCE).again:
        return (act.kind, *sorted(act.facts))
    return (act.kind, act.choice or act.rule, *sorted(act.facts))


@dataclass
class _Said:
    ask: str  # the question it answered last
    progress: Progress  # the call's progress right after
    to_ask: int  # times said to that question with nothing moved on
    times: int  # times said with nothing moved on
    total: int = 1  # times said in the call


class Repeats:
    """The same content said again, anywhere in the call: *this content, to this ask, with no
    progress since*, limited per kind of act (:data:`LIMITS`). Counted per content across the
    call, not only in a row: live bb.2 (make run at b10e13d) alternated 'Could you tell me the
    confirmation number, please?' and 'What would you like to do next?', and the caller gave
    its code four times and its request three times, in turn."""

    def __init__(self) -> None:
        self._said: dict[tuple[str, ...], _Said] = {}
        self._last: tuple[tuple[str, ...], str, str] | None = None  # the last line, its turn and question
        self._moved: Progress = ()  # the call's progress right after the last line
        self._row = 0  # the last line, said to that turn this many times in a row

    def _echoes(self, key: tuple[str, ...], turn: str, question: str, progress: Progress) -> int:
        """Times ``key`` was just said in a row to this same agent turn. A turn that moved the call
        on since (a request reported done) is another turn, however alike its words: agents report
        each request in one formula ('Your request to X is done. What else can I help you with?'),
        and a caller that took the second report for the first said goodbye with a request open."""
        if self._last is None or key != self._last[0] or progress != self._moved:
            return 0
        return self._row if _same_turn(turn, question, self._last[1], self._last[2]) else 0

    def _counts(self, key: tuple[str, ...], turn: str, progress: Progress) -> tuple[int, int, int]:
        """Times this content would now be said to this ask and at all with nothing moved on, and
        in the call whatever moved on (0, 0, 0 if never said)."""
        said = self._said.get(key)
        if said is None:
            return 0, 0, 0
        still = progress == said.progress
        to_ask = said.to_ask + 1 if still and _same(_ask(turn), said.ask) else 1
        return to_ask, (said.times + 1 if still else 1), said.total + 1

    def told(self, act: CallerAct, about: str) -> int:
        """Times this content was said in the call (0: never), for a line that counts them."""
        said = self._said.get(_key(act, about))
        return said.total if said else 0

    def verdict(self, act: CallerAct, about: str, turn: str, question: str, progress: Progress) -> str:
        """'' (say it), 'again' (said before: acknowledge it), 'echo' (the line again to the same
        turn: goodbye instead) or 'loop' (the same content once too often: give up)."""
        if not act.text:
            return ""
        lim, key = LIMITS.get(act.kind, _ONCE), _key(act, about)
        if lim.echo and self._echoes(key, turn, question, progress) + 1 >= lim.echo:
            return "echo"
        to_ask, times, total = self._counts(key, turn, progress)
        if (
            (lim.ask and to_ask >= lim.ask)
            or (lim.times and times >= lim.times)
            or (lim.total and total >= lim.total)
        ):
            return "loop"
        return "again" if times and lim.again else ""

    def note(
        self, act: CallerAct, about: str, turn: str, question: str, before: Progress, after: Progress
    ) -> None:
        """``before``: the progress when the agent's turn came; ``after``: with this act's facts."""
        if not act.text:
            return
        key = _key(act, about)
        self._row = self._echoes(key, turn, question, before) + 1
        self._last, self._moved = (key, turn, question), after
        to_ask, times, total = self._counts(key, turn, before)
        self._said[key] = _Said(_ask(turn), after, max(to_ask, 1), max(times, 1), max(total, 1))
