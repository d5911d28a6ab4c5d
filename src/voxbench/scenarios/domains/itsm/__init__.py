"""itsm tools (EVA's `itsm_agent.yaml`), registered in `TOOLS`."""

import re

from voxbench.scenarios.domains import ToolRegistry
from voxbench.scenarios.domains.itsm._params import PARAM_RULES

TOOLS = ToolRegistry()

# Imported for their registration side effect; they need TOOLS defined above.
from voxbench.scenarios.domains.itsm import (  # noqa: E402
    accounts,
    auth,
    facilities,
    hardware,
    incidents,
    licenses,
    offboarding,
    permissions,
    rooms,
    security,
    software,
)

__all__ = [
    "PARAM_RULES",
    "TOOLS",
    "accounts",
    "auth",
    "facilities",
    "hardware",
    "incidents",
    "licenses",
    "offboarding",
    "permissions",
    "rooms",
    "security",
    "software",
]

# Ids the ITSM tools create (content hashes, derived ids and counters); see replay.
GENERATED_ID_RE = re.compile(
    r"(?:INC|REQ-[A-Z]+-|CASE-[A-Z]+-|CAL-|RECV-|SEC-|DSP-|ARVW-|WL-[A-Z]+-|INT-)[0-9a-zA-Z]+"
)
