"""The injected verbosity of benchmarks/offline_conciseness_independent.py: each edit changes one
agent line the way its kind says, keeps the turn ids, and carries the rubric's label."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bench.bench_scripts import load
from voxbench.eval.calibration_items import trace_from_events
from voxbench.eval.gateset.conversation import Line, RefConversation, from_scenario
from voxbench.records.voice import split_sentences
from voxbench.scenarios.loader import load_dataset


def test_labels_follow_the_rubric_severities() -> None:
    bench = load("offline_conciseness_independent")
    assert set(bench.EXPECTED) == {"clean", *bench.EDITS}
    assert bench.EXPECTED["tool_dump"] == bench.EXPECTED["many_options"] == bench.EXPECTED["two_faults"] == 1
    assert (
        bench.EXPECTED["filler"] == bench.EXPECTED["repeated_previous"] == bench.EXPECTED["background"] == 2
    )
    assert bench.EXPECTED["code_readback"] == bench.EXPECTED["short_confirmation"] == 3
    assert bench._spell("ZK3-F", nato=True) == "Z as in Zulu, K as in Kilo, three, F as in Foxtrot"
    assert bench._spell("A1", nato=False) == "A, one"


@pytest.fixture(scope="module")
def ref(eva_data: Path) -> RefConversation:
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    convs = [from_scenario(dd, sid) for sid in sorted(dd.scenarios)[:12]]
    return next(c for c in convs if c is not None and len(c.lines("agent")) >= 4 and len(c.tools()) >= 3)


def _changed(ref: RefConversation, conv: RefConversation) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(ref.steps, conv.steps, strict=True)) if a != b]


def test_each_kind_edits_one_agent_line_in_place(ref: RefConversation) -> None:
    bench = load("offline_conciseness_independent")
    for kind in (
        "many_options",
        "repeated_previous",
        "filler",
        "background",
        "two_faults",
        "short_confirmation",
    ):
        got = bench.inject(ref, kind, random.Random(3))
        assert got is not None, kind
        conv, step, _ = got
        assert _changed(ref, conv) == [step]
        new, old = conv.steps[step], ref.steps[step]
        assert isinstance(new, Line) and isinstance(old, Line) and new.who == "agent"
        if kind == "short_confirmation":
            assert len(new.text.split()) <= 6
        else:
            assert len(new.text) > len(old.text)
        trace = trace_from_events(bench.events(conv))
        assert bench.line_turns(conv, trace) == bench.line_turns(ref, trace_from_events(bench.events(ref)))


def test_repeated_previous_says_the_previous_agent_statements_first(ref: RefConversation) -> None:
    bench = load("offline_conciseness_independent")
    conv, step, _ = bench.inject(ref, "repeated_previous", random.Random(0))
    prev = max(i for i in ref.lines("agent") if i < step)
    first = split_sentences(ref.steps[prev].text)
    assert any(s in conv.steps[step].text.split(ref.steps[step].text)[0] for s in first)


def test_every_kind_is_measured_on_one_domain(eva_data: Path) -> None:
    bench = load("offline_conciseness_independent")
    res = bench.run(eva_data, 0, ["airline"], verbose=False)
    kinds = bench.summarise(res["rows"])["kinds"]
    assert set(kinds) == set(bench.EXPECTED) and sum(k["n"] for k in kinds.values()) == len(res["rows"])

    def mean(kind: str) -> float:
        rated = [r["rating"] for r in res["rows"] if r["kind"] == kind]
        return sum(rated) / len(rated)

    # the method tells a whole tool result read out (the rubric's 1) from a clean turn (3)
    assert mean("tool_dump") < mean("clean")
