"""What every simulated caller is, apart from its ears, its voice and its timing: a policy.

A :class:`CallerPolicy` says the call's opening, decides one :class:`CallerAct` for each
agent turn it hears (the words to say, the rule that decided them, whether the call ends),
and knows whether it has ended and why. The live drivers give it ears (VAD only for the trace
caller, an STT and turn detection for the goal caller) and a voice, and never decide
anything themselves; the bench (``voxbench caller check``) runs the same policy on text.
A new caller is a policy plus a registry entry (``caller/registry.py``) whose pipeline runs it.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, runtime_checkable

from voxbench.pipelines.caller.goal.acts import CallerAct

__all__ = ["CallerAct", "CallerPolicy"]


@runtime_checkable
class CallerPolicy(Protocol):
    """One call's caller decisions (one object per call)."""

    @property
    def ended(self) -> bool:
        """Whether the caller has ended the call (its last act ends it)."""
        ...

    @property
    def end_reason(self) -> str | None:
        """Why it ended (the rule of the act that ended the call); None while it goes on."""
        ...

    def open(self) -> CallerAct:
        """The opening act: the caller speaks first (the agent did not greet in time)."""
        ...

    def respond(self, heard: str, t: float | None = None) -> CallerAct | Awaitable[CallerAct]:
        """The act answering the agent's turn ``heard`` (its words; '' for a caller that hears
        by voice activity only) at call time ``t``. The first call, if :meth:`open` was not,
        gives the opening. A policy that thinks with a model may return an awaitable."""
        ...

    def withdraw(self, act: CallerAct) -> None:
        """Its last act ``act`` was never said: the agent started speaking before the words'
        audio did, and the caller held them, as a person does. The policy forgets the decision
        as if ``respond`` (or ``open``, or the silence act) had not been called; the live driver
        hands the agent turn it answered back with the agent's next one, and the policy
        decides again on both."""
        ...
