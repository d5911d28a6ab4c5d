"""A hold, recognised by what it is: the agent asks for time, or announces its own work.

An agent that goes off to look something up says so in countless wordings ("One moment, let me
verify.", "Give me a second to check.", "I'm checking on that now.", "Allow me to check.", "I'll
be right with you."). A list of those phrases misses the next agent's; the shape does not change.
A sentence is a hold when, after acknowledgements or service talk ("Okay Ana,", "Thanks for your
patience,"), it is one of:

* **a request for time**: a wait word ("hold on", "bear with me", "stay on the line"), or a
  moment asked or given: a number, "a few" or "a couple of" and a unit of time ("give me two
  minutes", "this will only take a moment", "I'll be just a moment"), or "I'll be right with
  you"; then at most what the time is for ("to locate your file", "while I look that up");
* **the agent's own work, now or about to be**: after "let me" / "allow me to" any verb that does
  not hand the turn to the caller (``hand_over``: know, tell, have, get, need ...; "let me dig
  into that" holds, "let me know which date works" does not); after "I'll", "I'm going to" a
  verb of checking, looking or processing, or "put you on hold"; after "I'm" its -ing form
  ("I'm verifying your information"; "seeing", "finding" only of a pronoun: "I'm seeing a charge"
  reports one); a verb of getting only when its object is not the caller's ("let me get that"
  holds, "let me get your member ID" asks); nothing asked of the caller ("... with you", "... if
  you ...");
* **the work said bare**: "Checking now.", "Searching our records.", "Pulling that up for you."

Whatever its shape, a sentence that states something is no hold (:data:`HOLD`): a value (a
number, date, time, amount; the time asked for aside, and a number word that ends a field's name
closing the sentence, "this phone last four", ``label_value``) or a second clause that says what is ("...
and it shows a departure at nine", ", and there is a seat", "... is confirmed"). An agent reports
a result in the same "I'm looking at ..." it holds in; the caller must hear the result.

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


def _head_split(phrase: str) -> tuple[str, str]:
    """The phrase's first word and the rest, at the first space outside a bracket or a group: a
    patterned head ('double[- ]check', '(?:put|place) you') is one word, not cut in its class."""
    depth = 0
    for i, ch in enumerate(phrase):
        depth += ch in "([" and not (i and phrase[i - 1] == "\\")
        depth -= ch in ")]" and not (i and phrase[i - 1] == "\\")
        if ch == " " and depth == 0:
            return phrase[:i], phrase[i + 1 :]
    return phrase, ""


def ing_form(phrase: str) -> str:
    """The phrase with its first word as the -ing form ('take a look' -> 'taking a look')."""
    head, rest = _head_split(phrase)
    if head.endswith("e") and not head.endswith("ee"):
        head = head[:-1]
    elif re.fullmatch(r"[a-z]?[^aeiou\W][aeiou][bdgmnpt]", head):  # get, grab: one vowel, doubled
        head += head[-1]
    return f"{head}ing {rest}".rstrip()


def _ing_alt(name: str) -> str:
    return "|".join(ing_form(p) for p in phrases("holds", name))


_LEAD = rf"(?:(?:{_c('acknowledgement')}|{_c('service_talk')}|{_a('lead')})(?: [a-z]+)?[,!.]*\s*)"
_MOMENT = rf"(?:(?:{_a('moment_size')})\s+){{0,3}}(?:{_a('moment')})"
_REST = rf"(?![^.?!]*\b(?:{_a('with_you')})\b)[^.?!]*"
_NOT_YOURS = rf"\b(?!\s+(?:{_a('your_you')})\b)"
_ACTION = rf"(?:{_c('action_verb')})\b(?![^.?!]*\b(?:{_a('condition')})\b)"
_ACTION_ING = rf"(?:{_c('action_doing')})\b(?![^.?!]*\b(?:{_a('condition')})\b)"
_ADVERBS = rf"(?:(?:{_a('adverb')})\s+)*"
_WORK = rf"(?:{_a('work_verb')})"
_WORK_ING = rf"(?:{_ing_alt('work_verb')})"
_LOOK = rf"(?:{_a('look_only')})\b(?!\s+you\b)"
_LOOK_ING = rf"(?:{_ing_alt('look_only')})\s+(?:{_a('pronoun_object')})\b"
_ANY_VERB = rf"(?!(?:{_a('hand_over')})\b)[a-z]+\b{_NOT_YOURS}"
_TO_WORK = rf"(?:{_a('to')})\s+{_ADVERBS}(?!(?:{_a('hand_over')}|{_a('your_you')})\b)[a-z]+\b[^.?!]*"
_TAILS = rf"(?:[,\s]+(?:{_a('tail')}|{_TO_WORK}))*"
_TIME = (
    rf"(?:(?:{_c('please')})\s+)?(?:just\s+)?"
    rf"(?:(?:{_a('wait_word')})(?:\s+(?:for\s+)?{_MOMENT})?|(?:(?:{_a('give_me')})\s+)?{_MOMENT}"
    rf"|(?:{_a('back_soon')})(?:\s+in\s+{_MOMENT})?)" + _TAILS
)
_ABOUT_TO = (
    rf"(?:(?:{_a('any_verb')})\s+{_ADVERBS}{_ANY_VERB}"
    rf"|(?:{_a('about_to')})\s+{_ADVERBS}(?:(?:{_a('need_to')})\s+{_WORK}{_NOT_YOURS}"
    rf"|(?:{_WORK}|{_LOOK})\b|(?:{_a('fetch_verb')}){_NOT_YOURS}|{_ACTION}|{_a('on_hold')}))" + _REST
)
_UNDER_WAY = (
    rf"(?:{_a('doing')})\s+{_ADVERBS}(?:{_WORK_ING}\b|{_LOOK_ING}|(?:{_ing_alt('fetch_verb')}){_NOT_YOURS}"
    rf"|{_ACTION_ING})" + _REST
)
_BARE = rf"(?:{_WORK_ING}|{_ing_alt('fetch_verb')})\b(?!\s+(?:{_a('your_you')})\b)[^.?!,]*" + _TAILS
_ONE = rf"(?:{_TIME}|{_ABOUT_TO}|{_UNDER_WAY}|{_BARE})"

_SHAPE = re.compile(rf"^{_LEAD}*{_ONE}(?:[,;.]?\s+(?:and\s+)?{_ONE})?(?:,\s*[a-z]+)?[.!]*$", re.I)
_TIME_ASKED = re.compile(_MOMENT, re.I)
_STATES = re.compile(rf"\b(?:{_a('value')})\b|{_a('states')}", re.I)
_LABEL_VALUE = re.compile(rf"\b(?:{_a('label_value')})", re.I)


class _Hold:
    """One sentence that is a hold (see the module docstring): its shape, and no value or second
    clause stated ("I'm seeing a charge of thirty dollars", "I'm checking and your flight is
    confirmed" report a result; the time asked for, "two minutes", is no value)."""

    def match(self, sentence: str) -> bool:
        if not _SHAPE.match(sentence):
            return False
        return not _STATES.search(_LABEL_VALUE.sub(" ", _TIME_ASKED.sub(" ", sentence)))


HOLD = _Hold()
"""One sentence that is a hold: ``HOLD.match(sentence)``."""
