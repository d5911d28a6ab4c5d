"""The deterministic ToolExecutor: an agent's tool calls against a scenario database.

Tools are functions of `(params, db, call_index)` that may mutate `db` and return a
result dict with a `status`. The executor follows EVA's `ToolExecutor`: an unknown tool
or a missing implementation is an error result; parameters are validated per tool the
way EVA's pydantic params models do (domain `PARAM_RULES`, see `validation.py`), extra
parameters are ignored; a tool that raises gives `execution_error` and, as in EVA, keeps
whatever it wrote before raising (the final database must hash as EVA's would).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from voxbench.scenarios.agent_spec import AgentSpec
from voxbench.scenarios.domains import ToolFn, domain_param_rules, domain_tools
from voxbench.scenarios.domains._common import error
from voxbench.scenarios.validation import ParamRules, validate_tool_params
from voxbench.spoken.moment import call_date

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
        audit: keep `audit_log` (deep copies of every call and result); a replay that
            only reads the database passes False (eval's completion time: the copies
            were most of replaying a call).
    """

    def __init__(
        self,
        domain: str,
        db: dict[str, Any],
        current_date_time: str,
        agent: AgentSpec,
        clock: Clock | None = None,
        audit: bool = True,
    ):
        self.domain = domain
        self.agent = agent
        self.db: dict[str, Any] = copy.deepcopy(db)
        self.db["_current_date"] = call_date(current_date_time)
        self.initial_db = copy.deepcopy(self.db)
        self.clock = clock
        self._keep_audit = audit
        self.audit_log: list[dict[str, Any]] = []
        self._call_counts: Counter[str] = Counter()
        self._tools: dict[str, ToolFn] = domain_tools(domain)
        # Domains without EVA rules still get typed (pydantic lax-mode) parameters.
        self._rules: ParamRules = domain_param_rules(domain) or ParamRules(style="airline")
        self.closed = False

    def close(self) -> None:
        """The call has ended: later calls change nothing and are not audited.

        An agent torn down after the caller hung up may still finish a reply with a tool
        call; the database the call is scored on is the one at its end.
        """
        self.closed = True

    def execute(self, tool_name: str, arguments: dict[str, Any] | str | None) -> dict[str, Any]:
        """Run one tool call and return its result (never raises)."""
        if self.closed:
            return error("call_ended", "The call has ended")
        self._call_counts[tool_name] += 1
        n = self._call_counts[tool_name]
        params, result = self._parse(arguments)
        self._audit("tool_call", tool_name, {"params": params if result is None else arguments})
        if result is None:
            result = self._run(tool_name, params, n)
        self._audit("tool_response", tool_name, {"response": result, "status": result.get("status")})
        return result

    def _parse(self, arguments: dict[str, Any] | str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Arguments as a dict. A JSON string is parsed; malformed JSON or a non-object
        becomes `{}`, as EVA's cascade agent does, and the tool's validation answers."""
        if arguments is None or arguments == "":
            return {}, None
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError:
                return {}, None
        if not isinstance(arguments, dict):
            return {}, None
        return arguments, None

    def _run(self, tool_name: str, params: dict[str, Any], n: int) -> dict[str, Any]:
        spec = self.agent.tool(tool_name)
        if spec is None:
            return error("tool_not_found", f"Tool {tool_name} not found in configuration")
        fn = self._tools.get(tool_name)
        if fn is None:
            return error("function_not_found", f"No Python function found for tool {tool_name}")
        clean, err = validate_tool_params(spec, params, self._rules)
        if err is not None:
            return err
        try:
            result = fn(clean, self.db, n)
        except Exception as exc:  # EVA: the call fails, earlier writes of the tool stay
            return error("execution_error", f"Tool execution failed: {exc}")
        if not isinstance(result, dict) or "status" not in result:
            # EVA's executor raises here (the conversation crashes); no EVA tool does it.
            return error("execution_error", f"Tool '{tool_name}' returned no status")
        return result

    def _audit(self, kind: str, tool_name: str, payload: dict[str, Any]) -> None:
        if not self._keep_audit:
            return
        entry: dict[str, Any] = {"type": kind, "tool_name": tool_name, **copy.deepcopy(payload)}
        if self.clock is not None:
            entry["timestamp"] = self.clock()
        self.audit_log.append(entry)
