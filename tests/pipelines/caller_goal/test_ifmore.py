"""The clause an "anything else?" leads, cut from the rest of its sentence (:mod:`.ifmore`)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.ifmore import without_more


@pytest.mark.parametrize(
    ("sentence", "rest"),
    [
        ("Is there anything else I can help you with regarding employee ID EMP126225, start time 9 AM, "
         "and last name Crawford?", ""),
        ("Before we go, will that be all?", ""),
        ("What is your employee ID, and is there anything else I can help you with?", "What is your employee ID?"),
        ("Please tell me your start time, and anything else I should know?", "Please tell me your start time?"),
        ("Is there anything else I can help with, and could you confirm your employee ID?",
         "could you confirm your employee ID?"),
        ("Will that be all, or do you also need the first name on file updated?",
         "do you also need the first name on file updated?"),
        ("Could you tell me your employee ID and anything else you need?",
         "Could you tell me your employee ID and anything else you need?"),
        ("Is there anything else, or can you give me your employee ID?", "can you give me your employee ID?"),
    ],
)  # fmt: skip
def test_without_more_cuts_only_the_clause_the_cue_leads(sentence: str, rest: str) -> None:
    assert without_more(sentence) == rest


def test_a_sentence_without_the_cue_is_left_whole() -> None:
    assert without_more("What is your employee ID?") == "What is your employee ID?"
