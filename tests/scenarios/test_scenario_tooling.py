"""`voxbench scenarios list | show | validate | new`, through the real CLI on real folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from voxbench.cli.main import main
from voxbench.scenarios.loader import toy_dataset_dir
from voxbench.scenarios.validate import validate_dir


def test_list_and_show_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list"]) == 0
    out = capsys.readouterr().out
    for sid in ("bb.1", "it.1", "hr.3"):
        assert sid in out
    assert main(["scenarios", "show", "itsm/it.1"]) == 0
    out = capsys.readouterr().out
    assert "attempt_account_unlock(employee_id='EMP204817', target_system='vpn_gateway')" in out
    assert "account_status.vpn_gateway.locked: True -> False" in out
    assert main(["scenarios", "show", "nope"]) == 2
    assert main(["scenarios", "list", "--data", "toy"]) == 0
    assert "ty.2" in capsys.readouterr().out


def _broken_copy(tmp_path: Path) -> Path:
    root = tmp_path / "broken"
    shutil.copytree(toy_dataset_dir(), root)
    path = root / "data" / "toy_dataset.json"
    recs = json.loads(path.read_text())
    recs[0]["current_date_time"] = "April 1st"
    recs[1]["user_goal"]["high_level_user_goal"] = "You are <NICKNAME> and want a refund."
    trace = recs[1]["ground_truth"]["expected_trace"]["trace"]
    trace[3]["params"] = {"order_id": "ORD-4821", "colour": "blue"}
    trace.append({"event_type": "tool_call", "tool_name": "refund_everything", "params": {}})
    recs.append(json.loads(json.dumps(recs[1])))  # no starting database
    recs[2]["id"] = "ty.9"
    recs.append(json.loads(json.dumps(recs[1])))  # duplicate id
    path.write_text(json.dumps(recs))
    return root


def test_validate_reports_every_problem_with_its_location(tmp_path: Path) -> None:
    root = _broken_copy(tmp_path)
    report = validate_dir(root)
    got = {(i.record_id, i.field) for i in report.errors}
    ds = str(root / "data" / "toy_dataset.json")
    assert all(i.path == ds for i in report.errors if i.record_id != "ty.9" or i.field)
    assert ("ty.1", "current_date_time") in got
    assert ("ty.2", "user_goal.high_level_user_goal") in got  # <NICKNAME> not resolvable
    assert ("ty.2", "ground_truth.expected_trace.trace[3].params.colour") in got
    assert ("ty.2", "ground_truth.expected_trace.trace[3].params.email") in got  # required, missing
    assert ("ty.2", "ground_truth.expected_trace.trace[11].tool_name") in got
    assert ("ty.2", "id") in got
    missing_db = [i for i in report.errors if i.record_id == "ty.9" and i.field is None]
    assert missing_db and missing_db[0].path.endswith("toy_scenarios/ty.9.json")
    assert "ty.1" in str(report.errors[0]) and "current_date_time" in str(report.errors[0])


def test_validate_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "validate", str(toy_dataset_dir()), "--replay"]) == 0
    assert "0 error(s)" in capsys.readouterr().out
    assert main(["scenarios", "validate", str(_broken_copy(tmp_path))]) == 1
    bad_json = tmp_path / "badjson"
    shutil.copytree(toy_dataset_dir(), bad_json)
    (bad_json / "data" / "toy_dataset.json").write_text('[{"id": "x",]')
    assert main(["scenarios", "validate", str(bad_json)]) == 1
    assert "invalid JSON at line 1" in capsys.readouterr().out


def test_new_scaffold_then_replay_checks_the_written_reference(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    assert main(["scenarios", "new", "--domain", "toy", "--out", str(out), "--id", "my.1"]) == 0
    report = validate_dir(out)
    assert not report.errors and any("TODO" in i.message for i in report.warnings)
    assert main(["tools", "replay", "--data", str(out)]) == 0  # nothing written yet: nothing changes

    path = out / "data" / "toy_dataset.json"
    recs = json.loads(path.read_text())
    email = recs[0]["user_goal"]["information_required"]["email"]
    recs[0]["ground_truth"]["expected_trace"]["trace"] += [
        {
            "event_type": "tool_call",
            "tool_name": "find_order",
            "params": {"order_id": "ORD-4821", "email": email},
        },
        {
            "event_type": "tool_call",
            "tool_name": "update_shipping_address",
            "params": {"order_id": "ORD-4821", "address": "9 Quay Street, Cork"},
        },
    ]
    path.write_text(json.dumps(recs))
    assert main(["tools", "replay", "--data", str(out)]) == 1  # expected database not updated yet

    recs[0]["ground_truth"]["expected_scenario_db"]["orders"]["ORD-4821"]["shipping_address"] = (
        "9 Quay Street, Cork"
    )
    path.write_text(json.dumps(recs))
    assert main(["tools", "replay", "--data", str(out)]) == 0
    assert main(["scenarios", "new", "--domain", "toy", "--out", str(out), "--id", "my.1"]) == 2  # id taken
    assert main(["scenarios", "new", "--domain", "itsm", "--out", str(out)]) == 0  # a second domain
    assert validate_dir(out).domains == {"itsm": 1, "toy": 1}
