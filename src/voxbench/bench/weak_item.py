"""What the weak-agent bench grades: one agent turn and what the caller's reply to it must (and
must not) say, the dev/test half it belongs to (the caller check's split), and the one hash the
builders fix their choices by (which facts, which wording, which order)."""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, Field


class WeakItem(BaseModel):
    """One graded agent turn: said after ``context`` (the caller's replies to those are not graded)."""

    domain: str
    scenario_id: str
    half: str
    cls: str
    act: str
    context: list[str] = Field(default_factory=list)
    turn: str
    must: list[str] = Field(default_factory=list, description="fact keys the reply must say")
    must_not: list[str] = Field(default_factory=list, description="fact keys the reply must not say")
    words: list[str] = Field(
        default_factory=list, description="the goal's words the reply must say (two thirds)"
    )
    open_words: list[list[str]] = Field(
        default_factory=list, description="each open request's words (ending classes)"
    )
    spelled: list[str] = Field(
        default_factory=list, description="values the reply must spell letter by letter"
    )
    not_offered: list[str] = Field(
        default_factory=list, description="a thing offered beside its request that the reply must not choose"
    )
    not_my: list[str] = Field(
        default_factory=list, description="things the reply must not call its own ('my application')"
    )
    framed: list[str] = Field(
        default_factory=list, description="wishes the reply, if it says them, must say as wishes"
    )
    when: str = Field(default="", description="the date of the call the reply must say (``present_asked``)")
    steps: list[str] = Field(
        default_factory=list,
        description="tree steps the class adds to the scenario's edge cases (:mod:`.weak_refusals`)",
    )
    told: int = Field(default=0, description="times the caller said the must fact before: no more claimed")
    not_words: list[str] = Field(default_factory=list, description="words the reply must not say ('also')")


def digest(*parts: object) -> str:
    """The sha256 hex digest of ``parts`` joined by '/': sorting by it, or reading a number off
    its first digits, fixes an order or a choice by the scenario and the item, with no seed."""
    return hashlib.sha256("/".join(f"{p}" for p in parts).encode()).hexdigest()


def half(domain: str, scenario_id: str) -> str:
    """The caller check's split, fixed in advance: dev when sha256('domain/id')'s first 8 hex digits are even."""
    return "dev" if int(digest(domain, scenario_id)[:8], 16) % 2 == 0 else "test"
