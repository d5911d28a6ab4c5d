"""`voxbench scenarios new`: start a scenario in EVA's format from a template of its domain.

The scaffold is a complete, loadable record whose text fields say `TODO`: the author
writes the goal, decision tree and facts, edits the expected database (it starts equal
to the starting database, i.e. "nothing changes"), and writes the reference
conversation with its tool calls. `voxbench scenarios validate DIR` then lists what is
still TODO, and `voxbench tools replay --data DIR` checks that the reference calls bring
the starting database exactly to the expected one.

The starting database comes from a template scenario of the same domain (voxbench's
built-in ones by default), so its shape is one the domain's tools understand.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from voxbench.scenarios.loader import (
    DOMAINS,
    builtin_dataset_dir,
    load_dataset,
    read_json,
    toy_dataset_dir,
)
from voxbench.spoken.moment import call_date

TODO = "TODO"


class Scaffold(BaseModel):
    """What `scaffold_scenario` wrote."""

    domain: str
    scenario_id: str
    template: str
    dataset_file: str
    starting_db_file: str
    agent_file: str


def template_root(domain: str, data: str | Path | None = None) -> Path:
    """Where templates of `domain` come from: `data`, else the toy or the built-in data."""
    if data is not None:
        return Path(data)
    return toy_dataset_dir() if domain == "toy" else builtin_dataset_dir()


def _decision_tree() -> dict[str, Any]:
    return {
        "must_have_criteria": [f"{TODO}: what must be true at the end (one line per outcome)."],
        "nice_to_have_criteria": [],
        "negotiation_behavior": [
            f"{TODO}: how the caller answers the agent's questions, step by step.",
            "Give the facts in information_required only when the agent asks for them.",
        ],
        "resolution_condition": f"{TODO}: what the agent says that means the task is done. End the call.",
        "failure_condition": "If the agent makes no progress for 3 turns, say goodbye and end the call.",
        "escalation_behavior": "Do not ask for a live agent. If offered a transfer, decline.",
        "edge_cases": [
            "If the agent asks whether there is anything else, say no and end the call.",
            "Never invent new requests beyond your goal.",
        ],
    }


def new_record(template: dict[str, Any], scenario_id: str, starting_db: dict[str, Any]) -> dict[str, Any]:
    """The scaffold record: the template's date, caller and facts; TODO goal; no change expected."""
    expected = copy.deepcopy(starting_db)
    expected["_current_date"] = call_date(str(template["current_date_time"]))
    return {
        "id": scenario_id,
        "current_date_time": template["current_date_time"],
        "user_goal": {
            "high_level_user_goal": f"{TODO}: what the caller wants, in the second person ('You want ...').",
            "decision_tree": _decision_tree(),
            "information_required": copy.deepcopy(template["user_goal"].get("information_required", {})),
        },
        "user_config": copy.deepcopy(template["user_config"]),
        "scenario_context": {
            "premise": f"{TODO}: one paragraph for judges and readers.",
            "category": "single_intent",
        },
        "ground_truth": {
            "expected_scenario_db": expected,
            "expected_trace": {
                "trace": [
                    {"event_type": "user_utterance", "utterance": f"{TODO}: the caller's first line."},
                    {"event_type": "agent_utterance", "utterance": f"{TODO}: the agent's answer."},
                ],
                "conversation_ended": True,
                "end_reason": "goodbye",
            },
        },
        "starting_utterances": {"en": f"{TODO}: the caller's first line."},
        "culture_overrides": copy.deepcopy(template.get("culture_overrides", {})),
        "romanized_culture_overrides": copy.deepcopy(template.get("romanized_culture_overrides", {})),
    }


def scaffold_scenario(
    domain: str,
    out: str | Path,
    scenario_id: str | None = None,
    template_id: str | None = None,
    data: str | Path | None = None,
) -> Scaffold:
    """Add a new scenario to the EVA-format folder `out` (created if needed).

    Raises ValueError for an unknown domain or template, or an id already in `out`.
    """
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}: voxbench has tools for {', '.join(DOMAINS)}")
    src_root = template_root(domain, data)
    ds = load_dataset(src_root, [domain])
    dd = ds.domains[domain]
    tid = template_id or next(iter(dd.scenarios))
    if tid not in dd.scenarios:
        raise ValueError(f"no template scenario {tid!r} in {src_root} (has {', '.join(dd.scenarios)})")
    raw_records = read_json(src_root / "data" / f"{domain}_dataset.json")
    template = next(r for r in raw_records if str(r.get("id")) == tid)
    starting = read_json(dd.scenario_db_dir / f"{tid}.json")

    out = Path(out)
    dataset_file = out / "data" / f"{domain}_dataset.json"
    records: list[dict[str, Any]] = read_json(dataset_file) if dataset_file.is_file() else []
    sid = scenario_id or f"new.{len(records) + 1}"
    if any(str(r.get("id")) == sid for r in records):
        raise ValueError(f"{dataset_file}: scenario id {sid!r} already exists (pass --id)")
    db_file = out / "data" / f"{domain}_scenarios" / f"{sid}.json"
    db_file.parent.mkdir(parents=True, exist_ok=True)
    agent_file = out / "configs" / "agents" / f"{domain}_agent.yaml"
    if not agent_file.is_file():
        agent_file.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src_root / "configs" / "agents" / f"{domain}_agent.yaml", agent_file)
    db_file.write_text(json.dumps(starting, indent=1, ensure_ascii=False) + "\n")
    records.append(new_record(template, sid, starting))
    dataset_file.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    return Scaffold(
        domain=domain,
        scenario_id=sid,
        template=f"{src_root}:{tid}",
        dataset_file=str(dataset_file),
        starting_db_file=str(db_file),
        agent_file=str(agent_file),
    )
