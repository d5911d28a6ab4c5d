"""The literal every match of a regex needs: a text without it is not searched (speed)."""

from __future__ import annotations

import re
import re._constants as _const
import re._parser as _parser


def required_literal(pat: re.Pattern[str]) -> str:
    """The longest run of literal characters every match of `pat` contains ("" if none or
    the pattern ignores case): a text without it cannot match, so the regex is not run.
    Zero-width assertions (\\b, lookarounds) inside a run do not break it."""
    if pat.flags & re.IGNORECASE:
        return ""
    try:
        items = list(_parser.parse(pat.pattern, pat.flags))
    except Exception:  # an unexpected parse: no shortcut
        return ""
    best, run = "", ""
    for op, arg in items:
        if op is _const.LITERAL:
            run += chr(arg)
        elif op in (_const.AT, _const.ASSERT, _const.ASSERT_NOT):
            continue  # zero-width: the literal characters around it stay adjacent
        else:
            run = ""
        if len(run) > len(best):
            best = run
    return best
