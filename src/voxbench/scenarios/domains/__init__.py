"""Tool implementations per domain, registered by name.

Each domain package exposes `TOOLS: dict[str, ToolFn]`. A tool is a deterministic
function of `(params, db, call_index)`: it reads and mutates `db` (auth state lives in
`db["session"]`) and returns a dict with a `status` ("success" or "error"; errors carry
`error_type` and `message`). Params arrive already checked against the YAML schema.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

ToolFn = Callable[[dict[str, Any], dict[str, Any], int], dict[str, Any]]

_MODULES = {
    "airline": "voxbench.scenarios.domains.airline",
    "itsm": "voxbench.scenarios.domains.itsm",
    "medical_hr": "voxbench.scenarios.domains.medical_hr",
    "toy": "voxbench.scenarios.domains.toy",
}


class ToolRegistry(dict[str, ToolFn]):
    """A name -> function map filled by the `@registry.tool` decorator."""

    def tool(self, fn: ToolFn) -> ToolFn:
        self[fn.__name__] = fn
        return fn


def generated_id_pattern(domain: str) -> re.Pattern[str] | None:
    """The shape of ids a domain's tools create (`GENERATED_ID_RE`), if it declares one.

    Replay uses it to carry ids forward when a reference trace was recorded with an older
    id scheme than today's content hashes (as EVA's own data-integrity test does).
    """
    mod_name = _MODULES.get(domain)
    if mod_name is None:
        return None
    pat = getattr(importlib.import_module(mod_name), "GENERATED_ID_RE", None)
    return pat if isinstance(pat, re.Pattern) else None


def domain_param_rules(domain: str) -> Any:
    """The domain's `PARAM_RULES` (EVA's per-tool validation conventions), if declared."""
    mod_name = _MODULES.get(domain)
    if mod_name is None:
        return None
    return getattr(importlib.import_module(mod_name), "PARAM_RULES", None)


def domain_tools(domain: str) -> dict[str, ToolFn]:
    """The registered tools of `domain` (an unknown domain has none)."""
    mod_name = _MODULES.get(domain)
    if mod_name is None:
        return {}
    mod = importlib.import_module(mod_name)
    return dict(mod.TOOLS)
