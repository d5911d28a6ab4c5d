"""The phrase tables of the three readers (goal caller, gate validators, bench): data that loads,
compiles, and names file and field when something is missing."""

from __future__ import annotations

import re

import pytest

from voxbench.bench import lang as bench_lang
from voxbench.eval.offline import lang as gate_lang
from voxbench.pipelines.caller.goal import lang as goal_lang


def test_every_goal_phrase_list_compiles_as_an_alternation() -> None:
    for module, lists in goal_lang.words().phrases.items():
        for name in lists:
            re.compile(f"(?:{goal_lang.alt(module, name)})")


def test_every_gate_and_bench_phrase_list_compiles_as_an_alternation() -> None:
    for module, lists in gate_lang.tables().phrases.items():
        for name in lists:
            re.compile(f"(?:{gate_lang.alt(module, name)})")
    for module, lists in bench_lang.words().phrases.items():
        for name in lists:
            re.compile(f"(?:{bench_lang.alt(module, name)})")


def test_a_missing_language_or_field_names_the_file_and_the_field() -> None:
    with pytest.raises(ValueError, match=r"goal/lang/xx\.json"):
        goal_lang.words("xx")
    with pytest.raises(ValueError, match=r"goal/lang/en\.json: no field phrases\.cues\.nope"):
        goal_lang.alt("cues", "nope")
    with pytest.raises(ValueError, match=r"eval/offline/lang/xx\.json"):
        gate_lang.tables("xx")
    with pytest.raises(ValueError, match=r"eval/offline/lang/en\.json: no field words\._caller_facts\.nope"):
        gate_lang.word_set("_caller_facts", "nope")
    with pytest.raises(ValueError, match=r"bench/lang/en\.json: no field phrases\.reference\.nope"):
        bench_lang.alt("reference", "nope")


def test_the_three_readers_keep_their_own_tables() -> None:
    """The bench must not share the caller's ear (docs/caller-check.md), nor the gate the caller's:
    no module's lists sit in another reader's file."""
    assert "reference" not in goal_lang.words().phrases
    assert "_caller_end" not in goal_lang.words().phrases
    assert "cues" not in gate_lang.tables().phrases


def test_function_words_keep_the_order_that_breaks_ties() -> None:
    assert list(gate_lang.function_words())[:2] == ["en", "es"]
