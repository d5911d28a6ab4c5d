"""The turn clock: which turn is current at each moment of a conversation (EVA §3.1).

`voxbench.eval.context.segment` pairs speech into sessions and attaches texts to them;
this module walks the history in time order and decides where turns advance, with
EVA's rules:

* a caller speech session advances the turn when the agent has spoken since the last
  advance (the caller's first session always opens turn 1 unless EVA's rule keeps a
  caller who speaks first in turn 0);
* a chunk of the agent's STT of the caller advances it too, on the same condition (the
  agent's clock may log the words before the simulator logs their audio, and speech
  the simulator never logged still reached the agent), and opens the new turn itself;
* after the agent cuts in on the caller (a barge-in before any tool call of the turn),
  the next STT chunk, and any chunk while the interrupted caller session is still
  open, belongs to the interrupted utterance and advances nothing (EVA's `hold_turn`,
  which "suppresses late STT chunks from the interrupted session"; a cascade concept:
  S2S audit texts are the caller's intended words);
* caller sessions the simulator logged no speech for are rolled back into their turn:
  a caller session that cuts in on the agent while every caller session of the current
  turn is such an empty one continues that turn instead of opening another (the
  simulator's words for the turn arrive with the barge-in);
* a fallback nudge opens a new (agent-only) turn; a caller text with no audio anywhere
  advances like speech.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from voxbench.eval.sessions import HEvent, Session, SpanIndex


@dataclass
class TurnClock:
    """Where the turns advanced, and what the walk found on the way."""

    clock: list[tuple[float, int]] = field(default_factory=lambda: [(float("-inf"), 0)])
    """(time, turn) after each advance."""
    fallback: list[int] = field(default_factory=list)
    assistant_interrupted: set[int] = field(default_factory=set)
    user_interrupted: set[int] = field(default_factory=set)
    opened_by_stt: dict[int, int] = field(default_factory=dict)
    """id() of an STT chunk event -> the turn it opened, or joined after a chunk of the same
    session opened it (its text belongs there, not to its session's turn)."""


class _Walker:
    """The walk's state: the current turn and what happened in it so far."""

    def __init__(
        self, sessions: list[Session], cascade: bool, caller_first_is_turn_1: bool, eva: bool
    ) -> None:
        self.out = TurnClock()
        self.asst = SpanIndex([o for o in sessions if o.who == "assistant"])
        self.cascade, self.caller_first_is_turn_1 = cascade, caller_first_is_turn_1
        # EVA's rollback needs to know which sessions the simulator logged speech for
        self.rollback = eva and any(s.texts.get("user_intended") for s in sessions if s.who == "user")
        self.turn, self.spoke, self.any_user = 0, False, False
        self.open_user: Session | None = None
        self.pending: list[Session] = []  # empty caller sessions waiting for the next turn
        self.moved_on: dict[int, int] = {}  # id() of a session -> the turn its STT opened
        self._reset()

    def _reset(self) -> None:
        self.hold = False  # the next STT chunk finishes an utterance the agent cut into
        self.held: Session | None = None  # ... and no chunk advances while it is still spoken
        self.tool_in_turn = False
        self.turn_sessions = 0  # caller sessions in this turn
        self.turn_speech = False  # ... and whether the simulator logged speech for any

    def advance(self, t: float) -> None:
        self.turn += 1
        self.spoke = False
        self._reset()
        self.out.clock.append((t, self.turn))
        for p in self.pending:  # rolled back: the burst joins the turn the caller's words open
            p.turn = self.turn
        self.turn_sessions, self.pending = len(self.pending), []

    def caller_session(self, s: Session, t: float) -> None:
        cuts_in = bool(self.asst.containing(t))
        empty = self.rollback and not s.texts.get("user_intended")
        if self.spoke and empty:  # EVA rolls the advance back: no turn of its own
            s.turn = self.turn + 1
            self.pending.append(s)
            return
        continues = self.rollback and cuts_in and self.turn_sessions > 0 and not self.turn_speech
        if (self.spoke and not continues) or (
            not self.any_user and self.turn == 0 and self.caller_first_is_turn_1
        ):
            self.advance(t)
        self.spoke, self.hold, self.held, self.any_user = False, False, None, True
        self.turn_sessions += 1
        self.turn_speech |= not empty
        if cuts_in:
            self.out.user_interrupted.add(self.turn)
        s.turn = self.turn
        self.open_user = s

    def agent_session(self, s: Session, t: float) -> None:
        u = self.open_user
        if u is not None and u.start <= t < u.end and u.turn == self.turn:
            self.out.assistant_interrupted.add(self.turn)
            self.hold = self.cascade and not self.tool_in_turn
            self.held = u if self.hold else None
        s.turn = self.turn
        self.spoke = True

    def stt_chunk(self, ev: HEvent, s: Session, t: float) -> None:
        if self.hold:  # the rest of the utterance the agent cut into
            self.hold = False
        elif self.held is not None and t < self.held.end:
            pass  # the interrupted caller is still speaking: its words, not a new turn
        elif self.spoke:
            self.advance(t)
            self.out.opened_by_stt[id(ev)] = self.moved_on[id(s)] = self.turn
        elif id(s) in self.moved_on:  # more of the words that opened that turn
            self.out.opened_by_stt[id(ev)] = self.moved_on[id(s)]

    def finish(self) -> None:
        for p in self.pending:  # no caller words followed: the burst stays where it was heard
            p.turn = self.turn
        self.pending = []


def run_turn_clock(
    events: list[HEvent],
    sessions: list[Session],
    stt_chunks: list[tuple[HEvent, Session]],
    orphan_texts: list[HEvent],
    cascade: bool,
    caller_first_is_turn_1: bool,
    eva: bool,
) -> TurnClock:
    """Walk the history (`events` time-sorted) and set `Session.turn` on every session.

    `stt_chunks` are the agent's STT texts of the caller with the caller session each was
    attached to (EVA mode only); `orphan_texts` are texts with no session of their channel at all."""
    marks: list[tuple[float, int, str, object]] = [(s.start, 0, "s", s) for s in sessions]
    marks += [(e.t, 1, "f", e) for e in events if e.kind == "fallback"]
    marks += [(e.t, 2, "c", e) for e in events if e.kind == "tool_call"]
    marks += [(e.t, 3, "o", e) for e in orphan_texts if e.kind.startswith("user")]
    marks += [(e.t, 3, "x", (e, s)) for e, s in stt_chunks]
    marks.sort(key=lambda m: (m[0], m[1]))
    w = _Walker(sessions, cascade, caller_first_is_turn_1, eva)
    for t, _prio, kind, obj in marks:
        if isinstance(obj, Session):
            (w.caller_session if obj.who == "user" else w.agent_session)(obj, t)
        elif kind == "f":
            w.advance(t)
            w.out.fallback.append(w.turn)
        elif kind == "c":
            w.tool_in_turn = True
        elif kind == "o":  # a caller text with no audio anywhere: it advances like speech
            if w.spoke or (w.turn == 0 and caller_first_is_turn_1):
                w.advance(t)
        elif isinstance(obj, tuple):
            w.stt_chunk(obj[0], obj[1], t)
    w.finish()
    return w.out
