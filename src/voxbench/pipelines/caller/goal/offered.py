"""An offer or a choice said as a statement, read as the question it is.

"If you'd like, I can either place you on the waitlist or check another floor for you." asks
what "Would you like me to place you on the waitlist or check another floor?" asks; without
its question mark the caller heard a statement, found nothing asked and pushed back on an
offer it should have taken. A statement offers when, outside its conditions
(:mod:`.conditions`), the agent says what it can do for the caller ('I can place you ...',
'I could check ...', 'You can choose ...': ``offer_can``) and one of these holds: a condition
of the sentence is the caller's wish ('If you'd like', '... if you want': ``offer_wish``), the
clause names two things ('either ... or ...': ``offer_choice``), or the modal is 'could' ('I
could book the nine AM.'), and the turn asks nothing else (a question it asks says what it
asks: 'Next, we can do A or B. Which would you like first?') nor refuses (:func:`offers_asked`); a
turn whose structure marks two options or more in more than one offer ('I can offer A.
Alternatively, B.': :mod:`.marked`) asks which of them. What the agent can see, tell or confirm ('I can see your booking is
confirmed.'), or can do once something else is done ('... before I can access or change a
booking.'), offers nothing; a sentence naming a transfer of the call is :mod:`.transfers`' to read.
The words are data: the patterns in ``ending_lang``, the modals and the question frames in
``phrases.offered`` and ``rewrites.offer_object`` of ``goal/lang/<lang>.json``.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.conditions import condition_spans, refuses, unconditioned
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.lang import phrases, words
from voxbench.pipelines.caller.goal.marked import marked_options

_MODALS = [f" {m} " for m in phrases("offered", "modal")]
_TENTATIVE = phrases("offered", "modal_tentative")
"""A modal that offers by itself ('I could book the nine AM.'); compared as said (case and all)."""
_OBJECT = dict(words().rewrites["offer_object"])
"""Who offers ('we', 'I': the pattern's ``who``) as the object of 'would you like ... to'; any
other form said ('We', 'i') is the last entry's."""


def _offer(sentence: str) -> tuple[str, re.Match[str]] | None:
    """The statement's text outside its conditions and where in it the offer begins, when it
    offers (see the module docstring); a question never does here (it asks already)."""
    s = sentence.strip()
    low = s.lower()
    if s.endswith("?") or not any(m in low for m in _MODALS):  # most sentences: cheap out
        return None
    main = unconditioned(s)
    m = pattern("offer_can").search(main)
    if m is None or pattern("call_transfer").search(main):  # a transfer offered: .transfers reads it
        return None
    if m.group("modal") in _TENTATIVE or m.group("you") or pattern("offer_choice").search(main[m.end() :]):
        return main, m
    wished = any(pattern("offer_wish").match(s[a:b]) for a, b in condition_spans(s))
    return (main, m) if wished else None


def offers(sentence: str) -> bool:
    """Whether the statement ``sentence`` offers the caller something or a choice."""
    return _offer(sentence) is not None


def offers_asked(sents: list[str]) -> list[str]:
    """The turn's sentences with each offer stated said as a question (:func:`as_question`), when
    none of them asks already nor refuses: 'I cannot submit that as paid time off. If you want, I
    can check sick leave instead.' is a refusal first, answered as the tree says (push back, one
    follow-up: :mod:`.pushback`) before any alternative is taken."""
    if any(s.endswith("?") for s in sents) or refuses(sents):
        return sents
    said = [as_question(s) for s in sents]
    offer = [s for s, q in zip(sents, said, strict=True) if s != q]
    options = marked_options(sents, "")  # 'I can offer A. Alternatively, B.': which of them
    if options and not (len(offer) == 1 and all(o in offer[0] for o in options)):  # not one offer's own
        return [*sents, phrases("offered", "choice_asked")[0].format(options=", or ".join(options))]
    return said


def as_question(sentence: str) -> str:
    """An offer stated, said as the question it is ('If you'd like, I can either A, or B.' ->
    'Would you like me to A, or B?'; 'You can choose A or B.' -> 'Would you like A or B?'); any
    other sentence as it is."""
    found = _offer(sentence)
    if found is None:
        return sentence
    main, m = found
    rest = re.sub(r"[\s.,;:!]+$", "", main[m.end() :])
    if m.group("you"):
        return phrases("offered", "asked")[0].format(rest=rest)
    said = _OBJECT.get(m.group("who"), list(_OBJECT.values())[-1])
    return phrases("offered", "asked_for")[0].format(object=said, rest=rest)
