"""A line quoted in any quote style is read as one written in double quotes; an apostrophe and a
term quoted in lower case are not lines."""

from __future__ import annotations

import pytest

from voxbench.spoken.quotes import double_quoted


@pytest.mark.parametrize(
    "quoted",
    [
        "ask exactly one follow-up question: 'Is there anything else that can be done today?' After that",
        "ask exactly one follow-up question: \u2018So there\u2019s nothing open on floor 2 at all?\u2019 After that",
        "ask ONE time: 'Can you check again? I don't want to pay today.' Then wait.",
        "say: 'We booked on the agents' advice, so please check again.' Then wait.",
    ],
)
def test_a_single_quoted_line_is_written_in_double_quotes(quoted: str) -> None:
    out = double_quoted(quoted)
    line = out[out.index("\u201c") + 1 : out.index("\u201d")]
    assert line[0].isupper() and line.endswith((".", "?")) and len(line.split()) >= 5
    assert "'" not in out.replace("don't", "").replace("agents' ", "") and "\u2018" not in out


@pytest.mark.parametrize(
    "text",
    [
        "the agent's name and the passengers' bags",
        "If the agent offers a flight outside the 'within 2 hours' window, decline.",
        "push back one time by insisting they 'just look it up' and that other airlines can",
        'ask: "What time was my original flight departing?" and wait',
        "say: \"My card says 'Priority Member' on it, so can you check again?\" and wait",
        "say: \u201cMy card says \u2018Gold Tier\u2019 on it, can you look again?\u201d then wait",
    ],
)
def test_an_apostrophe_a_term_and_a_double_quoted_line_are_left_as_they_are(text: str) -> None:
    assert double_quoted(text) == text


def test_a_quoted_word_ending_in_s_closes_where_no_quote_follows() -> None:
    text = "If asked, spell 'Fuentes' as F-U-E-N-T-E-S, and say 'That is my last name.' Then wait."
    assert double_quoted(text) == (
        "If asked, spell \u201cFuentes\u201d as F-U-E-N-T-E-S, and say \u201cThat is my last name.\u201d Then wait."
    )
