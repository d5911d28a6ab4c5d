"""itsm tools (EVA's `itsm_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()
