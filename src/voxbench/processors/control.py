"""How either side asks the runner to end the call (first request wins)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from voxbench.records import RecordStatus

TRANSFER_TOOL = "transfer_to_agent"  # the tool whose call ends the call as a transfer


@dataclass
class EndRequest:
    reason: str
    status: RecordStatus = "completed"
    error: str | None = None
    error_source: str | None = None
    t: float = 0.0


@dataclass
class CallControl:
    """Shared by the runner, the agent's tools and the simulator's driver."""

    request: EndRequest | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    def end(
        self,
        reason: str,
        *,
        status: RecordStatus = "completed",
        error: str | None = None,
        error_source: str | None = None,
        t: float = 0.0,
    ) -> bool:
        if self.request is not None:
            return False
        self.request = EndRequest(reason, status, error, error_source, t)
        self.ended.set()
        return True

    @property
    def ending(self) -> bool:
        return self.request is not None
