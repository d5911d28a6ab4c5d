"""When a simulated caller answers: the agent turns it heard, and the timing a policy answers them by.

The live driver (:mod:`.driver`) runs every policy with one :class:`TurnTiming`; its module
docstring says how the driver uses each part. The two limits here answer whether the caller's
own line, sent to its TTS with no audio yet, is still coming.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from voxbench.pipelines.caller.policy import CallerAct


@dataclass(frozen=True)
class HeardTurn:
    """One ended agent turn: its words ('' for an ear of voice activity only) and how long the
    agent spoke in it (None when the ear does not say)."""

    text: str
    speech_s: float | None = None


class TurnTiming(Protocol):
    """When a policy answers (see :mod:`.driver`'s docstring)."""

    agent_quiet_s: float

    def reply_delay(self, heard: str, turns: Sequence[HeardTurn] = ()) -> float: ...

    def restates(self, heard: str, in_flight: CallerAct) -> bool: ...

    def on_silence(self) -> CallerAct | None: ...


class AnswerAtTurnEnd:
    """Answer every ended agent turn at once; never act on silence."""

    agent_quiet_s = 0.0

    def reply_delay(self, heard: str, turns: Sequence[HeardTurn] = ()) -> float:
        return 0.0

    def restates(self, heard: str, in_flight: CallerAct) -> bool:
        return False

    def on_silence(self) -> CallerAct | None:
        return None


# Two limits answer one question, "is the caller's line, sent to the TTS with no audio yet, still
# coming?", on different evidence, so they differ: when the agent speaks (SILENT_TTS_S) and when
# it is silent (QUEUED_LINE_MAX_S). Both are read on the call's clock (``now``).

SILENT_TTS_S = 10.0
"""When the agent SPEAKS: an agent turn heard while the caller's line is unsaid may be let pass
as said over that line (:meth:`TurnTiming.restates`); once the line has been sent this long with no
audio, the TTS is taken to have dropped it and the turn is answered as a reply. Short: an agent
that talks on is not waiting for the line, and a dropped line would leave its turns unanswered."""

QUEUED_LINE_MAX_S = 90.0
"""When the agent is SILENT: how long the silence check waits for the caller's own line to be
said. Under CPU load a long line's audio can start tens of seconds after it went to the TTS, and
the agent, waiting for it, is silent; checking in then ("Are you still there?") answers a silence
the caller made. Long, since waiting costs only time; a line still unsaid after this long is
taken as never said and the check goes ahead."""
