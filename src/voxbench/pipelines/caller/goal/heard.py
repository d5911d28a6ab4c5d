"""One agent turn as the goal caller understood it: the :class:`Heard` that
:func:`.classify.classify` fills and the policy reads, kept apart so that the modules that read a
turn's kinds need not import the classifier."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Kind = Literal[
    "request",
    "readback",
    "confirm_question",
    "options",
    "hold",
    "completed",
    "transfer_offer",
    "transfer",
    "goodbye",
    "anything_else",
    "denial",
    "troubleshoot",
    "open_question",
    "willing_question",
    "info_request",
    "courtesy",
    "question",
    "statement",
]


class Heard(BaseModel):
    """One agent turn as the caller understood it."""

    kinds: list[Kind] = Field(default_factory=list)
    asked: list[str] = Field(default_factory=list, description="fact keys the agent asked for")
    readback_ok: list[str] = Field(
        default_factory=list, description="fact keys read back as the caller has them"
    )
    readback_wrong: list[str] = Field(
        default_factory=list, description="fact keys read back with another value"
    )
    misheard: dict[str, str] = Field(
        default_factory=dict,
        description="fact key -> the caller's fact whose value was said in its place ('' if none)",
    )
    options: list[str] = Field(default_factory=list)
    earlier_options: list[list[str]] = Field(
        default_factory=list, description="an earlier question's options"
    )
    question: str = ""
    lacking: dict[str, str] = Field(
        default_factory=dict, description="fact key -> a field asked of it that it is not ('flight number')"
    )
    unheld: dict[str, list[str]] = Field(
        default_factory=dict,
        description="a field asked beside held facts that the caller does not hold ('shift ID') -> facts in its place",
    )
    present: list[str] = Field(
        default_factory=list,
        description="parts of the present moment asked ('date', 'time'): :mod:`.present`",
    )
    rules: list[str] = Field(default_factory=list)

    def has(self, kind: Kind) -> bool:
        return kind in self.kinds


ANYTHING_ELSE_OFFERED = "anything_else_offered"
"""The rule of an "anything else?" said as a statement (the caller thanks rather than says no)."""
THAT_ALL_ASKED = "that_all_asked"
"""The rule of an "anything else?" asked as 'Will that be all?' (the caller's yes ends the call,
its 'no' goes before what is still open)."""


def mark(heard: Heard, kind: Kind, rule: str) -> None:
    heard.kinds.append(kind)
    heard.rules.append(rule)
