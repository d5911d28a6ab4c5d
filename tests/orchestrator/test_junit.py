"""JUnit XML: a test case per conversation, read back with xml.etree as a CI parser would."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.eval.compare_runs import metric, write_conv, write_run
from voxbench.cli.main import main
from voxbench.orchestrator.junit import write_junit

CAUSE = {"failure_cause": {"cause": "agent_reasoning", "summary": "no add_baggage_allowance call"}}


def _cases(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    return {c.get("name", ""): c for c in root.iter("testcase")}


def test_passes_failures_and_errors_with_cause_and_record_path(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", {"s1": [1.0]})
    write_conv(
        run, "s2", 0, {"task_completion": metric(0.0, 0.0)}, aggregates={"EVA-A_pass": 0.0}, analysis=CAUSE
    )
    write_conv(run, "s3", 0, {}, status="infra_failure", scored=False)
    write_conv(run, "s4", 0, {}, scored=False)
    write_conv(run, "s5", 0, {"task_completion": metric(1.0, 1.0)}, status="invalid")
    write_conv(run, "s6", 0, {"task_completion": metric(None)}, aggregates={"EVA-A_pass": None})
    (run / "records" / "airline__s1__t0__clean_failed_attempt_0").mkdir()  # archived: no test case
    out = tmp_path / "junit.xml"
    counts = write_junit([run], out)
    assert (counts.tests, counts.failures, counts.errors) == (6, 3, 2)
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("6", "3", "2")
    cases = _cases(out)
    assert list(cases["airline__s1__t0__clean"]) == [cases["airline__s1__t0__clean"].find("system-out")]
    fail = cases["airline__s2__t0__clean"].find("failure")
    assert fail is not None and fail.get("type") == "agent_reasoning"
    assert fail.get("message") == "EVA-A_pass=0 < 1"
    assert "no add_baggage_allowance call" in (fail.text or "")
    assert f"record: {(run / 'records' / 'airline__s2__t0__clean').resolve()}" in (fail.text or "")
    assert cases["airline__s2__t0__clean"].get("classname") == "voxbench.airline"
    err = cases["airline__s3__t0__clean"].find("error")
    assert err is not None and err.get("type") == "infrastructure"
    err = cases["airline__s4__t0__clean"].find("error")
    assert err is not None and err.get("type") == "not_scored"
    inv = cases["airline__s5__t0__clean"].find("failure")
    assert inv is not None and inv.get("type") == "simulator_invalid"
    nc = cases["airline__s6__t0__clean"].find("failure")
    assert nc is not None and "not computed" in (nc.get("message") or "")


def test_thresholds_are_any_metric_and_a_typo_fails(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_conv(run, "s1", 0, {"turn_taking": metric(0.9, 0.7)}, aggregates={"EVA-A_pass": 1.0})
    out = tmp_path / "j.xml"
    assert write_junit([run], out, {"turn_taking": 0.6}).failures == 0
    assert write_junit([run], out, {"turn_taking": 0.8}).failures == 1  # the normalised score counts
    fail = _cases(out)["airline__s1__t0__clean"].find("failure")
    assert fail is not None and fail.get("message") == "turn_taking=0.7 < 0.8"
    assert write_junit([run], out, {"turn_takin": 0.1}).failures == 1  # as --fail-under: missing fails


def test_control_characters_do_not_break_the_xml(tmp_path: Path) -> None:
    run = tmp_path / "run"
    cause = {"failure_cause": {"cause": "policy", "summary": "said \x07 beep\x00"}}
    write_conv(run, "s1", 0, {}, aggregates={"EVA-A_pass": 0.0}, analysis=cause)
    write_junit([run], tmp_path / "j.xml")
    fail = _cases(tmp_path / "j.xml")["airline__s1__t0__clean"].find("failure")
    assert fail is not None and "said  beep" in (fail.text or "")


def test_run_and_report_write_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run, out = tmp_path / "run", tmp_path / "run.xml"
    argv = ["run", "--agent", "scripted", "--out", str(run), "--no-progress"]
    argv += ["--scenarios", "bb.1", "--junit", str(out), "--junit-threshold", "conversation_valid_end=1"]
    assert main(argv) == 0
    cases = _cases(out)
    assert list(cases) == ["airline__bb.1__t0__clean"]
    assert cases["airline__bb.1__t0__clean"].find("failure") is None
    assert "junit: " in capsys.readouterr().err
    again = tmp_path / "report.xml"
    assert main(["report", str(run), "--out", str(tmp_path / "rep"), "--junit", str(again)]) == 0
    # the scripted agent scores no EVA-A: under the default threshold its conversation fails
    fail = _cases(again)["airline__bb.1__t0__clean"].find("failure")
    assert fail is not None and "EVA-A_pass: not computed" in (fail.get("message") or "")


def test_missing_run_folder_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", {"s1": [1.0]})
    argv = ["report", str(run), str(tmp_path / "nope"), "--out", str(tmp_path / "r"), "--junit", "x.xml"]
    assert main(argv) == 2
    assert "nope" in capsys.readouterr().err
