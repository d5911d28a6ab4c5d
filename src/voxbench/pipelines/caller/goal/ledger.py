"""What the caller knows of each of its requests beyond the agent turn's classification: which
request a turn resolved, how (the rule that read it) and at which agent turn.

A turn's classification (:class:`.classify.Heard`) is what its words say; what the caller makes
of them for its own requests is this ledger's. 'Your request to report your VPN issue is done.' is
no completion to the classifier's cues (they read 'it is done', not 'your X is done'), but it
names one of the caller's open requests as finished (:meth:`.ending.Endings.named_done`): that
request is resolved here, and the turn counts as a completion report because the ledger says so
(:meth:`turn_resolved`), not because its classification was rewritten.

The ledger is immutable: each update returns a new one, so a copy taken to look ahead
(:meth:`.policy.GoalCaller.would_finish`) can never leak into the call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Status = Literal["done", "refused"]

NAMED_DONE = "request_named_done"
"""The rule of a request named finished in a closing turn (:meth:`.ending.Endings.named_done`)."""


@dataclass(frozen=True)
class Resolution:
    """How one request was resolved: done or refused, by which rule, at which agent turn."""

    status: Status
    how: str
    turn: int


@dataclass(frozen=True)
class Ledger:
    """One entry per request of the caller, in order: its resolution, or None while it is open."""

    entries: tuple[Resolution | None, ...] = ()

    @classmethod
    def of(cls, n: int) -> Ledger:
        """A ledger of ``n`` open requests."""
        return cls((None,) * n)

    def resolve(self, i: int, status: Status, how: str, turn: int) -> Ledger:
        """This ledger with request ``i`` resolved at ``turn``. A request resolved again (named
        finished once more while the tracker still holds it open) takes the later resolution: each
        turn that resolves it is read as doing so."""
        if not 0 <= i < len(self.entries):
            raise IndexError(f"request {i} is not one of the caller's {len(self.entries)} requests")
        entries = list(self.entries)
        entries[i] = Resolution(status, how, turn)
        return replace(self, entries=tuple(entries))

    def at(self, turn: int) -> list[tuple[int, Resolution]]:
        """The requests resolved at agent turn ``turn``, with how."""
        return [(i, r) for i, r in enumerate(self.entries) if r is not None and r.turn == turn]

    def turn_resolved(self, turn: int, how: str) -> bool:
        """Whether agent turn ``turn`` resolved a request by rule ``how``."""
        return any(r.how == how for _, r in self.at(turn))

    def rules_at(self, turn: int) -> list[str]:
        """The rules that resolved requests at agent turn ``turn``, each once, for the act's trail."""
        return list(dict.fromkeys(r.how for _, r in self.at(turn)))
