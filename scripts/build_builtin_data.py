"""Build voxbench's built-in dataset from `builtin_scenarios_src.py`.

Writes EVA-format files under `src/voxbench/scenarios/data/data/`. The reference tool
responses and the expected final database come from replaying each reference trace
through our own tools; the database change is printed so a person checks it is exactly
what the goal asks for before committing.

    .venv/bin/python scripts/build_builtin_data.py
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from builtin_scenarios_src import PERSONA, SCENARIOS

from voxbench.scenarios import Scenario, ToolExecutor, load_agent_spec
from voxbench.scenarios.culture import CultureResolver
from voxbench.scenarios.hashing import db_diff, format_diff

ROOT = Path(__file__).resolve().parents[1] / "src" / "voxbench" / "scenarios" / "data"


def _merge_changes(raw: Any, before: Any, after: Any, unresolve: dict[str, str]) -> Any:
    """Keep the placeholder form where nothing changed; take the new value where it did."""
    if before == after:
        return raw
    if isinstance(raw, dict) and isinstance(before, dict) and isinstance(after, dict):
        return {
            k: _merge_changes(raw[k], before[k], after[k], unresolve)
            if k in raw and k in before
            else _unres(after[k], unresolve)
            for k in after
        }
    return _unres(after, unresolve)


def _unres(v: Any, unresolve: dict[str, str]) -> Any:
    if isinstance(v, str):
        return unresolve.get(v, v)
    if isinstance(v, dict):
        return {k: _unres(x, unresolve) for k, x in v.items()}
    if isinstance(v, list):
        return [_unres(x, unresolve) for x in v]
    return v


def build() -> None:
    agent = load_agent_spec(ROOT / "configs" / "agents" / "airline_agent.yaml")
    records = []
    (ROOT / "data" / "airline_scenarios").mkdir(parents=True, exist_ok=True)
    for src in SCENARIOS:
        raw_db = copy.deepcopy(src["db"])
        raw_db["_current_date"] = src["current_date_time"].split(" ")[0]
        names = src["names"]["en"]
        rec: dict[str, Any] = {
            "id": src["id"],
            "current_date_time": src["current_date_time"],
            "user_goal": src["user_goal"],
            "user_config": {
                "name": "<FIRST_NAME> <LAST_NAME>",
                "gender": src["gender"],
                "user_persona_id": 1 if src["gender"] == "woman" else 2,
                "user_persona": PERSONA,
            },
            "scenario_context": {"premise": src["user_goal"]["high_level_user_goal"], "category": "single"},
            "ground_truth": {"expected_scenario_db": {}, "expected_trace": None},
            "starting_utterances": {"en": src["starting"]},
            "culture_overrides": src["names"],
            "romanized_culture_overrides": {
                "en": {"first_name": names["first_name"], "last_name": names["last_name"]}
            },
        }
        sc = Scenario.model_validate(rec)
        res = CultureResolver.for_scenario(sc)
        unresolve = {v: k for k, v in sorted(res.values.items(), key=lambda kv: len(kv[0]))}
        db0 = res.resolve(raw_db)
        ex = ToolExecutor("airline", db0, sc.current_date_time, agent)
        trace = []
        for ev in src["trace"]:
            trace.append(ev)
            if ev["event_type"] == "tool_call":
                out = ex.execute(ev["tool_name"], res.resolve(ev["params"]))
                if out["status"] != "success":
                    raise SystemExit(f"{src['id']}: reference call {ev['tool_name']} failed: {out}")
                trace.append(
                    {
                        "event_type": "tool_response",
                        "tool_name": ev["tool_name"],
                        "status": out["status"],
                        "response": _unres(out, unresolve),
                    }
                )
        expected = _merge_changes(raw_db, ex.initial_db, ex.db, unresolve)
        expected["session"] = _unres(ex.db.get("session", {}), unresolve)
        rec["ground_truth"] = {
            "expected_scenario_db": expected,
            "expected_trace": {
                "trace": trace,
                "conversation_ended": True,
                "end_reason": "goodbye",
                "total_events": len(trace),
                "total_turns": sum(e["event_type"] == "user_utterance" for e in trace),
            },
        }
        print(f"== {src['id']}: {src['user_goal']['high_level_user_goal']}")
        print(format_diff(db_diff(ex.initial_db, ex.db)) or "(no database change)")
        print("session:", ex.db.get("session"))
        (ROOT / "data" / "airline_scenarios" / f"{src['id']}.json").write_text(
            json.dumps(raw_db, indent=1, ensure_ascii=False) + "\n"
        )
        records.append(rec)
    (ROOT / "data" / "airline_dataset.json").write_text(
        json.dumps(records, indent=1, ensure_ascii=False) + "\n"
    )


if __name__ == "__main__":
    build()
