"""The built-in itsm and medical_hr scenarios and the toy domain replay to their expected databases."""

from __future__ import annotations

import pytest

from voxbench.scenarios import ToolExecutor, load_agent_spec
from voxbench.scenarios.domains import domain_tools
from voxbench.scenarios.loader import builtin_dataset_dir, load_dataset, toy_dataset_dir
from voxbench.scenarios.replay import replay_dataset
from voxbench.scenarios.task_completion import check_task_completion


@pytest.mark.parametrize("domain", ["itsm", "medical_hr"])
def test_builtin_domain_has_three_scenarios_that_replay(domain: str) -> None:
    [res] = replay_dataset(load_dataset(builtin_dataset_dir(), [domain]))
    assert res.scenarios >= 3
    assert res.responses_ok == res.scenarios and res.hash_ok == res.scenarios, res.failures


@pytest.mark.parametrize("domain", ["itsm", "medical_hr", "toy"])
def test_agent_yaml_tools_exist_in_the_tool_code(domain: str) -> None:
    root = toy_dataset_dir() if domain == "toy" else builtin_dataset_dir()
    spec = load_agent_spec(root / "configs" / "agents" / f"{domain}_agent.yaml")
    assert set(spec.tool_names()) <= set(domain_tools(domain))


@pytest.mark.parametrize("domain", ["itsm", "medical_hr"])
def test_every_builtin_scenario_changes_the_database(domain: str) -> None:
    dd = load_dataset(builtin_dataset_dir(), [domain]).domains[domain]
    for sid in dd.scenarios:
        strip = lambda db: {k: v for k, v in db.items() if k != "session"}  # noqa: E731
        assert strip(dd.expected_db(sid)) != strip(dd.initial_db(sid)), sid


def test_toy_domain_replays_and_is_separate_from_builtin() -> None:
    ds = load_dataset(toy_dataset_dir())
    assert list(ds.domains) == ["toy"] and len(ds.domains["toy"].scenarios) == 2
    [res] = replay_dataset(ds)
    assert res.responses_ok == res.hash_ok == 2, res.failures
    assert "toy" not in load_dataset().domains


def test_toy_tools_gate_on_verification_and_refuse_shipped_orders() -> None:
    dd = load_dataset(toy_dataset_dir()).domains["toy"]
    sc = dd.scenarios["ty.1"]
    ex = ToolExecutor("toy", dd.initial_db("ty.1"), sc.current_date_time, dd.agent)
    assert ex.execute("cancel_order", {"order_id": "ORD-4821", "reason": "other"})["error_type"] == (
        "authentication_required"
    )
    email = dd.initial_db("ty.1")["orders"]["ORD-4821"]["email"]
    assert ex.execute("find_order", {"order_id": "ord-4821", "email": email})["status"] == "success"
    assert ex.execute("cancel_order", {"order_id": "ORD-4822", "reason": "other"})["error_type"] == (
        "authentication_required"
    )
    assert ex.execute("cancel_order", {"order_id": "ORD-4821", "reason": "ordered_by_mistake"})["status"] == (
        "success"
    )
    assert check_task_completion(dd.expected_db("ty.1"), ex.db).success
