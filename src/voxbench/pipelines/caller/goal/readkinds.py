"""How a turn reads values back: the facts it reads back right or wrong, and whether it asks the
caller to confirm them.

Moved out of :mod:`.classify` (its one entry, :func:`readback_kinds`, is called there once per turn):
read-backs are recognised by three readers that must agree on one turn, a field named with its
value (:func:`.readback.readbacks`, :func:`.readback.misread`, :func:`.stated.misstated`) and a
value known by its kind (:mod:`.nearread`); they are wired together here, beside nothing else.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import AGAIN, CONFIRM_Q, GIVE_Q, OPEN_Q, READBACK_CUE, WH
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.forms import statement_check
from voxbench.pipelines.caller.goal.heard import Heard, mark
from voxbench.pipelines.caller.goal.nearread import mark_near_reads, reads_back
from voxbench.pipelines.caller.goal.readback import asks_to_state, misread, readbacks
from voxbench.pipelines.caller.goal.stated import misstated
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.pipelines.caller.goal.yesno import STATE_Q_LEAD

# A yes/no question (auxiliary first, no alternatives) that may name one of the caller's values:
# 'Do you want this as a replacement because of physical damage?', 'Is the delivery to Headquarters?'
_YES_NO_NAMING = re.compile(STATE_Q_LEAD + r"(?![^?]*\b(or|either)\b)[^?]*\?$", re.I)


def readback_kinds(t: Turn, heard: Heard, book: FactBook) -> None:
    """Facts read back (right or wrong) and whether the turn asks the caller to confirm something."""
    reading = reads_back(t.sents)  # 'Confirming: ...', '..., is that right' (.nearread)
    said = [
        s
        for s in t.statements + [q for q in t.questions if CONFIRM_Q.search(q) or reads_back([q])]
        if not asks_to_state(s, book)
    ]
    ok, wrong = readbacks(" ".join(said), book)  # 'Please confirm your X.' states none
    # 'Just today, May twenty-first?': a short question with no wh-word that reads a fact back
    # (not one asking to give a field: 'Are you able to provide the home mailing address?' states none)
    elliptic = " ".join(
        q
        for q in t.questions
        if ((len(q.split()) <= 6 and not WH.match(q)) or _YES_NO_NAMING.match(q)) and not GIVE_Q.match(q)
    )
    read_in_q = [k for k in (readbacks(elliptic, book)[0] if elliptic else []) if k not in heard.asked]
    ok += [k for k in read_in_q if k not in ok]
    stated, named_ok, named_wrong = statement_check(t, book)  # 'So your employee ID is E M P one two three.'
    ok += [k for k in named_ok if k not in ok]
    heard.readback_ok = [k for k in ok if k not in heard.asked]
    checking = (
        reading
        or any(CONFIRM_Q.search(q) for q in t.questions)
        or bool(READBACK_CUE.search(t.text) or stated)
    )
    heard.readback_wrong = (
        [k for k in wrong + named_wrong if k not in heard.asked and k not in ok] if checking else []
    )
    if checking:  # 'Could you confirm your name is <the husband's name>?': a field named with another value
        _misheard(t, heard, book, [k for k in wrong if k not in ok])
    _misstated(t, heard, book)
    _repeat_the_misheard(heard, book)
    if heard.readback_ok or heard.readback_wrong:
        heard.kinds.append("readback")
    if OPEN_Q.search(heard.question) and not CONFIRM_Q.search(heard.question):
        return  # 'I have you as Priya, Engineering. What would you like help with first?': the question counts
    if (
        any(CONFIRM_Q.search(s) and not asks_to_state(s, book) for s in t.sents)  # not 'Confirm your X?'
        or (heard.readback_ok and (READBACK_CUE.search(t.text) or reading))
        or read_in_q
    ):
        mark(heard, "confirm_question", "confirm_question")
    elif stated:
        mark(heard, "confirm_question", "statement_check")


def _repeat_the_misheard(heard: Heard, book: FactBook) -> None:
    """Asked to say again a value it has just read back wrong ('Let me read that back: three three
    four two three, then one four four four. Please repeat the full ten digit N P I.'): the value
    read back is the one asked, not another fact whose name the request also says (its own NPI
    for the supervising physician's)."""
    if not (heard.readback_wrong and heard.asked and AGAIN.search(heard.question)):
        return
    misheard = [book.get(k) for k in heard.readback_wrong]
    named = [
        k
        for k in heard.asked
        if (f := book.get(k)) is not None
        and any(o is not None and set(f.distinctive) <= set(o.words) for o in misheard)
    ]
    if named:
        heard.asked = [k for k in heard.asked if k not in named] + [
            k for k in heard.readback_wrong if k not in heard.asked
        ]
        heard.readback_wrong = []
        heard.rules.append("repeat_the_misheard")


def _misheard(t: Turn, heard: Heard, book: FactBook, off: list[str]) -> None:
    """Facts read back near their value by kind (:mod:`.nearread`) or named by their field's words with
    a value not theirs (:func:`.readback.misread`): read back wrong, not asked; the fact whose value was
    said instead is not read back right."""
    mark_near_reads(t.sents, heard, book, off)
    heard.misheard = misread(t.text, book)
    if not heard.misheard:
        return
    heard.readback_wrong += [k for k in heard.misheard if k not in heard.readback_wrong]
    heard.readback_ok = [
        k for k in heard.readback_ok if k not in heard.misheard and k not in heard.misheard.values()
    ]
    heard.asked = [k for k in heard.asked if k not in heard.misheard]
    heard.rules += [f"misread:{k}" for k in heard.misheard]
    if not heard.asked and "request" in heard.kinds:
        heard.kinds.remove("request")


def _misstated(t: Turn, heard: Heard, book: FactBook) -> None:
    """A field stated with a value not the caller's in any turn, a completion report or summary too
    (:func:`.stated.misstated`): read back wrong, so corrected before any acknowledgement. A request
    sentence that states it ('..., and your first name is Jordan.') asks nothing."""
    found = misstated(t.statements + [q for q in t.questions if CONFIRM_Q.search(q)], book)
    wrong = [k for k in found if k not in heard.readback_wrong]
    heard.readback_wrong += wrong
    heard.readback_ok = [k for k in heard.readback_ok if k not in wrong]
    heard.rules += [f"misstated:{k}" for k in wrong]
    stating = {s for _, s in found.values()}
    asking = [r for r in t.requests if r not in stating]
    heard.asked = [k for k in heard.asked if k not in wrong] if asking or t.questions or not found else []
    if found and not heard.asked and "request" in heard.kinds:
        heard.kinds.remove("request")
