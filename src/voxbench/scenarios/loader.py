"""Load EVA-format dataset folders.

Layout (EVA's, so its public data loads unchanged)::

    DIR/data/<domain>_dataset.json            JSON array of scenarios
    DIR/data/<domain>_scenarios/<id>.json     initial database per scenario
    DIR/data/itsm_aliases/*.json              spoken-name aliases (ITSM)
    DIR/configs/agents/<domain>_agent.yaml    policy text and tool schemas

Everything is validated at load time; a malformed file raises `ScenarioError` naming
file, record id and field, and nothing half-loads.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from voxbench.scenarios.agent_spec import AgentSpec, load_agent_spec
from voxbench.scenarios.culture import CultureResolver, NameAlias, index_aliases, inject_name_aliases
from voxbench.scenarios.errors import ScenarioError
from voxbench.scenarios.models import Scenario

DOMAINS = ("airline", "itsm", "medical_hr", "toy")
BUILTIN_DATA = Path(__file__).parent / "data"
TOY_DATA = Path(__file__).parent / "toy_data"
BUILTIN_DEFAULT_DOMAINS = ("airline",)
"""What a run of the built-in data covers when no domain or scenario is chosen."""


def builtin_dataset_dir() -> Path:
    """voxbench's own scenarios (EVA format), shipped inside the package."""
    return BUILTIN_DATA


def toy_dataset_dir() -> Path:
    """The `toy` domain (three tools, two scenarios): small enough for tests and examples."""
    return TOY_DATA


def read_json(path: Path, record_id: str | None = None) -> Any:
    """Read JSON with an error that names the file and position."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ScenarioError(str(path), "file not found", record_id=record_id) from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            str(path), f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", record_id
        ) from exc


@dataclass
class DomainData:
    """One domain of a dataset: scenarios, agent spec, aliases, and where the databases live."""

    domain: str
    scenarios: dict[str, Scenario]
    agent: AgentSpec
    scenario_db_dir: Path
    aliases: dict[str, NameAlias] = field(default_factory=dict)

    def resolver(self, scenario: Scenario, lang: str = "en") -> CultureResolver:
        return CultureResolver.for_scenario(scenario, self.aliases, lang)

    def initial_db(self, scenario_id: str, lang: str = "en") -> dict[str, Any]:
        """The culture-resolved starting database, with `_current_date` and name aliases set."""
        sc = self.scenarios[scenario_id]
        path = self.scenario_db_dir / f"{scenario_id}.json"
        raw = read_json(path, scenario_id)
        if not isinstance(raw, dict):
            raise ScenarioError(str(path), "scenario database must be a JSON object", scenario_id)
        db = self.resolver(sc, lang).resolve(raw)
        db["_current_date"] = sc.current_date
        return inject_name_aliases(db, self.aliases, lang)

    def expected_db(self, scenario_id: str, lang: str = "en") -> dict[str, Any]:
        """The culture-resolved expected final database, resolved like the initial one."""
        sc = self.scenarios[scenario_id]
        db = self.resolver(sc, lang).resolve(copy.deepcopy(sc.ground_truth.expected_scenario_db))
        return inject_name_aliases(db, self.aliases, lang)


@dataclass
class Dataset:
    """A loaded dataset folder: one `DomainData` per domain present."""

    root: Path
    domains: dict[str, DomainData]

    def scenario(self, domain: str, scenario_id: str) -> Scenario:
        try:
            return self.domains[domain].scenarios[scenario_id]
        except KeyError:
            raise KeyError(f"no scenario {domain}/{scenario_id} in {self.root}") from None


def load_scenarios(path: Path) -> dict[str, Scenario]:
    """Load and validate a `<domain>_dataset.json` array."""
    data = read_json(path)
    if not isinstance(data, list):
        raise ScenarioError(str(path), "dataset must be a JSON array of scenarios")
    out: dict[str, Scenario] = {}
    for i, rec in enumerate(data):
        rid = str(rec.get("id")) if isinstance(rec, dict) and "id" in rec else f"#{i}"
        if not isinstance(rec, dict):
            raise ScenarioError(str(path), "scenario must be a JSON object", rid)
        try:
            sc = Scenario.model_validate(rec)
        except ValidationError as exc:
            raise ScenarioError.from_validation(str(path), rid, exc) from exc
        if sc.id in out:
            raise ScenarioError(str(path), "duplicate scenario id", sc.id, "id")
        out[sc.id] = sc
    return out


def load_aliases(folder: Path) -> dict[str, NameAlias]:
    if not folder.is_dir():
        return {}
    entries = []
    for p in sorted(folder.glob("*.json")):
        try:
            entries.append(NameAlias.model_validate(read_json(p)))
        except ValidationError as exc:
            raise ScenarioError.from_validation(str(p), None, exc) from exc
    return index_aliases(entries)


def load_domain(root: Path, domain: str) -> DomainData:
    """Load one domain, checking every scenario has its starting database."""
    root = Path(root)
    scenarios = load_scenarios(root / "data" / f"{domain}_dataset.json")
    agent = load_agent_spec(root / "configs" / "agents" / f"{domain}_agent.yaml")
    db_dir = root / "data" / f"{domain}_scenarios"
    for sid in scenarios:
        if not (db_dir / f"{sid}.json").is_file():
            raise ScenarioError(str(db_dir / f"{sid}.json"), "starting database missing", sid)
    aliases = load_aliases(root / "data" / f"{domain}_aliases")
    return DomainData(domain, scenarios, agent, db_dir, aliases)


def load_dataset(
    root: str | Path | None = None, domains: list[str] | tuple[str, ...] | None = None
) -> Dataset:
    """Load the domains present in an EVA-format folder (or only `domains`); None = built-in."""
    root = Path(root) if root is not None else BUILTIN_DATA
    if not root.is_dir():
        raise ScenarioError(str(root), "dataset folder not found")
    wanted = domains or [d for d in DOMAINS if (root / "data" / f"{d}_dataset.json").is_file()]
    if not wanted:
        raise ScenarioError(str(root), "no data/<domain>_dataset.json found")
    return Dataset(root, {d: load_domain(root, d) for d in wanted})
