"""The deterministic ToolExecutor: an agent's tool calls against a scenario database.

Tools are pure functions of `(params, db, call_index)` that may mutate `db` and always
return a result dict with a `status`. Whatever the agent sends (unknown tool, wrong
types, missing or extra parameters, malformed JSON), the executor answers with an error
result and never raises or leaves the database half-written.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from voxbench.scenarios.agent_spec import AgentSpec, ToolParam, ToolSpec
from voxbench.scenarios.domains import ToolFn, domain_tools
from voxbench.scenarios.domains._common import error

Clock = Callable[[], float]


class ToolExecutor:
    """Runs tool calls for one conversation over a private copy of the scenario database.

    Args:
        domain: `airline`, `itsm` or `medical_hr` (selects the tool implementations).
        db: the culture-resolved starting database; it is deep-copied, never mutated.
        current_date_time: the scenario's `"YYYY-MM-DD HH:MM TZ"`; its date becomes
            `db["_current_date"]`, which date-dependent tools read.
        agent: the agent spec whose tool schemas drive parameter validation.
        clock: optional time source stamped on audit entries (seconds); tests omit it so
            the audit log is fully deterministic.
    """

    def __init__(
        self,
        domain: str,
        db: dict[str, Any],
        current_date_time: str,
        agent: AgentSpec,
        clock: Clock | None = None,
    ):
        self.domain = domain
        self.agent = agent
        self.db: dict[str, Any] = copy.deepcopy(db)
        self.db["_current_date"] = current_date_time.split(" ")[0]
        self.initial_db = copy.deepcopy(self.db)
        self.clock = clock
        self.audit_log: list[dict[str, Any]] = []
        self._call_counts: Counter[str] = Counter()
        self._tools: dict[str, ToolFn] = domain_tools(domain)

    def execute(self, tool_name: str, arguments: dict[str, Any] | str | None) -> dict[str, Any]:
        """Run one tool call and return its result (never raises)."""
        self._call_counts[tool_name] += 1
        n = self._call_counts[tool_name]
        params, result = self._parse(arguments)
        self._audit("tool_call", tool_name, {"params": params if result is None else arguments})
        if result is None:
            result = self._run(tool_name, params, n)
        self._audit("tool_response", tool_name, {"response": result, "status": result.get("status")})
        return result

    def _parse(self, arguments: dict[str, Any] | str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        if arguments is None or arguments == "":
            return {}, None
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                return {}, error("invalid_arguments", f"tool arguments are not valid JSON: {exc.msg}")
        if not isinstance(arguments, dict):
            return {}, error("invalid_arguments", "tool arguments must be a JSON object")
        return arguments, None

    def _run(self, tool_name: str, params: dict[str, Any], n: int) -> dict[str, Any]:
        spec = self.agent.tool(tool_name)
        if spec is None:
            return error("tool_not_found", f"Unknown tool '{tool_name}'")
        fn = self._tools.get(tool_name)
        if fn is None:
            return error("function_not_found", f"Tool '{tool_name}' has no implementation")
        clean, err = validate_params(spec, params)
        if err is not None:
            return err
        snapshot = copy.deepcopy(self.db)
        try:
            result = fn(clean, self.db, n)
        except Exception as exc:  # a tool bug must not end the call or corrupt the db
            self.db = snapshot
            return error("execution_error", f"{type(exc).__name__}: {exc}")
        if not isinstance(result, dict) or "status" not in result:
            self.db = snapshot
            return error("execution_error", f"Tool '{tool_name}' returned no status")
        return result

    def _audit(self, kind: str, tool_name: str, payload: dict[str, Any]) -> None:
        entry: dict[str, Any] = {"type": kind, "tool_name": tool_name, **copy.deepcopy(payload)}
        if self.clock is not None:
            entry["timestamp"] = self.clock()
        self.audit_log.append(entry)


def validate_params(spec: ToolSpec, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Check params against the YAML schema; return cleaned params or an error result.

    Coercion follows pydantic's lax mode (what EVA's parameter models accept): whole
    floats and digit strings for integers, numbers for floats; `None` for an optional
    parameter means absent.
    """
    declared = spec.params
    extra = sorted(set(params) - set(declared))
    if extra:
        return {}, error(
            "unexpected_parameter",
            f"Unexpected parameter(s) for {spec.name}: {', '.join(extra)}",
            allowed=sorted(declared),
        )
    missing = [p.name for p in spec.required_parameters if params.get(p.name) is None]
    if missing:
        return {}, error(
            "missing_parameter", f"Missing required parameter(s) for {spec.name}: {', '.join(missing)}"
        )
    clean: dict[str, Any] = {}
    for name, value in params.items():
        if value is None:
            continue
        p = declared[name]
        ok, coerced = _coerce(p, value)
        if not ok:
            return {}, error(f"invalid_{name}", f"Parameter '{name}' must be of type {p.type}, got {value!r}")
        if p.enum is not None and coerced not in p.enum:
            return {}, error(f"invalid_{name}", f"Parameter '{name}' must be one of {p.enum}, got {value!r}")
        clean[name] = coerced
    return clean, None


def _coerce(p: ToolParam, v: Any) -> tuple[bool, Any]:
    t = p.type
    if t == "string":
        # A number whose text is an allowed value ('60' of ['30','60','90']) is what
        # the agent meant; EVA's parameter models accept it too.
        if p.enum is not None and isinstance(v, int | float) and not isinstance(v, bool):
            text = str(int(v)) if float(v).is_integer() else str(v)
            return (True, text) if text in p.enum else (False, v)
        return isinstance(v, str), v
    if t == "boolean":
        if isinstance(v, bool):
            return True, v
        if isinstance(v, str) and v.strip().lower() in ("true", "false"):
            return True, v.strip().lower() == "true"
        return False, v
    if t == "integer":
        if isinstance(v, bool):
            return False, v
        if isinstance(v, int):
            return True, v
        if isinstance(v, float) and v.is_integer():
            return True, int(v)
        if isinstance(v, str) and v.strip().lstrip("-").isdigit():
            return True, int(v.strip())
        return False, v
    if t in ("float", "number"):
        if isinstance(v, bool):
            return False, v
        if isinstance(v, int | float):
            return True, float(v) if t == "float" else v
        if isinstance(v, str):
            try:
                return True, float(v)
            except ValueError:
                return False, v
        return False, v
    if t == "array":
        if not isinstance(v, list):
            return False, v
        item_type = (p.items or {}).get("type")
        if item_type in (None, "object"):
            return True, v
        sub = ToolParam(name=p.name, type=item_type)
        out = []
        for x in v:
            ok, c = _coerce(sub, x)
            if not ok:
                return False, v
            out.append(c)
        return True, out
    if t == "object":
        return isinstance(v, dict), v
    return False, v
