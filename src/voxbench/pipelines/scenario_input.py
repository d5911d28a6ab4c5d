"""Everything a call needs from one scenario, culture-resolved once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voxbench.scenarios import AgentSpec, Scenario
from voxbench.scenarios.culture import CultureResolver
from voxbench.scenarios.loader import DomainData


@dataclass
class CallScenario:
    domain: str
    scenario: Scenario
    agent: AgentSpec
    resolver: CultureResolver
    initial_db: dict[str, Any]
    expected_db: dict[str, Any]
    lang: str = "en"

    @classmethod
    def from_domain(cls, dd: DomainData, scenario_id: str, lang: str = "en") -> CallScenario:
        sc = dd.scenarios[scenario_id]
        return cls(
            domain=dd.domain,
            scenario=sc,
            agent=dd.agent,
            resolver=dd.resolver(sc, lang),
            initial_db=dd.initial_db(scenario_id, lang),
            expected_db=dd.expected_db(scenario_id, lang),
            lang=lang,
        )

    def resolved(self) -> dict[str, Any]:
        """The scenario as the caller and the eval see it (`scenario.json`)."""
        data = self.resolver.resolve(self.scenario.model_dump(mode="json"))
        data["domain"] = self.domain
        data["lang"] = self.lang
        data.setdefault("ground_truth", {})["expected_scenario_db"] = self.expected_db
        data["starting_utterance"] = str(self.resolver.resolve(self.scenario.starting_utterance(self.lang)))
        return data
