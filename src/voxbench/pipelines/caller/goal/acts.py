"""A goal caller's decision, typed: what it did, which rule fired, which facts it gave.

Every reply of the goal caller is one :class:`CallerAct`. The record keeps it as a
``caller_act`` event (:meth:`CallerAct.to_event`), so offline validation can check the caller
against its goal: which facts it disclosed and when, which option it chose and why, when and
why it ended the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel, Field

from voxbench.records.events import CallerAct as CallerActEvent
from voxbench.records.events import GoalActKind

U = TypeVar("U")

ActKind = GoalActKind

END_REASONS: dict[str, str] = {
    "resolution_end": "resolved",
    "nothing_else_end": "resolved",
    "offer_outside_goal_all_done_end": "resolved",
    "confirmed_all_done_end": "resolved",
    "failure_condition_end": "failed",
    "declined_transfer_end": "failed",
    "agent_error_end": "failed",
    "told_to_end": "failed",
    "no_alternative_end": "failed",
    "transfer_refused_end": "failed",
    "transfer_ends_call": "transfer",
    "agent_goodbye": "agent_goodbye",
    "stalled_call_end": "stalled",
    "no_progress_end": "stalled",
    "same_content_again_end": "stalled",
    "same_line_again_end": "stalled",
    "same_correction_again_end": "stalled",
    "silence_after_check_in_end": "stalled",
}
"""Why a call ended, by the rule that ended it: every request and must-have resolved (or failed by
the tree's own conditions), the agent transferred or said goodbye, or turns went by without
progress. Recorded in the act's ``rules`` as ``end:<reason>`` (the ``caller_act`` trail)."""


class CallerAct(BaseModel):
    """One turn of the goal caller: the words and the decision behind them."""

    turn: int = Field(description="agent turns heard before this act (0: the opening)")
    kind: ActKind
    text: str = Field(description="what the caller says ('' when it waits)")
    rule: str = Field(description="the policy rule that decided the act")
    rules: list[str] = Field(default_factory=list, description="every rule and classifier match that fired")
    classifier: str = Field("rules", description="'rules', or 'llm:<name>' when the LLM hook chose")
    heard: list[str] = Field(default_factory=list, description="what the agent turn was classified as")
    facts: list[str] = Field(default_factory=list, description="fact keys disclosed in this act")
    choice: str = Field("", description="the option chosen, or 'yes' / 'no' to a confirmation")
    ends_call: bool = False

    @property
    def end_reason(self) -> str:
        """Why this act ends the call (:data:`END_REASONS`); '' when it does not."""
        return END_REASONS.get(self.rule, "other") if self.ends_call else ""

    def to_event(self, t: float) -> CallerActEvent:
        """The ``caller_act`` event for the record, at call time ``t``."""
        return CallerActEvent(
            t=t,
            side="user",
            kind=self.kind,
            text=self.text,
            agent_turn=self.turn,
            rule=self.rule,
            rules=self.rules,
            classifier=self.classifier,
            heard=self.heard,
            facts=self.facts,
            choice=self.choice,
            ends_call=self.ends_call,
        )


def require_last(acts: Sequence[CallerAct], act: CallerAct, undo: U | None) -> U:
    """The withdrawal rule every caller keeps (``CallerPolicy.withdraw``): only its last act,
    decided since the last withdrawal (``undo`` kept), can be withdrawn. Returns ``undo``."""
    if undo is None or not acts or acts[-1] != act:
        raise ValueError("only the caller's last act, decided since the last withdrawal, can be withdrawn")
    return undo
