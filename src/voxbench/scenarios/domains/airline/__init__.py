"""airline tools (EVA's `airline_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry
from voxbench.scenarios.domains.airline._params import PARAM_RULES

TOOLS = ToolRegistry()

# The tool modules register themselves on import; they need `TOOLS` defined above.
from voxbench.scenarios.domains.airline import (  # noqa: E402
    ancillaries,
    compensation,
    lookup,
    rebooking,
)

__all__ = ["PARAM_RULES", "TOOLS", "ancillaries", "compensation", "lookup", "rebooking"]
