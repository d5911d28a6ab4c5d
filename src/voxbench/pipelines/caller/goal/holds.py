"""A hold, recognised by what it is: the agent asks for time, or announces its own work.

An agent that goes off to look something up says so in countless wordings ("One moment, let me
verify.", "Give me a second to check.", "I'm checking on that now.", "Allow me to check.", "I'll
be right with you."). A list of those phrases misses the next agent's; the shape does not change.
A sentence is a hold when, after acknowledgements or service talk ("Okay Ana,", "Thanks for your
patience,"), it is one of:

* **a request for time**: a wait word ("hold on", "bear with me"), or a moment asked or given
  ("give me a second", "just a sec", "I need a minute"), or "I'll be right with you"; then at
  most what the time is for ("to check", "while I look that up") or another hold;
* **the agent's own work, now or about to be**: a first-person lead ("let me", "allow me to",
  "I'll", "I'm going to"; "I'm" for the act under way) and a verb of checking, looking, finding or
  processing ("let me pull that up", "I'm verifying your information"); a verb of getting only
  when its object is not the caller's ("let me get that" holds, "let me get your member ID" asks);
  "need to" only when its object is not the caller's either ("I'll need to verify your ID" asks);
  nothing asked of the caller ("... with you", "... if you ...");
* **the work said bare**: "Checking now.", "Looking that up for you, Ana."

:mod:`.classify` reads the turn's last sentence (service talk aside) as a hold only when the turn
asks no question. The words are data (``lang/<lang>.json``, ``phrases.holds``); what the caller
does on a hold is unchanged (it waits: :mod:`.followups`).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.lang import alt, phrases


def _a(name: str) -> str:
    return alt("holds", name)


def _c(name: str) -> str:
    return alt("cues", name)


def _ing(phrase: str) -> str:
    """The phrase with its first word as the -ing form ('take a look' -> 'taking a look')."""
    head, _, rest = phrase.partition(" ")
    if head.endswith("e") and not head.endswith("ee"):
        head = head[:-1]
    elif re.fullmatch(r"[a-z]?[^aeiou\W][aeiou][bdgmnpt]", head):  # get, grab: one vowel, doubled
        head += head[-1]
    return f"{head}ing {rest}".rstrip()


def _ing_alt(name: str) -> str:
    return "|".join(_ing(p) for p in phrases("holds", name))


_LEAD = rf"(?:(?:{_c('acknowledgement')}|{_c('service_talk')}|{_a('lead')})(?: [a-z]+)?[,!.]*\s*)"
_MOMENT = rf"(?:(?:{_a('moment_size')})\s+){{0,3}}(?:{_a('moment')})"
_REST = rf"(?![^.?!]*\b(?:{_a('with_you')})\b)[^.?!]*"
_NOT_YOURS = rf"\b(?!\s+(?:{_a('your_you')})\b)"
_ACTION = rf"(?:{_c('action_verb')})\b(?![^.?!]*\b(?:{_a('condition')})\b)"
_ACTION_ING = rf"(?:{_c('action_doing')})\b(?![^.?!]*\b(?:{_a('condition')})\b)"
_ADVERBS = rf"(?:(?:{_a('adverb')})\s+)*"
_WORK = rf"(?:{_a('work_verb')})"
_WORK_ING = rf"(?:{_ing_alt('work_verb')})"
_TO_WORK = rf"(?:{_a('to')})\s+{_ADVERBS}(?:{_WORK}|{_c('action_verb')})\b[^.?!]*"
_TAILS = rf"(?:[,\s]+(?:{_a('tail')}|{_TO_WORK}))*"
_TIME = (
    rf"(?:(?:{_c('please')})\s+)?(?:just\s+)?"
    rf"(?:(?:{_a('wait_word')})(?:\s+(?:for\s+)?{_MOMENT})?|(?:(?:{_a('give_me')})\s+)?{_MOMENT}"
    rf"|(?:{_a('back_soon')})(?:\s+in\s+{_MOMENT})?)" + _TAILS
)
_ABOUT_TO = (
    rf"(?:{_a('about_to')})\s+{_ADVERBS}(?:(?:{_a('need_to')})\s+{_WORK}{_NOT_YOURS}"
    rf"|{_WORK}\b|(?:{_a('fetch_verb')}){_NOT_YOURS}|{_ACTION})" + _REST
)
_UNDER_WAY = (
    rf"(?:{_a('doing')})\s+{_ADVERBS}(?:{_WORK_ING}\b|(?:{_ing_alt('fetch_verb')}){_NOT_YOURS}"
    rf"|{_ACTION_ING})" + _REST
)
_BARE = rf"{_WORK_ING}(?:\s+(?:{_a('pronoun_object')}))?\b" + _TAILS
_ONE = rf"(?:{_TIME}|{_ABOUT_TO}|{_UNDER_WAY}|{_BARE})"

HOLD = re.compile(rf"^{_LEAD}*{_ONE}(?:[,;.]?\s+(?:and\s+)?{_ONE})?(?:,\s*[a-z]+)?[.!]*$", re.I)
"""One sentence that is a hold (see the module docstring)."""
