"""medical_hr tools (EVA's `medical_hr_agent.yaml`), registered in `TOOLS`.

The implementations live in one module per area; importing them registers the tools.
"""

from voxbench.scenarios.domains import ToolRegistry

TOOLS = ToolRegistry()

from voxbench.scenarios.domains.medical_hr import (  # noqa: E402  (modules register into TOOLS)
    auth,
    credentials,
    leave,
    onboarding,
    oncall,
    payroll,
    privileges,
    scheduling,
    shifts,
    visa,
)

__all__ = [
    "TOOLS",
    "auth",
    "credentials",
    "leave",
    "onboarding",
    "oncall",
    "payroll",
    "privileges",
    "scheduling",
    "shifts",
    "visa",
]
