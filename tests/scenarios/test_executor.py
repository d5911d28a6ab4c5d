"""Bad agent input always comes back as an error result; the database is never corrupted."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from voxbench.scenarios import AgentSpec, ToolExecutor
from voxbench.scenarios.domains import _MODULES as DOMAIN_MODULES
from voxbench.scenarios.domains import ToolRegistry

SPEC = AgentSpec.model_validate(
    {
        "id": "agent_toy",
        "name": "Toy",
        "instructions": "Be nice.",
        "tools": [
            {
                "id": "set_seat",
                "name": "set_seat",
                "tool_type": "write",
                "required_parameters": [
                    {"name": "seat", "type": "string"},
                    {"name": "row", "type": "integer"},
                    {"name": "cabin", "type": "string", "enum": ["economy", "business"]},
                ],
                "optional_parameters": [
                    {"name": "price", "type": "float"},
                    {"name": "notify", "type": "boolean"},
                    {"name": "tags", "type": "array", "items": {"type": "string"}},
                ],
            },
            {"id": "explode", "name": "explode", "tool_type": "write"},
            {"id": "no_impl", "name": "no_impl", "tool_type": "read"},
        ],
    }
)

TOY = ToolRegistry()


@TOY.tool
def set_seat(params: dict[str, Any], db: dict[str, Any], call_index: int) -> dict[str, Any]:
    db.setdefault("seats", []).append({**params, "n": call_index})
    return {"status": "success", "params": params}


@TOY.tool
def explode(params: dict[str, Any], db: dict[str, Any], call_index: int) -> dict[str, Any]:
    db["half_written"] = True
    raise RuntimeError("boom")


@pytest.fixture
def ex(monkeypatch: pytest.MonkeyPatch) -> ToolExecutor:
    import sys
    import types

    mod = types.ModuleType("voxbench_toy_tools")
    mod.TOOLS = TOY  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "voxbench_toy_tools", mod)
    monkeypatch.setitem(DOMAIN_MODULES, "toy", "voxbench_toy_tools")
    return ToolExecutor("toy", {"seats": []}, "2026-04-28 11:30 PST", SPEC)


GOOD = {"seat": "1A", "row": 1, "cabin": "economy"}


def test_success_and_lax_coercion(ex: ToolExecutor) -> None:
    r = ex.execute("set_seat", {**GOOD, "row": "12", "price": 10, "notify": "yes", "tags": ["a"]})
    assert r["status"] == "success"
    assert r["params"]["row"] == 12 and r["params"]["price"] == 10.0 and r["params"]["notify"] is True
    assert ex.db["_current_date"] == "2026-04-28"
    assert ex.execute("set_seat", {**GOOD, "notify": 0})["params"]["notify"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({**GOOD, "row": "twelve"}, "Invalid or missing parameter 'row': Input should be a valid integer"),
        ({**GOOD, "seat": 12}, "Invalid or missing parameter 'seat': Input should be a valid string"),
        (
            {**GOOD, "cabin": "first"},
            "Invalid or missing parameter 'cabin': Input should be 'economy' or 'business'",
        ),
        ({**GOOD, "tags": "a"}, "Invalid or missing parameter 'tags': Input should be a valid list"),
        ({"seat": "1A", "row": 1}, "Invalid or missing parameter 'cabin': Field required"),
        (
            {"seat": None, "row": 1, "cabin": "economy"},
            "Invalid or missing parameter 'seat': Input should be a valid string",
        ),
        ('{"seat": "1A", ', "Invalid or missing parameter 'seat': Field required"),
        ("[1, 2]", "Invalid or missing parameter 'seat': Field required"),
    ],
)
def test_bad_input_is_evas_invalid_parameter(ex: ToolExecutor, args: Any, message: str) -> None:
    """EVA: pydantic's first error, `invalid_parameter` for a field outside the error map;
    malformed JSON arguments become `{}` (the cascade agent's parsing)."""
    before = copy.deepcopy(ex.db)
    r = ex.execute("set_seat", args)
    assert (r["status"], r["error_type"]) == ("error", "invalid_parameter")
    assert r["message"].startswith(message)
    assert ex.db == before


def test_extra_parameters_are_ignored(ex: ToolExecutor) -> None:
    r = ex.execute("set_seat", {**GOOD, "colour": "red"})
    assert r["status"] == "success" and "colour" not in r["params"]


def test_null_optional_is_absent(ex: ToolExecutor) -> None:
    assert "price" not in ex.execute("set_seat", {**GOOD, "price": None})["params"]


def test_json_string_arguments(ex: ToolExecutor) -> None:
    assert ex.execute("set_seat", '{"seat": "2B", "row": 2, "cabin": "business"}')["status"] == "success"


def test_unknown_and_unimplemented_tools(ex: ToolExecutor) -> None:
    assert ex.execute("fly_me_to_the_moon", {}) == {
        "status": "error",
        "error_type": "tool_not_found",
        "message": "Tool fly_me_to_the_moon not found in configuration",
    }
    assert ex.execute("no_impl", {}) == {
        "status": "error",
        "error_type": "function_not_found",
        "message": "No Python function found for tool no_impl",
    }


def test_crashing_tool_keeps_its_partial_writes(ex: ToolExecutor) -> None:
    """EVA does not roll back: what the tool wrote before raising stays (and is hashed)."""
    r = ex.execute("explode", {})
    assert r == {"status": "error", "error_type": "execution_error", "message": "Tool execution failed: boom"}
    assert ex.db["half_written"] is True


def test_call_index_counts_every_call(ex: ToolExecutor) -> None:
    ex.execute("set_seat", GOOD)
    ex.execute("set_seat", {**GOOD, "row": "x"})  # a failed validation still counts
    ex.execute("set_seat", {**GOOD, "seat": "1B"})
    assert [s["n"] for s in ex.db["seats"]] == [1, 3]
    kinds = [(e["type"], e["tool_name"]) for e in ex.audit_log]
    assert kinds == [("tool_call", "set_seat"), ("tool_response", "set_seat")] * 3
    assert ex.initial_db["seats"] == []


def test_openai_schema() -> None:
    fn = SPEC.tool("set_seat").openai_schema()["function"]  # type: ignore[union-attr]
    assert fn["parameters"]["required"] == ["seat", "row", "cabin"]
    assert fn["parameters"]["properties"]["price"]["type"] == "number"
    assert fn["parameters"]["properties"]["tags"]["items"] == {"type": "string"}


def test_without_audit_the_same_results_and_database(ex: ToolExecutor) -> None:
    """`audit=False` (a replay reading only the database) changes nothing but the log."""
    quiet = ToolExecutor("toy", {"seats": []}, "2026-04-28 11:30 PST", SPEC, audit=False)
    calls: list[tuple[str, Any]] = [
        ("set_seat", GOOD),
        ("set_seat", {**GOOD, "row": "x"}),
        ("explode", {}),
        ("no_impl", {}),
        ("set_seat", '{"seat": "2B", "row": 2, "cabin": "business"}'),
    ]
    for name, args in calls:
        assert quiet.execute(name, args) == ex.execute(name, args)
    assert quiet.db == ex.db and quiet.initial_db == ex.initial_db
    assert quiet.audit_log == [] and len(ex.audit_log) == 2 * len(calls)


def test_closed_executor_changes_nothing(ex: ToolExecutor) -> None:
    """After the call ends (the caller hung up), an agent still being torn down may make a
    tool call: it is refused, and neither the database nor the audit log moves."""
    ex.execute("set_seat", GOOD)
    db, log = copy.deepcopy(ex.db), list(ex.audit_log)
    ex.close()
    r = ex.execute("set_seat", {**GOOD, "seat": "2B"})
    assert r["status"] == "error" and r["error_type"] == "call_ended"
    assert ex.db == db and ex.audit_log == log
