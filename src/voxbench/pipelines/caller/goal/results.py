"""A result the agent states: the new value of something, which may be the one the caller wants.

A small agent often reports an action by its outcome, not by a completion verb: "The new total
number of checked bags is 1.", "Your seat is now 14A, a window seat.", "You now have one checked
bag." Such a sentence completes the caller's request when the value it states is the caller's
own (``Bags wanted: 1``, ``Seat preference: window``) and the thing it names is that fact's
subject (bags, seat). A stated value the caller does not want is no completion, and an action
only announced ("I'll add a checked bag") is a hold (:data:`.cues.HOLD`), not a result.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import ACTION_SAID, NOT_DONE
from voxbench.pipelines.caller.goal.facts import HEADS, WANT_WORDS, WEAK_WORDS, Fact, FactBook, stem
from voxbench.spoken import mentions, tokens

# 'the new total number of checked bags is 1', 'your seat is now 14A', 'you now have one checked bag'
_RESULT = re.compile(
    r"\b(?:the|your)\s+(?:new|updated)\s+(?P<s1>[\w' -]{2,60}?)\s+(?:is|are)\s+(?:now\s+)?(?P<v1>[^.!?;]+)"
    r"|\b(?:the|your)\s+(?P<s2>[\w' -]{2,60}?)\s+(?:is|are)\s+now\s+(?P<v2>[^.!?;]+)"
    r"|\byou\s+(?:now\s+have|have\s+now|'ve\s+now\s+got)\s+(?P<v3>[^.!?;]+)",
    re.IGNORECASE,
)
# Key words that name no subject a result could be about.
_NOT_SUBJECT = HEADS | WEAK_WORDS | WANT_WORDS | {"preference", "choice", "your", "total"}


def _base(word: str) -> str:
    """The word's stem, a plural as its singular ('bags' and 'bag' meet; :func:`.facts.stem`
    keeps four-letter words whole)."""
    w = word.lower()
    return stem(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)


def _subject_words(f: Fact) -> set[str]:
    return {_base(w) for w in f.words if w not in _NOT_SUBJECT}


def _says_value(text: str, f: Fact) -> bool:
    """Whether ``text`` states the fact's value: a count as its number, a word or code as said."""
    said = tokens(text)
    for v in f.values():
        if re.fullmatch(r"\d+", v.strip()):
            if v.strip() in said:
                return True
        elif mentions(text, v) or (v.isalpha() and v.lower() in said):
            return True
    return False


def stated_result(sentence: str, book: FactBook, turn: str = "") -> str | None:
    """The key of the caller's fact whose value this sentence states as the new result, else None.

    'The new X is V' alone is as often a read-back of what the caller just gave ('Got it. The new
    carrier is Mag Mutual.', 'Let me read those back. Your new facility code is ...'): it is a
    result only said with 'now', or in a turn (``turn``) where the agent says it takes the action."""
    if sentence.endswith("?") or NOT_DONE.search(sentence):
        return None
    m = _RESULT.search(sentence)
    if m is None:
        return None
    if m.group("s1") and not re.search(r"\bnow\b", sentence, re.I) and not ACTION_SAID.search(turn):
        return None
    value = m.group("v1") or m.group("v2") or m.group("v3") or ""
    subject = m.group("s1") or m.group("s2") or value
    named = {_base(w) for w in tokens(subject)}
    for f in book:
        words = _subject_words(f)
        if f.source == "information_required" and words and words & named and _says_value(value, f):
            return f.key
    return None
