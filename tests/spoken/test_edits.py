"""One slip between two spellings (voxbench.spoken.edits)."""

from __future__ import annotations

import pytest

from voxbench.spoken.edits import one_changed, one_dropped, one_edit


@pytest.mark.parametrize(
    ("a", "b", "slip"),
    [
        ("wexner", "wexler", True),  # one changed
        ("mchen", "mchenn", True),  # one added
        ("3342331444", "334233144", True),  # one dropped
        ("wexner", "wexner", False),  # equal: no slip
        ("wexner", "waxler", False),  # two changed
        ("ab", "abcd", False),  # two added
    ],
)
def test_one_edit(a: str, b: str, slip: bool) -> None:
    assert one_edit(a, b) is slip


def test_the_reader_says_which_characters_may_slip() -> None:
    vowels = lambda x, y: x in "aeiou" and y in "aeiou"  # noqa: E731
    assert one_changed("role", "rule", vowels)
    assert not one_changed("role", "rote", vowels)
    assert one_dropped("roule", "role", lambda c: c == "u")
    assert not one_dropped("rolle", "role", lambda c: c == "u")
    assert not one_edit("rolle", "role", drop=lambda c: c == "u")
