"""Build voxbench's built-in datasets from the `builtin_*_src.py` sources.

Writes EVA-format files: the airline, itsm and medical_hr scenarios under
`src/voxbench/scenarios/data/`, the toy domain under `src/voxbench/scenarios/toy_data/`.
The reference tool responses and the expected final database come from replaying each
reference trace through our own tools (`voxbench.scenarios.authoring`); the database
change is printed so a person checks it is exactly what the goal asks for before
committing.

    .venv/bin/python scripts/build_builtin_data.py
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from voxbench.scenarios import load_agent_spec
from voxbench.scenarios.authoring import ScenarioSource, build_scenario
from voxbench.scenarios.loader import builtin_dataset_dir, toy_dataset_dir

# source module -> (domain, dataset folder)
SOURCES = {
    "builtin_scenarios_src": ("airline", builtin_dataset_dir()),
    "builtin_itsm_src": ("itsm", builtin_dataset_dir()),
    "builtin_medical_hr_src": ("medical_hr", builtin_dataset_dir()),
    "builtin_toy_src": ("toy", toy_dataset_dir()),
}


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def build_domain(module: str, domain: str, root: Path) -> int:
    """Write one domain's dataset and starting databases; returns the number of failed calls."""
    src_mod = importlib.import_module(module)
    agent = load_agent_spec(root / "configs" / "agents" / f"{domain}_agent.yaml")
    db_dir = root / "data" / f"{domain}_scenarios"
    db_dir.mkdir(parents=True, exist_ok=True)
    records, failures = [], 0
    for raw in src_mod.SCENARIOS:
        src = ScenarioSource.model_validate({"persona": src_mod.PERSONA, **raw})
        built = build_scenario(src, domain, agent)
        print(f"== {domain}/{src.id}: {src.user_goal['high_level_user_goal']}")
        print(built.change)
        print("session:", built.record["ground_truth"]["expected_scenario_db"].get("session"))
        if built.failed_call:
            print(f"!! reference call failed: {built.failed_call}")
            failures += 1
        (db_dir / f"{src.id}.json").write_text(_dump(built.starting_db))
        records.append(built.record)
    (root / "data" / f"{domain}_dataset.json").write_text(_dump(records))
    return failures


def build() -> None:
    failures = sum(build_domain(m, d, root) for m, (d, root) in SOURCES.items())
    if failures:
        raise SystemExit(f"{failures} scenario(s) have a failing reference call")


if __name__ == "__main__":
    build()
