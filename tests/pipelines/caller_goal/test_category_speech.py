"""Enum-like facts said as English says them (:mod:`voxbench.pipelines.caller.goal.category`): a
category noun phrase with its article, a glued key word written apart; every line passes the
speech checker (each value said, no other)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.test_framing import _caller, _said
from voxbench.pipelines.caller.goal.category import category_phrase, counted_noun, with_article, written

SEEDS = range(4)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_kind_that_counts_is_said_with_its_article(seed: int) -> None:
    c = _caller({"transfer_reason": "new_branch_office", "employee_id": "EMP4471"}, seed)
    asked = _said(c, ["transfer_reason"], "What is the reason for the transfer?")
    assert asked in ("A new branch office.", "It's a new branch office.")
    assert _said(c, ["transfer_reason"], asked=[]) == "The reason is a new branch office."


@pytest.mark.parametrize("seed", SEEDS)
def test_an_before_a_vowel_sound(seed: int) -> None:
    c = _caller({"move_reason": "extra_office_site", "employee_id": "EMP4471"}, seed)
    assert "an extra office site" in _said(c, ["move_reason"], asked=[])
    assert with_article("H R portal") == "an H R portal"
    assert with_article("unit move") == "a unit move"
    assert with_article("office move") == "an office move"


@pytest.mark.parametrize(
    "info",
    [
        {"justification": "water_damage"},  # a mass noun
        {"removal_scope": "read_only"},  # an adjective
        {"affected_service": "email_exchange"},  # a name: its label names no kind
        {"justification": "end_of_life"},  # an idiom with a link word
        {"return_method": "drop_off"},  # a particle last
    ],
)
def test_no_article_for_what_does_not_count(info: dict[str, str]) -> None:
    c = _caller({**info, "employee_id": "EMP4471"})
    key = next(iter(info))
    text = _said(c, [key], asked=[])
    assert not any(f" {a} " in f" {text} " for a in ("a", "an")), text


def test_the_rule_reads_the_label_head_and_the_last_word() -> None:
    assert category_phrase("role_change", ["transfer", "reason"])
    assert not category_phrase("role_change", ["new", "role"])
    assert not category_phrase("the_doctors_company", ["carrier", "type"])
    assert not category_phrase("Role Change", ["reason"])  # no identifier
    assert counted_noun("converter") and not counted_noun("relocation") and not counted_noun("hours")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_noun_of_a_type_is_no_qualifier_of_its_thing(seed: int) -> None:
    c = _caller({"equipment_type": "laptop_stand", "access_level": "standard"}, seed)
    assert _said(c, ["equipment_type"], asked=[]) == "The equipment type is a laptop stand."
    assert _said(c, ["access_level"], asked=[]) in ("Standard access.", "Standard access, please.")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_glued_key_word_is_written_as_english_writes_it(seed: int) -> None:
    c = _caller({"oncall_tier": "backup", "employee_id": "EMP4471"}, seed)
    text = _said(c, ["oncall_tier"], asked=[])
    assert "on-call" in text and "oncall" not in text
    assert written(["oncall", "tier", "wifi"]) == ["on-call", "tier", "Wi-Fi"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_count_keys_group_word_comes_first(seed: int) -> None:
    c = _caller({"duration_days_trial": "30", "employee_id": "EMP4471"}, seed)
    assert "trial duration is 30 days" in _said(c, ["duration_days_trial"], asked=[])
