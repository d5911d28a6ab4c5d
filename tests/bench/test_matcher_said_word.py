"""matcher.said_word: an ending is cut only where it is one, and a short root only where the cut
is sure (made-up words)."""

from __future__ import annotations

import pytest

from voxbench.bench.matcher import said_word


@pytest.mark.parametrize(
    ("word", "reply"),
    [
        ("notes", "not"),
        ("card", "car"),
        ("fund", "fun"),
        ("seed", "see"),
        ("planes", "plan"),
        ("news", "new"),
    ],
)
def test_a_false_root_does_not_say_the_word(word: str, reply: str) -> None:
    assert not said_word(word, {reply})


@pytest.mark.parametrize(
    ("word", "reply"),
    [
        ("added", "add"),
        ("running", "run"),
        ("debugging", "debug"),
        ("fixes", "fix"),
        ("notes", "note"),
        ("noted", "note"),
        ("marked", "mark"),
        ("mark", "marked"),
        ("confirmation", "confirm"),
    ],
)
def test_a_true_root_or_form_says_the_word(word: str, reply: str) -> None:
    assert said_word(word, {reply})
