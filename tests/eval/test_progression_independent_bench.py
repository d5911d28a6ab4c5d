"""The injected progression faults of benchmarks/offline_progression_independent.py: each
edit is what its label says, and the labels follow EVA's overall rule."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bench.bench_scripts import load
from voxbench.eval.gateset.conversation import Line, RefConversation, Tool, from_scenario
from voxbench.scenarios.loader import load_dataset


def test_labels_follow_the_rubric_overall_rule() -> None:
    bench = load("offline_progression_independent")
    assert bench.overall({}) == 3
    assert bench.overall({"unnecessary_tool_calls": 2, "redundant_statements": 2}) == 2
    assert bench.overall({"question_quality": 1}) == 1
    assert bench.overall({"a": 2, "b": 2, "c": 2}) == 1
    assert bench.EXPECTED["three_dims"][0] == 1 and bench.EXPECTED["two_dims"][0] == 2


@pytest.fixture(scope="module")
def ref(eva_data: Path) -> RefConversation:
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    convs = [from_scenario(dd, sid) for sid in sorted(dd.scenarios)[:8]]
    return next(c for c in convs if c is not None and len(c.tools()) >= 3)


def _tools(conv: RefConversation) -> list[Tool]:
    return [s for s in conv.steps if isinstance(s, Tool)]


def test_tool_faults_add_the_calls_their_labels_name(ref: RefConversation) -> None:
    bench = load("offline_progression_independent")
    rng = random.Random(0)
    again, _ = bench.repeated_call(ref, rng)
    pairs = list(zip(_tools(again), _tools(again)[1:], strict=False))
    assert len(_tools(again)) == len(_tools(ref)) + 1
    assert sum(a == b and b.expected["status"] == "success" for a, b in pairs) >= 1
    retried, _ = bench.placeholder_call(ref, rng, 2)
    failed = [t for t in _tools(retried) if t.expected["status"] == "error" and "" in t.params.values()]
    assert len(failed) == 2 and failed[0] == failed[1]
    corrected, _ = bench.corrected_retry(ref, rng)
    wrong = next(t for t in _tools(corrected) if t.expected["status"] == "error")
    right = _tools(corrected)[_tools(corrected).index(wrong) + 1]
    assert wrong.name == right.name and wrong.params != right.params


def test_spoken_faults_insert_a_question_and_the_callers_answer(ref: RefConversation) -> None:
    bench = load("offline_progression_independent")
    for fault in (bench.reasked_fact, bench.vague_question, bench.asr_reask):
        conv, _ = fault(ref, random.Random(1))
        assert len(conv.lines("agent")) == len(ref.lines("agent")) + 1
        new = [s for s in conv.steps if isinstance(s, Line) and s not in ref.steps]
        assert any(s.who == "agent" and s.text.endswith("?") for s in new)
    said, _ = bench.repeated_statement(ref, random.Random(2))
    assert len(said.steps) == len(ref.steps) and said.steps != ref.steps


def test_every_kind_is_measured_on_one_domain(eva_data: Path) -> None:
    bench = load("offline_progression_independent")
    res = bench.run(eva_data, 0, ["airline"], verbose=False)
    kinds = bench.summarise(res["rows"])["kinds"]
    assert set(kinds) == set(bench.EXPECTED) and sum(k["n"] for k in kinds.values()) == len(res["rows"])
    # a failing call retried unchanged (the rubric's 1) is rated below the clean conversation
    assert kinds["failed_retry"]["ratings_3_2_1"][0] == 0 and kinds["clean"]["ratings_3_2_1"][0] > 0
