"""A line quoted in any quote style, written in one: curly double quotes.

EVA's trees quote the lines a caller is told to say in every style: "straight double", “curly
double”, 'straight single' and ‘curly single’ ('ask exactly one follow-up question: ‘Is there
anything else that can be done today?’'). A reader of quoted lines written for double quotes
misses the rest, or reads a clause out of the middle of the quote. :func:`double_quoted` rewrites
each single-quoted span as “…”, so one pattern reads them all. An apostrophe is no quote: a
single quote opens a span only where no letter comes before it ('the agent's' opens none), and
closes it only where no letter comes after it ('don't', 'there’s' stay inside), nor after an s
with a word in lower case next where the span closes later ('on the agents' advice, so ...': a
plural possessive; 'spell 'Fuentes' as F-U-E-N-T-E-S' closes there). A single-quoted
span that begins in lower case is a term the tree names, not a line to say ('outside the 'within
2 hours' window', 'insisting they 'just look it up''): it is left as it is. Double quotes are read
as written, and so is what they quote: a single-quoted span inside a "…" or “…” line is the line's
own ("My card says 'Priority Member' on it"), and written “…” it would end the line short.
"""

from __future__ import annotations

import re

_REST = r"(?:[^'\u2018\u2019\"\u201c\u201d]|(?<=[A-Za-z])['\u2019](?=[A-Za-z]))*"  # up to the next quote mark
_SINGLE = re.compile(
    r"(?<![A-Za-z0-9])(?P<open>['\u2018])(?P<line>[A-Z](?:[^'\u2018\u2019\"\u201c\u201d]|['\u2019](?=[A-Za-z])"
    r"|(?<=s)['\u2019](?=\s[a-z]))+?)"
    r"(?!(?<=s)['\u2019]\s[a-z]" + _REST + r"['\u2019](?![A-Za-z0-9]))['\u2019](?![A-Za-z0-9])"
)
_DOUBLE = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")


def double_quoted(text: str) -> str:
    """``text`` with each single-quoted span ('...' or ‘...’) written “...” (see the module docstring)."""
    out, at = [], 0
    for m in _DOUBLE.finditer(text):
        out += [_single(text[at : m.start()]), m.group()]
        at = m.end()
    return "".join([*out, _single(text[at:])])


def _single(text: str) -> str:
    return _SINGLE.sub(lambda m: f"\u201c{m.group('line')}\u201d", text)
