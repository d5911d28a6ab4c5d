"""The labelled validation set of the gate: generated, seeded, from the reference
conversations of any EVA-format dataset (here the built-in scenarios), as real records; and
the gate measured on it (`voxbench judges calibrate-gate`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voxbench.cli.main import main
from voxbench.eval.from_record import load_context
from voxbench.eval.gateset import FAULTS, generate, read_labels
from voxbench.eval.gateset.asked import ASKED_FAULTS
from voxbench.eval.gateset.measure import report, score_set
from voxbench.eval.gateset.pauses import PAUSE_S
from voxbench.eval.gateset.present import PRESENT_FAULTS
from voxbench.records import read_record
from voxbench.scenarios.task_completion import check_task_completion


@pytest.fixture(scope="module")
def airline_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gateset")
    generate(out, None, seed=0, domains=["airline"])
    return out


def test_one_clean_record_and_one_per_fault_kind(airline_set: Path) -> None:
    labels = read_labels(airline_set)
    by_scenario: dict[str, set[str]] = {}
    for lab in labels:
        by_scenario.setdefault(lab.scenario_id, set()).add(lab.kind)
        assert lab.at_fault == ("none" if lab.kind == "clean" else FAULTS[lab.kind][0])
        assert not (airline_set / lab.record / "labels.jsonl").exists()  # the label is not in the record
    assert set(by_scenario) == {"bb.1", "bb.2", "bb.3"}
    for kinds in by_scenario.values():
        assert "clean" in kinds and {"invented_fact", "early_hangup", "long_silence", "refusal"} <= kinds
        assert "unheld_attribute_asked" in kinds  # a clean control: another attribute asked, not held


def test_records_are_real_and_tools_really_ran(airline_set: Path) -> None:
    labels = {(lab.scenario_id, lab.kind): lab for lab in read_labels(airline_set)}
    clean = read_record(airline_set / labels[("bb.1", "clean")].record)
    expected = clean.scenario["ground_truth"]["expected_scenario_db"]
    assert clean.final_db is not None and check_task_completion(expected, clean.final_db).success
    dropped = read_record(airline_set / labels[("bb.1", "completion_without_write")].record)
    assert dropped.final_db is not None and not check_task_completion(expected, dropped.final_db).success
    ctx = load_context(airline_set / labels[("bb.1", "long_silence")].record)
    assert ctx.conversation_ended_reason == "end_call" and ctx.intended_user_turns


def test_seeded(tmp_path: Path, airline_set: Path) -> None:
    again, _ = generate(tmp_path / "a", None, seed=0, domains=["airline"])
    assert [lab.injected for lab in again] == [lab.injected for lab in read_labels(airline_set)]
    other, _ = generate(tmp_path / "b", None, seed=1, domains=["airline"])
    assert [lab.injected for lab in other] != [lab.injected for lab in again]


def test_gate_on_the_builtin_set_meets_the_targets(airline_set: Path) -> None:
    """Issue 36's targets on the visible set: no agent fault and no clean record discarded,
    caller faults caught >= 90 % overall."""
    rows = score_set(airline_set, read_labels(airline_set))
    gate = report(rows)["all"]["gate"]
    assert gate["false_invalid_agent"] == 0.0 and gate["false_invalid_clean"] == 0.0
    assert gate["caller_recall"] >= 0.9


def test_calibrate_gate_command(tmp_path: Path, airline_set: Path) -> None:
    out = tmp_path / "gate.json"
    code = main(["judges", "calibrate-gate", "--set", str(airline_set), "--out", str(out), "--misses"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["records"] == len(read_labels(airline_set))
    assert set(data["figures"]["all"]) == {
        "user_behavioral_fidelity", "conversation_valid_end", "user_speech_fidelity", "user_pacing_fidelity",
        "gate",
    }  # fmt: skip
    assert "early_hangup" in data["figures"]["airline"]["gate"]["caller_recall_by_kind"]


def test_a_reference_whose_caller_is_transferred_against_its_goal_is_not_clean() -> None:
    """A reference that ends transferred to a person while the goal forbids escalation carries
    a caller fault: the scenario gives no records (its "clean" label would be wrong)."""
    import dataclasses

    from voxbench.eval.gateset.conversation import from_scenario
    from voxbench.eval.gateset.faults import reference_fault
    from voxbench.scenarios.loader import load_dataset

    dd = load_dataset(None, ["airline"]).domains["airline"]
    ref = from_scenario(dd, "bb.1")
    assert ref is not None and reference_fault(ref) is None
    forbids = {"decision_tree": {"escalation_behavior": "Do not ask to speak to a supervisor or live agent."}}
    assert reference_fault(dataclasses.replace(ref, goal=forbids)) is None  # it did not end transferred
    transferred = dataclasses.replace(ref, goal=forbids, end_reason="transfer")
    assert reference_fault(transferred) == "reference_caller_transferred_against_goal"
    allows = {"decision_tree": {"escalation_behavior": "Ask for a live agent if the fee is not waived."}}
    assert reference_fault(dataclasses.replace(ref, goal=allows, end_reason="transfer")) is None


def test_a_harness_pause_answered_into_is_caught_and_its_waited_control_passes(airline_set: Path) -> None:
    """The injected pause is a real ``harness_pause`` event; the agent's reply starts inside it
    or, on the VAD stop inside it, just after the caller resumed; the gate fails those records
    (user_pacing_fidelity) and passes the same pause with the agent waiting for the whole line."""
    labels = [lab for lab in read_labels(airline_set) if lab.kind.startswith("harness_pause")]
    assert {lab.kind for lab in labels} == {"harness_pause", "harness_pause_waited"}
    for lab in labels:
        ctx = load_context(airline_set / lab.record)
        [pause] = ctx.harness_pauses or []
        assert PAUSE_S[0] <= pause["duration_s"] <= PAUSE_S[1]
        if pause["sentence"] > 0:  # the caller fell silent mid-line: the agent's VAD stopped in the pause
            assert any(pause["t"] <= t <= pause["t"] + pause["duration_s"] for t in ctx.agent_turn_ends)
    rows = score_set(airline_set, labels)
    for r in rows:
        caught = r["flags"]["user_pacing_fidelity"] and r["flags"]["gate"]
        assert caught == (r["label"]["kind"] == "harness_pause"), r["label"]
    figs = report(rows)["all"]["gate"]
    assert figs["caller_recall_by_kind"]["harness_pause"]["recall"] == 1.0
    assert figs["false_invalid_clean_by_kind"]["harness_pause_waited"]["flagged"] == 0


def test_the_asked_attribute_shapes_pass_clean_and_catch_the_withheld(airline_set: Path) -> None:
    """Each shape of a question about a thing a fact names ("X of the Y" with a generic head,
    "which X" beside the thing, the held field and another attribute at once): its clean control
    passes the gate, its fault (the caller lacking what it holds) fails it as withheld."""
    labels = [lab for lab in read_labels(airline_set) if lab.kind in ASKED_FAULTS]
    assert {lab.kind for lab in labels} == set(ASKED_FAULTS)
    for r in score_set(airline_set, labels):
        caller = r["label"]["at_fault"] == "caller"
        assert r["flags"]["gate"] == caller, r["label"]
        assert ("missing_information" in r["detected"]) == caller, r["label"]


def test_the_present_asked_passes_from_the_scenarios_clock_and_is_caught_when_made_up(
    airline_set: Path,
) -> None:
    """Asked for the date and time, a caller answering from the scenario's current_date_time
    passes the gate; the same question answered with another date and time is invented."""
    labels = [lab for lab in read_labels(airline_set) if lab.kind in PRESENT_FAULTS]
    assert {lab.kind for lab in labels} == set(PRESENT_FAULTS)
    for r in score_set(airline_set, labels):
        caller = r["label"]["at_fault"] == "caller"
        assert r["flags"]["gate"] == caller, r["label"]
        assert ("invented_information" in r["detected"]) == caller, r["label"]


def test_an_agent_that_starts_the_call_over_is_the_agents_fault(airline_set: Path) -> None:
    """The agent's opening line again after the caller answered one of its questions, and the
    caller leaving: a reset, scored against the agent, never regenerated."""
    labels = [lab for lab in read_labels(airline_set) if lab.kind == "restart"]
    assert labels and all(lab.at_fault == "agent" for lab in labels)
    for r in score_set(airline_set, labels):
        assert not r["flags"]["gate"], r["label"]
