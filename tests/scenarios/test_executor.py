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


def test_success_and_coercion(ex: ToolExecutor) -> None:
    r = ex.execute("set_seat", {**GOOD, "row": "12", "price": 10, "notify": "true", "tags": ["a"]})
    assert r["status"] == "success"
    assert r["params"]["row"] == 12 and r["params"]["price"] == 10.0 and r["params"]["notify"] is True
    assert ex.db["_current_date"] == "2026-04-28"


@pytest.mark.parametrize(
    ("args", "error_type"),
    [
        ({**GOOD, "row": "twelve"}, "invalid_row"),
        ({**GOOD, "row": True}, "invalid_row"),
        ({**GOOD, "cabin": "first"}, "invalid_cabin"),
        ({**GOOD, "tags": "a"}, "invalid_tags"),
        ({**GOOD, "tags": [1]}, "invalid_tags"),
        ({"seat": "1A", "row": 1}, "missing_parameter"),
        ({**GOOD, "colour": "red"}, "unexpected_parameter"),
        ('{"seat": "1A", ', "invalid_arguments"),
        ("[1, 2]", "invalid_arguments"),
    ],
)
def test_bad_input_is_an_error_result(ex: ToolExecutor, args: Any, error_type: str) -> None:
    before = copy.deepcopy(ex.db)
    r = ex.execute("set_seat", args)
    assert r["status"] == "error" and r["error_type"] == error_type and r["message"]
    assert ex.db == before


def test_json_string_arguments(ex: ToolExecutor) -> None:
    assert ex.execute("set_seat", '{"seat": "2B", "row": 2, "cabin": "business"}')["status"] == "success"


def test_unknown_and_unimplemented_tools(ex: ToolExecutor) -> None:
    assert ex.execute("fly_me_to_the_moon", {})["error_type"] == "tool_not_found"
    assert ex.execute("no_impl", {})["error_type"] == "function_not_found"


def test_crashing_tool_rolls_back(ex: ToolExecutor) -> None:
    r = ex.execute("explode", {})
    assert r["error_type"] == "execution_error" and "boom" in r["message"]
    assert "half_written" not in ex.db


def test_call_index_and_audit_log(ex: ToolExecutor) -> None:
    ex.execute("set_seat", GOOD)
    ex.execute("set_seat", {**GOOD, "seat": "1B"})
    assert [s["n"] for s in ex.db["seats"]] == [1, 2]
    kinds = [(e["type"], e["tool_name"]) for e in ex.audit_log]
    assert kinds == [("tool_call", "set_seat"), ("tool_response", "set_seat")] * 2
    assert ex.initial_db["seats"] == []


def test_openai_schema() -> None:
    fn = SPEC.tool("set_seat").openai_schema()["function"]  # type: ignore[union-attr]
    assert fn["parameters"]["required"] == ["seat", "row", "cabin"]
    assert fn["parameters"]["properties"]["price"]["type"] == "number"
    assert fn["parameters"]["properties"]["tags"]["items"] == {"type": "string"}


def test_numeric_value_for_numeric_text_enum() -> None:
    from voxbench.scenarios.executor import validate_params

    spec = AgentSpec.model_validate(
        {
            "id": "agent_t",
            "name": "t",
            "tools": [
                {
                    "id": "lic",
                    "name": "lic",
                    "required_parameters": [{"name": "days", "type": "string", "enum": ["30", "60", "90"]}],
                }
            ],
        }
    ).tools[0]
    assert validate_params(spec, {"days": 60}) == ({"days": "60"}, None)
    assert validate_params(spec, {"days": 60.0}) == ({"days": "60"}, None)
    _, err = validate_params(spec, {"days": 45})
    assert err is not None and err["error_type"] == "invalid_days"
