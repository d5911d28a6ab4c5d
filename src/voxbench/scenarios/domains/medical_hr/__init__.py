"""medical_hr tools (EVA's `medical_hr_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()
