"""Fields an ask names beside the caller's facts that the caller does not hold ('Could you provide
your employee ID and the shift ID?' with no shift ID among its facts).

The held ones are answered; each field not held is said not to be held, in the same line, with
what the caller has that stands for it (the facts about the same thing: 'the shift' -> its date
and start time, :func:`.fallbacks.subject_fallback`). Answered with the employee ID alone, the
shift ID was passed over in silence, and the agent had to ask again. A person says 'I don't have the shift ID'. Asked alone ('Could you
provide the shift ID?'), a field whose qualifier names held facts all of another kind (the
shift's date and start time) is said not held first, then those facts: given the date alone, the
agent heard a date where it asked for an ID.

A field is a noun phrase with a determiner, a qualifier and a value head ('the shift ID':
``asks.unheld_heads``) that names none of the caller's facts; or, of any head, the last item of a
list the agent asks the caller for ('could you provide your first name and your vehicle license
plate?': 'your' after an ask verb, the item ending the sentence), its noun a word of none of the
caller's facts, and neither a record an agent has in hand nor what the call is about
(:func:`.confirmobj.asks_a_field`). Read anywhere else, such a phrase was 'the footrest request',
'the technician visit', 'the person leaving', 'your current checklist' in the reference agents'
turns (measured, not kept): a noun of no value head is a field only where it is asked for. It is
taken as the turn naming an
asked fact another way, not as a field missing, when a qualifier of it is a word of an asked fact
('your phone number' beside 'phone_last_four'), or when an asked fact of its kind of head is named
by no other phrase ('the reservation code' for 'confirmation_number'), or when it is one of two
alternatives ('the booking code or the last name'), or when a phrase follows that says what it is of ('the
expected number of attendees').
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.confirmobj import asks_a_field
from voxbench.pipelines.caller.goal.facts import WANT_WORDS, WEAK_WORDS, FactBook, stem
from voxbench.pipelines.caller.goal.fallbacks import subject_fallback
from voxbench.pipelines.caller.goal.lang import alt, phrases

_HEADS = phrases("asks", "unheld_heads")
_NP = re.compile(
    rf"(?<!\bof )(?<!\bfor )(?<!\bon )(?<!\bin )(?<!\bunder )(?<!\bwith )(?<!\bfrom )"
    rf"\b(?:the|your|a|an|and)\s+((?:(?!(?:and|or|the|your|of|for|to|in|on|at|with|from)\b)[a-z][a-z'-]*\s+){{1,3}}?)({'|'.join(_HEADS)})\b(?!\s+(?:of|for|on|in)\b)",
    re.I,
)
_OWNER = alt("unheld_items", "owner")
_ITEM = re.compile(
    rf"(?:\b(?:{alt('unheld_items', 'joins')})|,)\s+(?:{_OWNER})\s+"
    rf"((?:(?!(?:{alt('unheld_items', 'stops')})\b)[a-z][a-z'-]*\s+){{0,2}})"
    rf"([a-z][a-z'-]+)(?=\s*(?:[,.?!]|$|\b(?:{alt('unheld_items', 'tail')})\b))",
    re.I,
)
"""The last item of a list the agent asks for, 'your' and a noun of no value head ('... and your
vehicle license plate?'): a field when :func:`.confirmobj.asks_a_field` reads it as one."""
_LEAD = re.compile(rf"\b(?:{alt('facts', 'object_lead')})\s+(?:{_OWNER})\b", re.I)
"""An ask of the caller's own things: 'give me your', 'what are your', 'I'll need your'."""
_IDENTIFIER = {"id", "code", "number"}
_EMPTY = WANT_WORDS | WEAK_WORDS | {"same", "other", "correct", "exact", "full", "right", "that", "this"}


def _family(head: str) -> str:
    return "identifier" if head in _IDENTIFIER else head


def unheld_fields(
    requests: list[str], book: FactBook, asked: dict[str, str], given: set[str]
) -> dict[str, list[str]]:
    """The field as the agent said it ('shift ID') -> the facts the caller gives in its place (not
    given yet; none when it has none), for each field not held in a request that asks held ones."""
    if not asked:
        return {}
    out: dict[str, list[str]] = {}
    for s in requests:
        if re.search(r"\b(?:either|or)\b", s, re.I):
            continue  # alternatives: one held is the answer
        phrases_ = [(m.group(0), m.group(1).split(), m.group(2).lower()) for m in _NP.finditer(s)]
        heads = len(phrases_)  # the phrases of a value head; the items of none after them
        phrases_ += _items(s, book, {np for np, _, _ in phrases_})
        phrases_ += _listed(s, book, {np for np, _, _ in phrases_})
        # a qualifier word of an asked fact ('your phone number' beside 'phone_last_four') answers
        # the phrase unless the asked facts sharing it are all of another kind
        apart = [
            i < heads and _kind_apart(mods, head, asked, book) for i, (_, mods, head) in enumerate(phrases_)
        ]
        maybe = [i for i, (_, mods, _) in enumerate(phrases_) if i >= heads or (
                 not all(w.lower() in _EMPTY for w in mods)
                 and (not _sharing(mods, asked, book) or apart[i]))]  # fmt: skip
        if not maybe:  # the cheap tests first: matching each phrase to facts costs (goal_caller_cpu.py)
            continue
        named = {k: i for i, (np, _, _) in enumerate(phrases_) for k, _ in asked_facts(np, book)}
        for i in maybe:
            np, mods, head = phrases_[i]
            if apart[i]:  # the asked facts sharing its words answer it
                out.setdefault(_field(mods, head), _sharing(mods, asked, book))
                continue
            if i in named.values() or _names_asked(head, asked, book, named, s.replace(np, " ; ")):
                continue
            field = _field(mods, head)
            stand = [k for k, _ in subject_fallback(np, book) if k not in asked and k not in given]
            out.setdefault(field, stand)
    return out


def _items(s: str, book: FactBook, found: set[str]) -> list[tuple[str, list[str], str]]:
    """The list's last item of no value head that names a field (:data:`_ITEM`), not within a
    phrase :data:`_NP` found, its noun a word of none of the caller's facts ('your shift' to a
    caller holding the shift's date is about them)."""
    lead = _LEAD.search(s)
    if lead is None:  # 'I need to review your employee record and your current checklist': no ask
        return []
    out = []
    for m in _ITEM.finditer(s, lead.end()):
        np = f"{phrases('unheld_items', 'owner')[0]} {m.group(1)}{m.group(2)}"
        held = stem(m.group(2).lower()) in book.word_stems
        if held or any(np in f or f in np for f in found):
            continue
        if asks_a_field(np, book):
            out.append((np, m.group(1).split(), m.group(2).lower()))
    return out


_DET = alt("unheld_items", "determiners")
_LIST_LEAD = re.compile(rf"\b(?:{alt('unheld_items', 'list_lead')})\s+(?=(?:{_DET})\s)", re.I)
"""An ask of a list of things: 'can I get the', 'what are your', 'I'll need your'."""
_LIST_SPLIT = re.compile(
    rf"\s*,\s*(?:(?:{alt('unheld_items', 'joins')})\s+)?|\s+(?:{alt('unheld_items', 'joins')})\s+", re.I
)
_DET_LEAD = re.compile(rf"^(?:(?:{_DET})\s+)+", re.I)
_TAIL = re.compile(rf"[\s,]*\b(?:{alt('unheld_items', 'tail')})\b.*$", re.I)
_STOPS = frozenset(phrases("unheld_items", "stops"))
_ENDS = _STOPS - {"of"}
"""A word that ends a list of fields ('in year, month, day format'); 'of' is within one ('date of birth')."""


def _listed(s: str, book: FactBook, found: set[str]) -> list[tuple[str, list[str], str]]:
    """Each item of a list the agent asks for, with or without its determiner ('Can I get the
    first name, mother's maiden name, and phone last four, please?', 'what are your vehicle
    license plate, your flight number, ...'; of two items, one with its determiner): one of
    three words at most and no preposition that
    names none of the caller's facts and asks for a field (:func:`.confirmobj.asks_a_field`), not
    within a phrase found before; the list ends at an item that is none and names no fact ('your
    date of birth, in year, month, day format'). The first item and one with no determiner are read here;
    :data:`_NP` and :data:`_ITEM` find those after 'your' or 'the' with a value head."""
    lead = _LIST_LEAD.search(s)
    if lead is None:
        return []
    items = [_TAIL.sub("", x.strip(" ?.!")) for x in _LIST_SPLIT.split(s[lead.end() :])]
    out = []
    for said in items if len(items) >= 2 else []:
        it = _DET_LEAD.sub("", said)
        if len(items) < 3 and it == said:  # 'start and end dates': two items, the second no field
            continue
        ws = it.split()
        if not 1 <= len(ws) <= 3 or any(
            not re.fullmatch(r"[a-z][a-z'-]*", w, re.I) or w.lower() in _STOPS for w in ws
        ):
            if asked_facts(it, book) and not set(w.lower() for w in ws) & _ENDS:
                continue  # 'your date of birth': a held item, the list goes on
            break  # 'your date of birth in year, month, day format': the list of fields ended

        if any(it.lower() in f.lower() or f.lower() in it.lower() for f in found):
            continue
        head = ws[-1].lower()  # one of no value head that is a word of its facts is about them ('your shift')
        if head not in _HEADS and any(stem(head) == stem(w) for f in book for w in f.words):
            continue
        if not asked_facts(it, book) and asks_a_field(it, book):
            out.append((it, ws[:-1], ws[-1].lower()))
    return out


def _field(mods: list[str], head: str) -> str:
    return " ".join([*(w.lower() for w in mods), "ID" if head == "id" else head])


def _kind_apart(mods: list[str], head: str, asked: dict[str, str], book: FactBook) -> bool:
    """The phrase's qualifier is a word of asked facts, none of which has a head of its kind: 'the
    shift ID' asked alone, answered by the shift's date and start time, is a field not held, said
    so beside them; 'the shift date' beside 'shift_date', or 'your reservation code' beside
    'confirmation_number' (both identifiers), is the fact itself."""
    mine = [f for k in _sharing(mods, asked, book) if (f := book.get(k)) is not None]
    if not mine or not all(f.heads for f in mine):  # 'phone_last_four' is of no kind: a part held
        return False
    return not any(_family(h) == _family(head) for f in mine for h in f.heads)


def _sharing(mods: list[str], asked: dict[str, str], book: FactBook) -> list[str]:
    """The asked facts a word of the qualifier is a word of."""
    said = {stem(w.lower()) for w in mods}
    return [k for k in asked if (f := book.get(k)) is not None and said & {stem(w) for w in f.words}]


def _names_asked(head: str, asked: dict[str, str], book: FactBook, named: dict[str, int], rest: str) -> bool:
    """Whether the phrase names an asked fact in other words (module docstring): one of its kind
    of head that nothing else the sentence says (``rest``: the sentence without the phrase) names
    ('first name' in 'the phone number, first name, and middle name' is not the middle name)."""
    other = [k for k in asked if k not in named and (f := book.get(k)) is not None
             and any(_family(h) == _family(head) for h in f.heads)]  # fmt: skip
    return bool(other) and not {k for k, _ in asked_facts(rest, book)} >= set(other)
