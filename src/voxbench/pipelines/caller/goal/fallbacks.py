"""Fallbacks for a request that names no fact whole: the head noun alone ('the date'), the subject
of a field the caller lacks ('the shift ID'), the caller's backup fact ('which floor instead?'),
and the fields asked of a fact that it is not ('the flight number' of a route)."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts, has_word, other_head, words_of
from voxbench.pipelines.caller.goal.facts import (
    DROP_WORDS,
    FLUFF_HEADS,
    HEADS,
    SYNONYMS,
    WANT_WORDS,
    WEAK_WORDS,
    Fact,
    FactBook,
    start_end_pairs,
    stem,
)
from voxbench.pipelines.caller.goal.lang import alt as lang_alt
from voxbench.pipelines.caller.goal.lang import phrases as lang_phrases
from voxbench.pipelines.caller.goal.rules import HEAD_TAG
from voxbench.spoken import compact, is_code


def _a(name: str) -> str:
    return lang_alt("fallbacks", name)


_OBJECT_LEAD = re.compile(rf"\b(?:{lang_alt('facts', 'object_lead')})\s+", re.I)
_ITEM_SPLIT = re.compile(rf",\s*(?:(?:{_a('item_join')})\s+)?|\s+(?:{_a('item_join')})\s+", re.I)
_ITEM_END = re.compile(rf"[?.!:;]|\s(?:{_a('item_end')})\s", re.I)
_DETERMINERS = set(lang_phrases("fallbacks", "determiners"))
_FREE_HEADS = set(lang_phrases("facts", "free_heads"))


def unknown_head(sentence: str, book: FactBook, taken: set[str]) -> list[tuple[str, str]]:
    """An item of a request named by a fact's distinctive word and a head noun the caller does not
    know ('the transfer justification', and 'the transfer reason' is its fact): the one fact with
    that word, not named by another item, whose head is a free-text one ('reason', 'type'), not a
    value kind the agent would have said ('date', 'number', 'code'). A synonym table cannot list
    every word an agent may use for a field; the fact's own words and its value kind can."""
    m = _OBJECT_LEAD.search(sentence)
    if m is None:
        return []
    rest = _ITEM_END.split(sentence[m.end() :])[0]
    known = {stem(w) for f in book for w in f.words} | {stem(h) for h in HEADS}
    out: list[tuple[str, str]] = []
    for item in _ITEM_SPLIT.split(rest):
        ws = [w for w in re.findall(r"[a-z]+", item.lower()) if w not in _DETERMINERS]
        if not 2 <= len(ws) <= 3 or len(ws[-1]) < 4 or stem(ws[-1]) in known or asked_facts(item, book):
            continue
        mods = {stem(w) for w in ws[:-1]}
        cands = [f for f in book if f.key not in taken and f.heads and set(f.heads) <= _FREE_HEADS
                 and mods <= {stem(w) for w in f.distinctive}]  # fmt: skip
        if len(cands) == 1:
            out.append((cands[0].key, f"unknown_head:{ws[-1]}"))
    return out


_NUMBER_TAILS = set(lang_phrases("fallbacks", "number_tails"))

_FALLBACK_WORDS = set(lang_phrases("fallbacks", "fallback_words"))
_FALLBACK_CUE = re.compile(rf"\b({_a('fallback_cue')})\b", re.I)
_NEXT_CUE = re.compile(rf"\b({_a('next_cue')})\b", re.I)
_OTHER_CUE = _a("other_cue")
_PREFERENCE = frozenset(lang_phrases("fallbacks", "preference"))


def prefer_fallback(question: str, book: FactBook, asked: dict[str, str], text: str = "") -> dict[str, str]:
    """'Which floor should I try next / instead?', or 'I can check other floors. Which floor first?':
    the caller's fallback fact of that kind ('backup_desk_floor', 'fallback_floor'), when it has
    exactly one. Asked without such a cue, the fallback fact is not what the agent means."""
    cue = _NEXT_CUE.search(question)
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
        if f is not None and set(f.words) & _FALLBACK_WORDS and not cue and not _FALLBACK_CUE.search(text):
            twins = [o for o in book if o.key != k and o.words and o.words[-1] == f.words[-1]
                     and not set(o.words) & _FALLBACK_WORDS]  # fmt: skip
            if len(twins) == 1:  # 'What building and floor would you prefer?' means the first choice
                out[twins[0].key] = f"not_fallback:{k}"
                continue
        tail = f.words[-1] if f is not None and f.words else ""
        if not (cue or (tail and re.search(rf"\b({_OTHER_CUE})\s+{tail}s?\b", text, re.I))):
            out[k] = rule
            continue
        twins = [
            o
            for o in book
            if f is not None and o.key != k and o.words and f.words and o.words[-1] == f.words[-1]
            and set(o.words) & _FALLBACK_WORDS and not set(f.words) & _FALLBACK_WORDS
        ]  # fmt: skip
        if len(twins) == 1:
            out[twins[0].key] = f"fallback:{k}"
        else:
            out[k] = rule
    return out


def subject_fallback(sentence: str, book: FactBook, context: str = "") -> list[tuple[str, str]]:
    """'What is the shift ID?' with no shift ID among the facts: the (at most two) facts about the shift;
    with the rest of the turn naming which shift ('Let's start with the payroll problem'), that one's."""
    ws, flat = words_of(sentence)
    cws, cflat = words_of(f"{context} {sentence}")
    scored: list[tuple[int, str]] = []
    for f in book:
        strong = [w for w in f.distinctive if w not in WEAK_WORDS and w not in _PREFERENCE]
        if not strong or f.source != "information_required" or not any(has_word(w, ws, flat) for w in strong):
            continue
        if _PREFERENCE & set(f.words) and other_head(f, flat):
            continue  # 'the desk code' is no desk preference: what it wants identifies nothing
        if all(has_word(w, cws, cflat) for w in strong):
            scored.append((len(strong), f.key))
    best = max((n for n, _ in scored), default=0)
    out = [(k, "subject") for n, k in scored if n == best]
    return out if 1 <= len(out) <= 2 else []


def _one_per_value(cands: list[Fact]) -> list[Fact]:
    """Facts that hold the same value are one answer ('what building is the laptop in?' with the
    dispatch and the delivery building both Headquarters)."""
    seen: set[str] = set()
    out: list[Fact] = []
    for f in cands:
        v = compact(" ".join(f.values()))
        if v not in seen:
            seen.add(v)
            out.append(f)
    return out


# A request for what the caller wants, and the keys of what it has now ('original_travel_details').
_WANTS = re.compile(rf"\b({_a('wants_tail')}|{_a('wants_change')})\b", re.I)
_WANTS_TAIL = re.compile(rf"\b({_a('wants_tail')})\b", re.I)
_CURRENT_KEY = re.compile(rf"(?i)(?<![a-z])({_a('current_key')})(?![a-z])")
_POINTED, _AT_A = _a("pointed"), _a("at_a")
_HEAD_OF, _HEAD_OF_DETERMINER = _a("head_of"), _a("head_of_determiner")


def head_fallback(
    sentence: str,
    book: FactBook,
    given: set[str],
    covered: set[str],
    focus: set[str] | None = None,
    aside: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """'the date' / 'what time' alone: the fact(s) with that head noun not given yet (at most two).

    ``covered``: heads already answered by a fact matched by name in the same sentence.
    ``focus``: the facts of the request being handled; among many candidates, those.
    ``aside``: the facts of requests done (:mod:`.belong`): a kind alone is not theirs while
    another request holds one of it.
    """
    ws, _ = words_of(_without_phrases(sentence, book))
    out: list[tuple[str, str]] = []
    for head in sorted(HEADS - FLUFF_HEADS - covered):
        if stem(head) not in ws or re.search(
            rf"\b({_POINTED})\s+{head}s?\b|\b(?:{_AT_A}) {head}\b", sentence, re.I
        ):  # 'one at a time' asks for no time
            continue
        if covered and _other_field(sentence, head, book):  # 'your meeting date and your first name'
            continue
        with_head = _not_aside(
            [f for f in book if head in f.heads and f.source == "information_required"], aside
        )
        if re.search(rf"\b{head}s?\s+(?:{_HEAD_OF})\s+(?:{_HEAD_OF_DETERMINER})\b", sentence, re.I):
            # 'the date for your follow-up appointment' says what the date is of: not a fact whose own
            # qualifier ('birth') it leaves unsaid; one with none, or with one said, fits
            with_head = [f for f in with_head if not f.distinctive or set(f.distinctive) & ws] or with_head
        # the ones not given yet; asked again when all are given, the same ones again
        cands = [f for f in with_head if f.key not in given] or with_head
        plural_pairs = start_end_pairs(cands) if re.search(rf"\b{head}s\b", sentence, re.I) else []
        if len(plural_pairs) > 1 and focus:
            plural_pairs = [p for p in plural_pairs if p[0].key in focus] or plural_pairs
        if len(plural_pairs) == 1:  # 'what dates': a start and an end
            out += [(f.key, f"head_pair:{head}") for f in plural_pairs[0]]
            continue
        if _WANTS.search(sentence):  # 'What date would you like instead?': not what it has now
            cands = [f for f in cands if not _CURRENT_KEY.search(f.key)]
            if len(cands) > 1:
                cands = [f for f in cands if f.wanted] or cands
        if len(cands) > 2:  # the ones the turn names ('your PTO dates'), else a start/end pair for a plural
            named = [
                f for f in cands if set(f.distinctive) - WEAK_WORDS and set(f.distinctive) - WEAK_WORDS <= ws
            ]
            pairs = start_end_pairs(cands)
            if len(pairs) > 1 and focus:
                pairs = [p for p in pairs if p[0].key in focus] or pairs
            mine = [f for f in cands if f.key in (focus or set())]
            cands = (
                named
                if 1 <= len(named) <= 2
                else (pairs[0] if len(pairs) == 1 else (mine if 1 <= len(mine) <= 2 else cands))
            )
        elif len(cands) == 2 and focus and len([f for f in cands if f.key in focus]) == 1:
            cands = [f for f in cands if f.key in focus]  # 'the date' of the request in hand
        cands = _one_per_value(cands)
        if 1 <= len(cands) <= 2:
            out += [(f.key, f"{HEAD_TAG}{head}") for f in cands]
    return out + _tail_fallback(sentence, book, covered, focus, aside)


_KNOWN_MODIFIERS = (
    DROP_WORDS | WANT_WORDS | WEAK_WORDS | _DETERMINERS | set(lang_phrases("fallbacks", "wh_modifiers"))
)


def _other_field(sentence: str, head: str, book: FactBook) -> bool:
    """In a request that names another of the caller's facts by its words ('What is your meeting
    date and your first name?'), a head noun each time said after a word that none of the caller's
    facts has ('meeting'): it names a field of its own, which the caller lacks; not one of its facts
    of that head ('effective date'), as the head alone would ('What's the date?'). Agents naming
    one field precisely name the others so too."""
    known = {stem(w) for f in book for w in f.words} | {stem(w) for w in _KNOWN_MODIFIERS}
    before = re.findall(rf"\b([a-z]+)\s+{head}s?\b", sentence.lower())
    return bool(before) and all(stem(w) not in known and not w.isdigit() for w in before)


def _without_phrases(sentence: str, book: FactBook) -> str:
    """The sentence without the phrases that say one of the caller's key words ('paid time off'
    for 'pto', 'one time' for 'otp'): their words ('time') name that word, no fact by its head."""
    phrases = {alt for f in book for w in f.words for alt in SYNONYMS.get(w, ()) if " " in alt}
    for alt in sorted(phrases, key=len, reverse=True):
        sentence = re.sub(rf"\b{re.escape(alt)}\b", " ", sentence, flags=re.I)
    return sentence


def _not_aside(cands: list[Fact], aside: frozenset[str]) -> list[Fact]:
    """The candidates not of a request done, if any is; else all of them (:mod:`.scoped` decides)."""
    return [f for f in cands if f.key not in aside] or cands


def _tail_fallback(
    sentence: str,
    book: FactBook,
    covered: set[str],
    focus: set[str] | None,
    aside: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """'What building is the laptop in?': the facts whose key ends in a word the request says
    ('dispatch_building', 'delivery_building'), when they hold one value (or the request in hand
    has one of them)."""
    ws, _ = words_of(sentence)
    wants = bool(_WANTS_TAIL.search(sentence))
    out: list[tuple[str, str]] = []
    tails = {f.words[-1] for f in book if len(f.words) >= 2 and f.words[-1] not in HEADS}
    done = {stem(c) for c in covered}
    for tail in sorted(t for t in tails if stem(t) not in done):  # 'facility code' covers 'codes' too
        if stem(tail) not in ws or tail.isdigit() or tail in _NUMBER_TAILS:
            continue  # 'phone_last_four': 'four' in 'two eight four seven' is a digit, not a field word
        cands = _not_aside(
            [f for f in book if f.words and f.words[-1] == tail and f.source == "information_required"], aside
        )
        one = _one_per_value(cands)
        if len(one) > 1 and focus:
            one = _one_per_value([f for f in cands if f.key in focus]) or one
        if len(one) > 1:  # 'where is it located' is not 'where would you like it'
            one = _one_per_value([f for f in one if f.wanted == wants]) or one
        if len(one) == 1:
            out.append((one[0].key, f"tail:{tail}"))
    return out


_FIELD = re.compile(rf"\s+({_a('field')})\b", re.I)


def lacking_fields(requests: list[str], book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """Asked facts the agent names as a field they are not: 'Could you please provide the flight
    number?' matched 'Flight: today to Denver' by its word, and the caller answered 'The flight is
    today to Denver.' three times (live bb.3, make run at b10e13d). A number, code or ID that the
    fact's key does not name, asked of a value with no digit that is no code, is a field the
    caller does not have: fact key -> the field as the agent said it ('flight number'). Not when the
    request names the fact's word another way too ('the building code or building name')."""
    out: dict[str, str] = {}
    for k in asked:
        f = book.get(k)
        if f is None or not f.words or not isinstance(f.value, str):
            continue
        if re.search(r"\d", f.value) or is_code(f.value):
            continue
        word = re.escape(f.words[-1])
        for s in requests:
            said = list(re.finditer(rf"\b({word}s?)\b(" + _FIELD.pattern + ")?", s, re.I))
            head = said[0].group(3).lower().replace(" ", "") if said and said[0].group(3) else ""
            if head and head not in f.words and all(m.group(2) for m in said):
                out[k] = f"{said[0].group(1).lower()} {'ID' if head == 'id' else head}"
                break
    return out
