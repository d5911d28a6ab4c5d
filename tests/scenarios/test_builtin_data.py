"""voxbench's own scenarios load, and their reference traces reproduce through our tools."""

from __future__ import annotations

from voxbench.scenarios import load_agent_spec
from voxbench.scenarios.loader import builtin_dataset_dir, load_dataset
from voxbench.scenarios.replay import replay_dataset


def test_builtin_dataset_replays_exactly() -> None:
    ds = load_dataset()
    assert ds.root == builtin_dataset_dir()
    results = replay_dataset(ds)
    assert [r.domain for r in results] == ["airline", "itsm", "medical_hr"]
    for res in results:
        assert res.scenarios >= 3
        assert res.responses_ok == res.scenarios and res.hash_ok == res.scenarios, res.failures


def test_builtin_expected_dbs_change_what_the_goal_asks() -> None:
    dd = load_dataset().domains["airline"]
    bag = dd.expected_db("bb.1")["reservations"]["QX7T4M"]["bookings"][0]["segments"][0]
    assert bag["bags_checked"] == 1
    seat = dd.expected_db("bb.2")["reservations"]["HN4R8B"]["bookings"][0]["segments"][0]["seat"]
    assert seat is not None and seat.endswith("A")
    status_only = dd.expected_db("bb.3")
    assert {k: v for k, v in status_only.items() if k != "session"} == dd.initial_db("bb.3")


def test_builtin_tool_schemas_match_the_tool_code() -> None:
    spec = load_agent_spec(builtin_dataset_dir() / "configs" / "agents" / "airline_agent.yaml")
    from voxbench.scenarios.domains import domain_tools

    assert set(spec.tool_names()) == set(domain_tools("airline"))
