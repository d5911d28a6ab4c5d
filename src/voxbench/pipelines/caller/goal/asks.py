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

from voxbench.pipelines.caller.goal.cues import COURTESY, HOLD, REQUEST
from voxbench.pipelines.caller.goal.facts import (
    FLUFF_HEADS,
    HEADS,
    SYNONYMS,
    WEAK_WORDS,
    Fact,
    FactBook,
    stem,
)
from voxbench.spoken import compact, is_code, mentions, runs, tokens


def _words(text: str) -> tuple[set[str], str]:
    toks = tokens(text)
    # the words as said too: 'first' / 'second' are also field words ('first name'), not only numbers
    raw = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    ws = {stem(t) for t in toks} | {stem(r) for r in runs(text)} | raw
    return ws, " " + " ".join(toks) + " "


def _has_word(word: str, ws: set[str], flat: str) -> bool:
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
    return s.endswith("?") or (bool(REQUEST.search(s)) and not HOLD.match(s))


def _match(f: Fact, got: frozenset[str]) -> str:
    """The rule by which the matched words ``got`` name fact ``f`` ('' if they do not)."""
    dist = [w for w in f.distinctive if w not in ("choice", "preference")] or list(f.distinctive)
    strong = [w for w in dist if w not in WEAK_WORDS]
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
        return "most_words"
    return ""


def asked_facts(
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
    ws, flat = _words(sentence)
    cws, cflat = _words(f"{context} {sentence}") if context else (ws, flat)
    hits: list[tuple[Fact, frozenset[str], str]] = []
    for f in book:
        got = frozenset(w for w in f.words if _has_word(w, ws, flat))
        rule = _match(f, got)
        repeat = bool(re.search(r"\b(read|repeat|again|once more|spell|slowly)\b", sentence, re.I))
        if not rule and context and (got & set(f.distinctive) or (got and repeat)):
            wider = frozenset(w for w in f.words if _has_word(w, cws, cflat))
            under = _match(f, wider)
            rule = {"": "", "most_words": "context_most_words"}.get(under, "context")
            got = wider if rule else got
        if not rule and focus and f.key in focus and f.heads and set(f.heads) <= got:
            rule = "in_hand" if got & (set(f.distinctive) - WEAK_WORDS) else ""  # 'the effective date'
        if rule:
            hits.append((f, got, rule))
    if focus:  # the same words name a fact of the request in hand and another as well: the one in hand
        hits = [h for h in hits if h[0].key in focus or not any(_in_hand_instead(h, o, focus) for o in hits)]
        hits = [_in_hand_head(h, book, focus, hits) for h in hits]
    # a fact whose matched words are a strict subset of another's is the less specific name, unless
    # that other one left one of its own distinctive words unsaid ('floor' vs 'backup_desk_floor')
    partial = ("most_words", "context_most_words")
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
    out = [(f.key, rule) for f, _, rule in keep]
    return _prefer_not_given(sentence, book, out, given or set())


def _in_hand_instead(
    h: tuple[Fact, frozenset[str], str], o: tuple[Fact, frozenset[str], str], focus: set[str]
) -> bool:
    """Fact ``o`` of the request in hand is named by the same words as ``h``, which is not named
    whole either ('the effective date' in the DEA transfer: 'dea_transfer_effective_date',
    not 'malpractice_effective_date'; 'the facility code' stays 'facility_code', not 'new_facility_code')."""
    return o[0].key in focus and o[1] == h[1] and bool(set(h[0].words) - h[1])


def _in_hand_head(
    h: tuple[Fact, frozenset[str], str],
    book: FactBook,
    focus: set[str],
    hits: list[tuple[Fact, frozenset[str], str]],
) -> tuple[Fact, frozenset[str], str]:
    """A fact of another request named only by a common modifier and its head ('start_date' in 'the
    building, the date, the start time' for the room booking): the one fact of the request in hand
    with that head ('meeting_date')."""
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
            out.append((qualified[0].key, f"third_party:{key}"))
            continue
        if key not in given or not third:
            out.append((key, rule))
            continue
        others = [
            o for o in book if o.key not in given and set(o.heads) & set(f.heads) and o.source == f.source
        ]
        out.append((others[0].key, f"not_given_same_head:{key}") if len(others) == 1 else (key, rule))
    return list(dict.fromkeys(out))


def prefer_heard_digits(text: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """Asked to repeat a number the agent half heard, the caller means the fact holding those digits."""
    heard_runs = [r for r in runs(text) if sum(c.isdigit() for c in r) >= 4]
    if not heard_runs:
        return asked
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
        if f is None or any(r in compact(v) for v in f.values() for r in heard_runs):
            out[k] = rule
            continue
        same = [
            o
            for o in book
            if set(o.heads) & set(f.heads) | (set(o.words) & set(f.words))
            and any(r in compact(v) for v in o.values() for r in heard_runs)
            and not any(mentions(text, v) for v in o.values())
        ]  # fmt: skip  (read back whole: not half heard)
        if len(same) == 1:
            out[same[0].key] = f"heard_digits:{k}"
        else:
            out[k] = rule
    return out


# Number words that end fact keys ('phone_last_four', 'ssn_last_4'): never a field word by themselves.
_NUMBER_TAILS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

_FALLBACK_WORDS = {"backup", "fallback", "alternate", "alternative", "secondary"}
_FALLBACK_CUE = re.compile(
    r"\b(backup|back up|fallback|alternat\w*|second choice|instead|other option)\b", re.I
)


def prefer_fallback(question: str, book: FactBook, asked: dict[str, str], text: str = "") -> dict[str, str]:
    """'Which floor should I try next / instead?', or 'I can check other floors. Which floor first?':
    the caller's fallback fact of that kind ('backup_desk_floor', 'fallback_floor'), when it has
    exactly one. Asked without such a cue, the fallback fact is not what the agent means."""
    cue = re.search(r"\b(next|instead|another|other|else|alternative)\b", question, re.I)
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
        if not (
            cue or (tail and re.search(rf"\b(other|another|different|alternative)\s+{tail}s?\b", text, re.I))
        ):
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
    ws, flat = _words(sentence)
    cws, cflat = _words(f"{context} {sentence}")
    scored: list[tuple[int, str]] = []
    for f in book:
        strong = [w for w in f.distinctive if w not in WEAK_WORDS and w not in ("choice", "preference")]
        if (
            not strong
            or f.source != "information_required"
            or not any(_has_word(w, ws, flat) for w in strong)
        ):
            continue
        if all(_has_word(w, cws, cflat) for w in strong):
            scored.append((len(strong), f.key))
    best = max((n for n, _ in scored), default=0)
    out = [(k, "subject") for n, k in scored if n == best]
    return out if 1 <= len(out) <= 2 else []


def _start_end_pairs(cands: list[Fact]) -> list[list[Fact]]:
    """Facts that come as a start/end pair with the same other words ('pto_start_date', 'pto_end_date')."""
    out: list[list[Fact]] = []
    for f in cands:
        if "start" in f.words:
            rest = [w for w in f.words if w != "start"]
            ends = [o for o in cands if "end" in o.words and [w for w in o.words if w != "end"] == rest]
            if len(ends) == 1:
                out.append([f, ends[0]])
    return out


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
_WANTS = re.compile(
    r"\b(new|like|want|hoping|prefer|need|looking|instead|change (?:it )?to|move (?:it )?to)\b", re.I
)
_CURRENT_KEY = re.compile(r"(?i)(?<![a-z])(original|current|existing|previous|old)(?![a-z])")


def head_fallback(
    sentence: str, book: FactBook, given: set[str], covered: set[str], focus: set[str] | None = None
) -> list[tuple[str, str]]:
    """'the date' / 'what time' alone: the fact(s) with that head noun not given yet (at most two).

    ``covered``: heads already answered by a fact matched by name in the same sentence.
    ``focus``: the facts of the request being handled; among many candidates, those.
    """
    ws, _ = _words(sentence)
    out: list[tuple[str, str]] = []
    for head in sorted(HEADS - FLUFF_HEADS - covered):
        if stem(head) not in ws or re.search(
            rf"\b(those|these|that|the same|same)\s+{head}s?\b|\bat a {head}\b", sentence, re.I
        ):  # 'one at a time' asks for no time
            continue
        with_head = [f for f in book if head in f.heads and f.source == "information_required"]
        # the ones not given yet; asked again when all are given, the same ones again
        cands = [f for f in with_head if f.key not in given] or with_head
        plural_pairs = _start_end_pairs(cands) if re.search(rf"\b{head}s\b", sentence, re.I) else []
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
            pairs = _start_end_pairs(cands)
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
            out += [(f.key, f"head:{head}") for f in cands]
    return out + _tail_fallback(sentence, book, covered, focus)


def _tail_fallback(
    sentence: str, book: FactBook, covered: set[str], focus: set[str] | None
) -> list[tuple[str, str]]:
    """'What building is the laptop in?': the facts whose key ends in a word the request says
    ('dispatch_building', 'delivery_building'), when they hold one value (or the request in hand
    has one of them)."""
    ws, _ = _words(sentence)
    wants = bool(re.search(r"\b(new|like|want|hoping|prefer|need|looking)\b", sentence, re.I))
    out: list[tuple[str, str]] = []
    tails = {f.words[-1] for f in book if len(f.words) >= 2 and f.words[-1] not in HEADS}
    done = {stem(c) for c in covered}
    for tail in sorted(t for t in tails if stem(t) not in done):  # 'facility code' covers 'codes' too
        if stem(tail) not in ws or tail.isdigit() or tail in _NUMBER_TAILS:
            continue  # 'phone_last_four': 'four' in 'two eight four seven' is a digit, not a field word
        cands = [f for f in book if f.words and f.words[-1] == tail and f.source == "information_required"]
        one = _one_per_value(cands)
        if len(one) > 1 and focus:
            one = _one_per_value([f for f in cands if f.key in focus]) or one
        if len(one) > 1:  # 'where is it located' is not 'where would you like it'
            one = _one_per_value([f for f in one if f.wanted == wants]) or one
        if len(one) == 1:
            out.append((one[0].key, f"tail:{tail}"))
    return out


_FIELD = re.compile(r"\s+(number|code|id|i d)\b", re.I)


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
