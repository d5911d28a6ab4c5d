"""airline tools (EVA's `airline_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()
