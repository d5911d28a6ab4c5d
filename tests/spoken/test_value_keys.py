"""The shared value reader (:mod:`voxbench.spoken.keys`) on forms an agent says a value in: the
same value read back another way gives the same key, and words around a code are not part of it."""

from __future__ import annotations

import pytest

from voxbench.eval.offline._values import spoken_values


def _keys(text: str) -> set[str]:
    return {v.key for v in spoken_values(text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # the pronoun after a code is no letter of it
        ("On floor F L three, I found a window desk.", "c:fl3"),
        ("Before I submit your I-nine, I also need the expiration date.", "n:9"),
        # "o'clock" (either apostrophe) between the hour and a spelled A M / P M
        ("with ten o’clock A M and two o'clock P M", "t:1000"),
        ("with ten o’clock A M and two o'clock P M", "t:1400"),
        # a written digit group with a leading zero inside a spelled code keeps the zero
        ("your shift I D, S H F 2026 0720 2300, for July 20th", "c:idshf202607202300"),
        # a number read back in chunks is one number
        ("N P I three three four two three, then three one four four four.", "c:npi3342331444"),
        # a dash read with commas around it ("zero seven, dash two three") joins the code
        ("S H F dash two zero two six, zero six, zero seven, dash two three zero zero.", "c:shf202606072300"),
    ],
)
def test_agent_read_backs_give_the_value_s_key(text: str, key: str) -> None:
    assert key in _keys(text)


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("On floor F L three, I found a window desk.", "c:fl3i"),
        ("For the I-nine, I can help start it now.", "c:i9i"),
        ("with ten o’clock A M, eleven o’clock A M", "c:am110"),
        ("ten o’clock", "n:100"),
    ],
)
def test_neighbouring_words_are_not_read_into_a_value(text: str, wrong: str) -> None:
    assert wrong not in _keys(text)


def test_letter_i_inside_a_spelled_code_and_written_times_stay_as_they_were() -> None:
    assert "c:ai12" in _keys("A I one two")
    assert "t:0720" in _keys("at 07:20 am")
    assert "c:emp43965" in _keys("E M P zero four three nine six five")


@pytest.mark.parametrize(
    ("text", "apart", "merged"),
    [
        ("on June 10th, 2026: 10:17 AM, eleven AM", {"n:2026", "t:1017", "t:1100"}, "c:20261017"),
        ("Flight 770: 2:45 PM departure", {"n:770", "t:1445"}, "c:7702"),
        ("Gate 12: B 5, then C 7", {"n:12", "c:b5", "c:c7"}, "c:12b5"),
    ],
)
def test_a_colon_before_a_space_separates_values(text: str, apart: set[str], merged: str) -> None:
    keys = _keys(text)
    assert apart <= keys
    assert merged not in keys


def test_a_colon_between_digits_stays_inside_a_time() -> None:
    assert _keys("it leaves at 10:17 AM") == {"t:1017"}
    assert _keys("boarding at 4:30 PM, gate B 12") == {"t:1630", "c:b12"}
