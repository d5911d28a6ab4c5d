"""medical_hr tools (EVA's `medical_hr_agent.yaml`), registered in `TOOLS`.

The implementations live in one module per area; importing them registers the tools.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from voxbench.scenarios.domains import ToolFn, ToolRegistry
from voxbench.scenarios.domains.medical_hr._params import PARAM_RULES


class SnapshotRegistry(ToolRegistry):
    """Registers each tool so its result is a deep copy, never a view of the database.

    Read tools hand back records straight from the db; without a snapshot, a later
    write in the same conversation would silently rewrite an answer already given
    (and logged). EVA's medical_hr traces show the state at call time.
    """

    def tool(self, fn: ToolFn) -> ToolFn:
        @functools.wraps(fn)
        def snapshot(params: dict[str, Any], db: dict[str, Any], call_index: int) -> dict[str, Any]:
            return copy.deepcopy(fn(params, db, call_index))

        self[fn.__name__] = snapshot
        return fn


TOOLS = SnapshotRegistry()

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
    "PARAM_RULES",
    "TOOLS",
    "SnapshotRegistry",
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
