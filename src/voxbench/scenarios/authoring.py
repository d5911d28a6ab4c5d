"""Write EVA-format scenarios from a short source: goal, facts, starting database, reference calls.

A person writes what only a person can decide (the goal, the decision tree, the facts
the caller may give, the starting database and the reference conversation); the tool
responses and the expected final database are then *computed* by replaying the reference
tool calls through our ToolExecutor, so the expected state is exactly what the reference
solution leaves behind and `voxbench tools replay` reproduces it by construction. The
database change is returned as text so the author checks it is what the goal asks for.

Used by `scripts/build_builtin_data.py` (the built-in scenarios) and by
`voxbench scenarios new` (a scaffold a user completes).
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, Field

from voxbench.scenarios.agent_spec import AgentSpec
from voxbench.scenarios.culture import CultureResolver
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.hashing import db_diff, format_diff
from voxbench.scenarios.models import Scenario
from voxbench.spoken.moment import call_date


class ScenarioSource(BaseModel):
    """What an author writes for one scenario (everything else is derived)."""

    id: str
    current_date_time: str
    user_goal: dict[str, Any]
    names: dict[str, dict[str, Any]] = Field(description="culture_overrides: lang -> first/last name, phone")
    gender: str = "woman"
    persona: str
    starting: str = Field(description="the caller's first line")
    db: dict[str, Any] = Field(description="starting database, placeholders unresolved")
    trace: list[dict[str, Any]] = Field(
        description="reference conversation: user_utterance, agent_utterance, tool_call events"
    )
    premise: str | None = None
    category: str = "single_intent"


class BuiltScenario(BaseModel):
    """The EVA-format record, its starting database file and the change the reference made."""

    record: dict[str, Any]
    starting_db: dict[str, Any]
    change: str
    failed_call: str | None = None


def unresolve(v: Any, back: dict[str, str]) -> Any:
    """Put placeholders back where resolved values appear (whole strings only)."""
    if isinstance(v, str):
        return back.get(v, v)
    if isinstance(v, dict):
        return {k: unresolve(x, back) for k, x in v.items()}
    if isinstance(v, list):
        return [unresolve(x, back) for x in v]
    return v


def merge_changes(raw: Any, before: Any, after: Any, back: dict[str, str]) -> Any:
    """Keep the placeholder form where nothing changed; take the new value where it did."""
    if before == after:
        return raw
    if isinstance(raw, dict) and isinstance(before, dict) and isinstance(after, dict):
        return {
            k: merge_changes(raw[k], before[k], after[k], back)
            if k in raw and k in before
            else unresolve(after[k], back)
            for k in after
        }
    return unresolve(after, back)


def skeleton_record(src: ScenarioSource) -> dict[str, Any]:
    """The EVA-format record without ground truth (filled in by `build_scenario`)."""
    names = src.names.get("en") or next(iter(src.names.values()))
    return {
        "id": src.id,
        "current_date_time": src.current_date_time,
        "user_goal": src.user_goal,
        "user_config": {
            "name": "<FIRST_NAME> <LAST_NAME>",
            "gender": src.gender,
            "user_persona_id": 1 if src.gender == "woman" else 2,
            "user_persona": src.persona,
        },
        "scenario_context": {
            "premise": src.premise or src.user_goal.get("high_level_user_goal", ""),
            "category": src.category,
        },
        "ground_truth": {"expected_scenario_db": {}, "expected_trace": None},
        "starting_utterances": {"en": src.starting},
        "culture_overrides": src.names,
        "romanized_culture_overrides": {
            "en": {"first_name": names["first_name"], "last_name": names["last_name"]}
        },
    }


def build_scenario(src: ScenarioSource, domain: str, agent: AgentSpec) -> BuiltScenario:
    """Replay the reference calls, record their responses and derive the expected database.

    A reference call that fails is reported in `failed_call` (the scenario is still
    built, so an author sees every problem at once); a correct reference never fails.
    """
    raw_db = copy.deepcopy(src.db)
    raw_db["_current_date"] = call_date(src.current_date_time)
    rec = skeleton_record(src)
    sc = Scenario.model_validate(rec)
    res = CultureResolver.for_scenario(sc)
    back = {v: k for k, v in sorted(res.values.items(), key=lambda kv: len(kv[0]))}
    ex = ToolExecutor(domain, res.resolve(raw_db), sc.current_date_time, agent)
    trace: list[dict[str, Any]] = []
    failed: str | None = None
    for n, ev in enumerate(src.trace):
        trace.append(ev)
        if ev["event_type"] != "tool_call":
            continue
        out = ex.execute(ev["tool_name"], res.resolve(ev.get("params") or {}))
        if out.get("status") != "success" and failed is None:
            failed = f"event #{n} {ev['tool_name']}: {out.get('error_type')}: {out.get('message')}"
        trace.append(
            {
                "event_type": "tool_response",
                "tool_name": ev["tool_name"],
                "status": out.get("status"),
                "response": unresolve(out, back),
            }
        )
    expected = merge_changes(raw_db, ex.initial_db, ex.db, back)
    expected["session"] = unresolve(ex.db.get("session", {}), back)
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
    change = format_diff(db_diff(ex.initial_db, ex.db)) or "(no database change)"
    return BuiltScenario(record=rec, starting_db=raw_db, change=change, failed_call=failed)
