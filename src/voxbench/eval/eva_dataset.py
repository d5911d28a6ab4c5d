"""The EVA dataset parts that scoring an EVA run folder attaches to each record, loaded once.

Why: every record of an EVA run needs its scenario (goal, persona, expected database) and
the domain's agent spec (instructions, tool schemas). Reading and validating the whole
`<domain>_dataset.json` and parsing the agent YAML again for each record was about 80 %
of the time spent scoring EVA run folders. One `EvaDataset` per scoring run loads each
domain once and resolves each scenario's expected database once per language.

The attached values are shared by every record of the same scenario: metrics are pure
and read them only (the project's rule), so sharing is safe and saves the copies.
A domain that fails to load fails every record that needs it, with the same error, as
loading it per record did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.scenarios.loader import DomainData, load_dataset


@dataclass
class _ScenarioParts:
    """What one scenario contributes to a context (for one language)."""

    expected_db: dict[str, Any]
    user_goal: dict[str, Any]
    user_persona: str
    current_date_time: str


@dataclass
class _AgentParts:
    instructions: str
    role: str
    tools: list[dict[str, Any]]


@dataclass
class EvaDataset:
    """An EVA dataset folder, loaded lazily per domain and memoised for one scoring run."""

    root: Path
    _domains: dict[str, DomainData | Exception] = field(default_factory=dict)
    _agents: dict[str, _AgentParts] = field(default_factory=dict)
    _scenarios: dict[tuple[str, str, str], _ScenarioParts | None] = field(default_factory=dict)

    def domain(self, name: str) -> DomainData:
        """The loaded domain; a load error is remembered and raised again on every call."""
        if name not in self._domains:
            try:
                self._domains[name] = load_dataset(self.root, [name]).domains[name]
            except Exception as exc:  # re-raised per record: each one counts as unreadable
                self._domains[name] = exc
        got = self._domains[name]
        if isinstance(got, Exception):
            raise got
        return got

    def _agent(self, name: str, dd: DomainData) -> _AgentParts:
        if name not in self._agents:
            self._agents[name] = _AgentParts(
                dd.agent.instructions, dd.agent.role, [t.model_dump() for t in dd.agent.tools]
            )
        return self._agents[name]

    def _scenario(self, name: str, dd: DomainData, sid: str, lang: str) -> _ScenarioParts | None:
        key = (name, sid, lang)
        if key not in self._scenarios:
            sc = dd.scenarios.get(sid)
            self._scenarios[key] = (
                None
                if sc is None
                else _ScenarioParts(
                    dd.expected_db(sid, lang),
                    sc.user_goal.model_dump(),
                    sc.user_config.user_persona,
                    sc.current_date_time,
                )
            )
        return self._scenarios[key]

    def attach(self, ctx: ConversationContext, domain: str) -> None:
        """Set the scenario and agent fields of `ctx`; a scenario not in the dataset (held
        back, or another dataset's) leaves them unset."""
        dd = self.domain(domain)
        sp = self._scenario(domain, dd, ctx.scenario_id, ctx.language)
        if sp is None:
            return
        ap = self._agent(domain, dd)
        ctx.expected_db = sp.expected_db
        ctx.user_goal = sp.user_goal
        ctx.user_persona = sp.user_persona
        ctx.current_date_time = sp.current_date_time
        ctx.agent_instructions = ap.instructions
        ctx.agent_role = ap.role
        ctx.agent_tools = ap.tools
