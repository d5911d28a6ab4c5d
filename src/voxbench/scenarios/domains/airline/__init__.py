"""airline tools (EVA's `airline_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()

# The tool modules register themselves on import; they need `TOOLS` defined above.
from voxbench.scenarios.domains.airline import (  # noqa: E402
    ancillaries,
    compensation,
    lookup,
    rebooking,
)

__all__ = ["TOOLS", "ancillaries", "compensation", "lookup", "rebooking"]
