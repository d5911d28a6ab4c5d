"""The goal caller's settings: its phrasing seed and how long it stays with an agent that makes no progress."""

from __future__ import annotations

from pydantic import BaseModel


class GoalCallerConfig(BaseModel):
    seed: int = 0
    give_up_after: int = 3
    """Turns in a row without progress (refusals, questions it cannot answer) before goodbye."""
    follow_ups: int = 1
    """Generic follow-up questions after a refusal, once the tree's scripted lines are used."""
    stall_limit: int = 6
    """Agent turns in a row that bring the caller no progress (no new fact disclosed, no new
    choice, no request done; waiting on a hold is neutral) before it says goodbye: EVA's user
    prompt ends the call when "the assistant has not been helpful for 5 consecutive turns". The
    caller's own progress undercounts an agent's help (an explanation it asked for is none), so
    one more turn (5 cut one long itsm reference call short on caller check). The same thing said
    again is bounded per content (:class:`.stall.Repeats`); this catches interleaved loops (live:
    'last name of the person you want to transfer to?' / 'reason for the transfer?' in turn for
    5 minutes). After a declined transfer one such turn is left: EVA's caller declines "and
    ends the call on the next turn" unless the agent finds another path (that turn's progress)."""
