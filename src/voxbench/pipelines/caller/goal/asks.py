"""Which of the caller's facts an agent's request sentence asks for.

Fact requests are matched by the words of the scenario's own fact keys (see
:mod:`~voxbench.pipelines.caller.goal.facts`), in request sentences only: a question, or an
imperative such as "Please give me your employee I D". When no fact is named whole, a few
fallbacks read what the agent means: the head noun alone ('the date'), the subject of a field
the caller lacks ('the shift ID'), someone else's fact ('her date of birth'), the fact holding
digits the agent half heard, the caller's backup fact ('which floor instead?').
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import AGAIN, COURTESY, REQUEST
from voxbench.pipelines.caller.goal.facts import (
    FLUFF_HEADS,
    HEADS,
    SYNONYMS,
    WANT_WORDS,
    WEAK_WORDS,
    Fact,
    FactBook,
    said_expansions,
    stem,
)
from voxbench.pipelines.caller.goal.holds import HOLD
from voxbench.pipelines.caller.goal.lang import alt as lang_alt
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.parts import parts_of
from voxbench.pipelines.caller.goal.plural import beside_hand
from voxbench.pipelines.caller.goal.rules import CONTEXT, CONTEXT_MOST_WORDS, MOST_WORDS, THIRD_PARTY
from voxbench.pipelines.caller.goal.speech import value_kind
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import runs, tokens

_STATE_WORDS = set(phrases("readback", "state_words"))
_DETERMINERS = lang_alt("unheld_items", "determiners")
"""Words before a noun in a listed ask ('your', 'the'): read once, not per turn."""
"""'new', 'original', 'desired'...: a request saying one its fact's key does not have asks another."""


def words_of(text: str) -> tuple[set[str], str]:
    toks = tokens(text)
    # the words as said too: 'first' / 'second' are also field words ('first name'), not only numbers
    raw = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    ws = {stem(t) for t in toks} | {stem(r) for r in runs(text)} | raw
    flat = " " + " ".join(toks) + " "
    more = said_expansions(flat)  # 'your DOB' says the date of birth, 'your surname' the last name
    return ws | {stem(w) for w in more}, flat + " ".join(more) + (" " if more else "")


def has_word(word: str, ws: set[str], flat: str) -> bool:
    for alt in (word, *SYNONYMS.get(word, ())):
        if " " in alt:
            if f" {alt} " in flat:
                return True
        elif stem(alt) in ws:
            return True
    return False


def is_request(sentence: str) -> bool:
    """A question, or a sentence asking for something ('Please provide ...'). A lone
    'Please.' is the tail of a request the recogniser cut off (whisper makes it a segment of
    its own), not a request: joined with the agent's next words it made 'I found your
    reservation.' a question the caller had no fact for (live bb.2, 2026-12-04)."""
    s = sentence.strip()
    if COURTESY.match(s):
        return False
    return s.endswith("?") or (bool(REQUEST.search(s)) and not HOLD.match(s)) or bool(_NAMED_PLEASE.match(s))


_NAMED_PLEASE = re.compile(
    rf"^(?!.*\b(?:i|we|you)\b)[^?!]*\b(?:{'|'.join(sorted(HEADS))})s?\b[^?!]*,\s*please[.!]*$", re.I
)
"""'Your employee ID and date of birth, please.': a thing named by a head noun (no clause of its
own: no 'I', 'we', 'you') and 'please' asks for it."""


def _match(f: Fact, got: frozenset[str], record_optional: bool = False) -> str:
    """The rule by which the matched words ``got`` name fact ``f`` ('' if they do not);
    ``record_optional``: a listed record's field may be named by its own words alone ('What is
    your origin?' for 'original_travel_details.0.origin')."""
    dist = [w for w in f.distinctive if w not in ("choice", "preference")] or list(f.distinctive)
    strong = [w for w in dist if w not in WEAK_WORDS]
    own = [w for w in strong if w not in f.record_words]
    if record_optional and own and not set(f.record_words) & got:
        strong = own
    all_heads = all(w in got for w in f.heads)
    said_heads = all(w in got for w in f.heads if w not in FLUFF_HEADS)
    if strong and all(w in got for w in strong) and said_heads:
        return "name" if all_heads and all(w in got for w in dist) else "distinctive"
    if not strong and dist and all(w in got for w in dist) and all_heads and f.heads:
        return "name"
    if (
        len(f.words) >= 3
        and len(got) >= len(f.words) - 1
        and all_heads
        and any(w in got for w in strong or dist)
    ):
        return MOST_WORDS
    return ""


_HEAD_KINDS = {
    h: set(k.split(",")) for h, _, k in (e.partition(":") for e in phrases("facts", "head_value_kinds"))
}
"""A head noun and the kinds of value it names: a 'code' is a code or a number, never free text."""


def other_head(f: Fact, flat: str, book: FactBook | None = None) -> bool:
    """The request names one of the fact's words followed by a head noun the fact lacks and its
    value cannot be ('Please provide the desk code.' is no 'desk_preference: near a window'): the
    agent asks for something else the caller does not have (live it.2, asked three times, answered
    with the preference twice and 'Okay.' once). Not when those two words are another fact of
    ``book`` named whole: 'the last four digits of your phone number and last name' asks for
    'last_name' beside 'phone_last_four', nothing the caller lacks."""
    if any(f" {h} " in flat for h in f.heads):
        return False  # 'the group code or exact group name': its own name is said too
    for w in f.distinctive:
        for head, kinds in _HEAD_KINDS.items():
            said = f" {w} {head} " in flat or any(f" {w} {q} {head} " in flat for q in WEAK_WORDS)
            held = book is not None and any(o is not f and set(o.words) == {w, head} for o in book)
            if head not in f.words and said and not held and value_kind(f.value, f.words) not in kinds:
                return True  # 'the employee full name' is no employee ID either
    return False


def asked_facts(
    sentence: str,
    book: FactBook,
    given: set[str] | None = None,
    context: str = "",
    focus: set[str] | None = None,
) -> list[tuple[str, str]]:
    """(fact key, rule) for each fact a request sentence asks for (:func:`asked_in`); a request of
    parts joined ('..., and ...') that each name a fact asks for each part's own: one part's words
    do not name a fact with the other's ('the P T O type, and the preferred date' asks for no P T O
    date, :mod:`.parts`)."""
    parts = parts_of(sentence)
    if len(parts) == 1:
        return asked_in(sentence, book, given, context, focus)
    each = [asked_in(p, book, given, context, focus) for p in parts]
    if all(each):
        return _merged([kr for e in each for kr in e])
    # a fact's words, some in one part and some in another, name no fact: 'your dea transfer
    # effective date and your fax number' asks no DEA number
    in_part = {k for e in each for k, _ in e}
    whole = asked_in(sentence, book, given, context, focus)
    return [(k, r) for k, r in whole if k in in_part or r.startswith(CONTEXT) or not _split(k, parts, book)]


def _split(key: str, parts: list[str], book: FactBook) -> bool:
    """The fact's words are said in two of the parts or more, and one part says its head after a
    word of none of the caller's facts ('your fax number'): that head is of another thing."""
    f = book.get(key)
    if f is None or not f.heads:
        return False
    if sum(any(has_word(w, *words_of(p)) for w in f.words) for p in parts) < 2:
        return False
    heads = "|".join(map(re.escape, f.heads))
    before = [
        m.group(1)
        for p in parts
        for m in re.finditer(rf"\b(?:{_DETERMINERS})\s+([a-z]+)\s+(?:{heads})\b", p.lower())
    ]
    return any(content_words(w) and stem(w) not in book.word_stems for w in before)


def _merged(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each key once, with the rule of its first finding, in the order of its last finding: a
    key a later part names again is asked where that part asks it."""
    first: dict[str, str] = {}
    last: dict[str, int] = {}
    for i, (key, rule) in enumerate(found):
        first.setdefault(key, rule)
        last[key] = i
    return [(key, first[key]) for key in sorted(last, key=last.__getitem__)]


def asked_in(
    sentence: str,
    book: FactBook,
    given: set[str] | None = None,
    context: str = "",
    focus: set[str] | None = None,
) -> list[tuple[str, str]]:
    """(fact key, rule) for each fact a request sentence asks for, the most specific names first.

    ``context`` (the rest of the agent's turn) may supply a fact's other words ("Where should we
    deliver it? Please give me the building and floor." asks for the *delivery* building), as
    long as the request sentence itself names one of its distinctive words or heads.
    """
    ws, flat = words_of(sentence)
    cws, cflat = words_of(f"{context} {sentence}") if context else (ws, flat)
    states = set(re.findall(r"[a-z]+", sentence.lower())) & _STATE_WORDS
    hits: list[tuple[Fact, frozenset[str], str]] = []
    for f in book:
        got = frozenset(w for w in f.words if has_word(w, ws, flat))
        rule = _match(f, got, not (states - set(f.words) - set(f.record_words)))  # not 'the *new* date'
        repeat = bool(AGAIN.search(sentence))
        if not rule and context and (got & set(f.distinctive) or (got and repeat)):
            wider = frozenset(w for w in f.words if has_word(w, cws, cflat))
            under = _match(f, wider)
            rule = {"": "", MOST_WORDS: CONTEXT_MOST_WORDS}.get(under, CONTEXT)
            got = wider if rule else got
        if not rule and f.heads and not f.distinctive and set(f.heads) <= got and states & _wants(f):
            rule = "wanted_head"  # 'the preferred date' for 'preferred_date' (its want word no key word)
        if not rule and focus and f.key in focus and f.heads and set(f.heads) <= got:
            rule = "in_hand" if got & (set(f.distinctive) - WEAK_WORDS) else ""  # 'the effective date'
        if rule and not other_head(f, flat, book):
            hits.append((f, got, rule))
    if focus:  # the same words name a fact of the request in hand and another as well: the one in hand
        hits = [h for h in hits if h[0].key in focus or beside_hand(h, hits, focus, sentence, book)]
        hits = [
            h if _named_whole(h[0], flat, sentence) else _in_hand_head(h, book, focus, hits) for h in hits
        ]
    # a fact whose matched words are a strict subset of another's is the less specific name, unless
    # that other one left one of its own distinctive words unsaid ('floor' vs 'backup_desk_floor')
    partial = (MOST_WORDS, CONTEXT_MOST_WORDS)
    keep = [h for h in hits if not any(h[1] < o[1] and o[2] not in partial for o in hits if o is not h)]
    # same words matched: the name with fewer words left unsaid ('desired_return_date' over 'original_...')
    keep = [
        h
        for h in keep
        if not any(
            o[1] >= h[1] and len(set(o[0].words) - o[1]) < len(set(h[0].words) - h[1])
            for o in keep
            if o is not h
        )
    ]
    keep = [h for h in keep if not _only_a_qualifier(h, keep, sentence)]
    keep = [h for h in keep if not _head_taken(h, keep, ws, flat)]
    out = [(f.key, rule) for f, _, rule in keep] + _own_name(sentence, book, [h[0] for h in keep])
    return _prefer_not_given(sentence, book, out, given or set())


def _wants(f: Fact) -> set[str]:
    """The want words of a fact's key ('preferred' of 'preferred_date'), which its words leave out."""
    return set(re.split(r"[^a-z]+", f.key.lower())) & WANT_WORDS


_PERSON_NAME = re.compile(rf"\b(?:{lang_alt('asks', 'person_name')})\b", re.I)
_OWN_NAME_WORDS = frozenset(phrases("asks", "own_name_words"))


def _own_name(sentence: str, book: FactBook, named: list[Fact]) -> list[tuple[str, str]]:
    """'Your full name?', 'the name on the booking': a person asked their name gives it whole,
    though the agent said neither 'first' nor 'last'. The caller's own name parts (name facts with
    no other person's word: 'first_name', 'passenger_last_name', not 'dependent_first_name'), when
    the turn names no name fact by its own words."""
    if any("name" in f.words for f in named) or not _PERSON_NAME.search(sentence):
        return []
    own = [f for f in book if "name" in f.words and set(f.words) <= _OWN_NAME_WORDS and len(f.words) > 1]
    return [(f.key, "person_name") for f in own]


def _head_taken(
    h: tuple[Fact, frozenset[str], str], hits: list[tuple[Fact, frozenset[str], str]], ws: set[str], flat: str
) -> bool:
    """A fact the request names only by a head noun ('the six-digit code'), its other words found
    elsewhere in the turn ('Our policy requires ...': rule ``context``), is not asked when the
    request names another fact whole by that head ('the code' is the one-time code): one noun
    names one thing."""
    f, _, rule = h
    if not rule.startswith(CONTEXT):
        return False
    own = {w for w in f.words if has_word(w, ws, flat)}
    return own <= HEADS and any(o is not h and o[2] == "name" and set(o[0].heads) for o in hits)


def _only_a_qualifier(
    h: tuple[Fact, frozenset[str], str], hits: list[tuple[Fact, frozenset[str], str]], sentence: str
) -> bool:
    """'the last name on the reservation': a fact named by its distinctive word alone, no head
    said, where that word only qualifies another fact named whole ('on the reservation', 'to
    verify the booking'), is not asked."""
    f, got, rule = h
    if rule != "distinctive" or got & set(f.heads) or not any(o is not h and o[2] == "name" for o in hits):
        return False
    alts = [a for w in got for a in (w, *SYNONYMS.get(w, ()))]
    said = [m for a in alts for m in re.finditer(rf"\b{re.escape(a)}\w*", sentence, re.I)]
    return bool(said) and all(_QUALIFIER.search(sentence[: m.start()]) for m in said)


_QUALIFIER = re.compile(
    r"\b(on|for|in|from|of|to verify|to find|to look up|to pull up)\s+(the|your|this|that|my)\s+$", re.I
)


def _named_whole(f: Fact, flat: str, sentence: str) -> bool:
    """The request says the fact's name whole, as its words ('your last name') or as its key says it
    with the words a key match leaves out ('your preferred date', 'your first name' where 'first' is
    also read as a number): that names it, whatever the request in hand."""
    said = f"{flat} {' '.join(re.findall(r'[a-z]+', sentence.lower()))} "
    return f" {' '.join(f.words)} " in said or (" " in f.key_phrase and f" {f.key_phrase} " in said)


def _in_hand_head(
    h: tuple[Fact, frozenset[str], str],
    book: FactBook,
    focus: set[str],
    hits: list[tuple[Fact, frozenset[str], str]],
) -> tuple[Fact, frozenset[str], str]:
    """A fact of another request named only by a common modifier and its head ('start_date' in 'the
    building, the date, the start time' for the room booking): the one fact of the request in hand
    with that head ('meeting_date'). Not a fact whose words are said together ('your last name'):
    that names it (the caller calls that before this)."""
    f = h[0]
    if f.key in focus or not f.heads or not set(f.distinctive) <= WEAK_WORDS:
        return h
    taken = {x[0].key for x in hits}
    twins = [o for o in book if o.key in focus and o.key not in taken and set(o.heads) == set(f.heads)]
    return (twins[0], h[1], f"in_hand_head:{f.key}") if len(twins) == 1 else h


# Someone other than the caller: a possessive name ('Rohan's'), a third-person pronoun, a role.
_THIRD_PARTY = re.compile(
    r"\b(?!(?:it|that|what|there|here|let|who|where|how|he|she)'s\b)[a-z]+'s\b|"
    r"\b(their|his|her|new hire|colleague|coworker|spouse|child|dependent)\b",
    re.I,
)


# Key words that name another person ('dependent_date_of_birth', 'colleague_employee_id').
_PERSON_WORDS = {
    *SYNONYMS["dependent"],
    *SYNONYMS["colleague"],
    "family",
    "member",
    "beneficiary",
    "patient",
    "hire",
}


def _prefer_not_given(
    sentence: str, book: FactBook, asked: list[tuple[str, str]], given: set[str]
) -> list[tuple[str, str]]:
    """Asked again for a fact already given, the agent usually means another of the same kind.

    ("Please give me the new team member's employee ID" after the caller gave its own.) Unless
    it says "your ... again", a given fact is replaced by the one not-given fact sharing its head.
    """
    if re.search(r"\b(again|once more|repeat|one more time|slowly|your)\b", sentence, re.I):
        return asked
    third = bool(_THIRD_PARTY.search(sentence))
    out: list[tuple[str, str]] = []
    for key, rule in asked:
        f = book.get(key)
        if f is None:
            out.append((key, rule))
            continue
        # 'her date of birth': the one fact named like this one plus a qualifier ('dependent_date_of_birth');
        # 'the date of birth' after the caller gave its own: the qualified one it has not given
        qualified = [o for o in book if set(o.words) > set(f.words) and o.source == f.source]
        other_person = bool(qualified) and bool((set(qualified[0].words) - set(f.words)) & _PERSON_WORDS)
        if len(qualified) == 1 and (
            third or (key in given and qualified[0].key not in given and other_person)
        ):
            out.append((qualified[0].key, f"{THIRD_PARTY}:{key}"))
            continue
        if key not in given or not third:
            out.append((key, rule))
            continue
        others = [
            o for o in book if o.key not in given and set(o.heads) & set(f.heads) and o.source == f.source
        ]
        out.append((others[0].key, f"not_given_same_head:{key}") if len(others) == 1 else (key, rule))
    return list(dict.fromkeys(out))


# Number words that end fact keys ('phone_last_four', 'ssn_last_4'): never a field word by themselves.
