"""itsm tools (EVA's `itsm_agent.yaml`), registered in `TOOLS`."""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()

# Imported for their registration side effect; they need TOOLS defined above.
from voxbench.scenarios.domains.itsm import (  # noqa: E402
    accounts,
    auth,
    facilities,
    hardware,
    incidents,
    offboarding,
    security,
    software,
)

__all__ = [
    "TOOLS",
    "accounts",
    "auth",
    "facilities",
    "hardware",
    "incidents",
    "offboarding",
    "security",
    "software",
]
