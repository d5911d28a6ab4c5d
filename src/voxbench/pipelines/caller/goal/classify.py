"""What did the agent just say? A deterministic classifier of one agent turn, from the caller's side.

An agent turn is usually several things at once ("You're verified. What's the new hire's
employee ID?": a completed step and a request), so :func:`classify` returns every kind it
finds in a :class:`Heard`, with the caller's facts the agent asked for, the facts it read
back (right or wrong), the options it offered and the name of each rule that fired. The
policy decides from that; the record keeps the rule names.

Fact requests are matched by the words of the scenario's own fact keys (see
:mod:`~voxbench.pipelines.caller.goal.facts`), in request sentences only: a question, or an
imperative such as "Please give me your employee I D". Everything else is a handful of
phrase patterns a customer-service agent uses in any domain. An optional
:class:`ChoiceClassifier` (an LLM constrained to a list of choices built from the
scenario) can be asked which fact a request means when the words find none; it is off
unless injected.
"""

from __future__ import annotations

import re
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from voxbench.pipelines.caller.goal.facts import (
    FLUFF_HEADS,
    HEADS,
    SYNONYMS,
    WEAK_WORDS,
    Fact,
    FactBook,
    stem,
)
from voxbench.pipelines.caller.goal.spoken import compact, is_code, mentions, runs, sentences_of, tokens

Kind = Literal[
    "request",
    "readback",
    "confirm_question",
    "options",
    "hold",
    "completed",
    "transfer_offer",
    "transfer",
    "goodbye",
    "anything_else",
    "denial",
    "troubleshoot",
    "open_question",
    "question",
    "statement",
]


class Heard(BaseModel):
    """One agent turn as the caller understood it."""

    kinds: list[Kind] = Field(default_factory=list)
    asked: list[str] = Field(default_factory=list, description="fact keys the agent asked for")
    readback_ok: list[str] = Field(
        default_factory=list, description="fact keys read back as the caller has them"
    )
    readback_wrong: list[str] = Field(
        default_factory=list, description="fact keys read back with another value"
    )
    options: list[str] = Field(default_factory=list)
    question: str = ""
    rules: list[str] = Field(default_factory=list)

    def has(self, kind: Kind) -> bool:
        return kind in self.kinds


class ChoiceClassifier(Protocol):
    """A classifier that only picks among given choices (e.g. an LLM under a grammar).

    ``choose`` returns the index of the chosen item of ``choices`` (or ``None``); it never
    produces words for the caller to say.
    """

    name: str

    def choose(self, question: str, choices: list[str]) -> int | None: ...


sentences = sentences_of


_REQUEST = re.compile(
    r"^(?:[^,]{1,24},\s*)?(please|kindly|can you|could you|would you|will you|may i|can i (get|have)|tell me|give me|"
    r"provide|read me|spell|say|let me know|i('ll| will)? ?need|i also need|next,? i need|now,? i need|"
    r"what('s| is| are)|which|and (your|the)|also,? (your|the)|go ahead and)\b"
    r"|\bi('ll| will)? (also )?need (the|your|a few|two|some|to know|to get|to have)\b",
    re.IGNORECASE,
)
_HOLD = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|alright|all right|great|perfect|got it|thanks?|thank you|certainly|of course|"
    r"understood)[,!.]*\s*)*(?:please\s+)?(?:hold(?: on)?|wait(?: (?:a|one|just a) (?:moment|second|sec|minute))?|"
    r"(?:one|a|just a|give me a) "
    r"(?:moment|second|sec|minute)|let me (?:check|look|see|pull|find|verify|confirm|search|review|get|take)\b.*|"
    r"i(?:'ll|\s+will|'m going to)\s+(?:check|look|pull|search|review|verify|go ahead)\b.*|bear with me)"
    r"(?:[,\s]+(?:please|for you|for me|now|on that|on this))*[.!]*$",
    re.IGNORECASE,
)
_TRANSFER_NOW = re.compile(
    r"\btransferring you\b|\bi('m| am) (now )?transferring\b|\bi('ve| have) transferred you\b|\bconnecting you (to|with)\b|"
    r"stay on the line for (the|a) (live )?(agent|specialist)|\bi('ve| have) (initiated|started) (the|a) transfer\b",
    re.IGNORECASE,
)
_TRANSFER_OFFER = re.compile(
    r"\btransfer you\b|\b(live|human) (agent|specialist|representative|person|hr)\b|\bsupervisor\b|\bescalat",
    re.IGNORECASE,
)
_GOODBYE = re.compile(
    r"\b(goodbye|good bye|bye|have a (great|good|nice|wonderful) (day|evening|trip|flight))\b", re.I
)
_ANYTHING_ELSE = re.compile(
    r"anything else|something else (i can|to) help|any other (question|request|thing)|help you with anything|"
    r"else (i|we) can (help|do)",
    re.IGNORECASE,
)
_DONE_VERB = (
    r"(submitted|processed|updated|booked|changed|rebooked|moved|cancel+ed|issued|created|registered|scheduled|"
    r"restored|reactivated|added|placed|opened|unlocked|approved|reset|logged|completed|filed|recorded|"
    r"assigned|extended|transferred|refunded|reinstated|provisioned|granted|removed|corrected|saved|enrolled|renewed)"
)
_COMPLETED = re.compile(
    rf"\b(you('| a)re all set|all set|all done|it('s| is) done|^done\b|^{_DONE_VERB}[;:,.!]|"
    rf"everything is (complete|confirmed|done)|"
    rf"(has|have) (now )?been (successfully )?{_DONE_VERB}|(is|are) (now )?(successfully )?{_DONE_VERB}|"
    rf"i('ve| have) (successfully )?(also )?{_DONE_VERB}|i {_DONE_VERB}\b|successfully|you('re| are) (now )?"
    rf"(confirmed|booked|registered|on (the )?(standby|waitlist))|your (\w+ )?(request|case|ticket|booking|"
    rf"confirmation|reference|registration|waitlist) (number|id|code)s? (is|are)|you('re| are) back in)",
    re.IGNORECASE,
)
# A completion verb under a negation or a condition is not a completion ("cannot be submitted",
# "has to wait until that record is updated").
_NOT_DONE = re.compile(
    r"\b(not|cannot|can't|can’t|unable|won't|won’t|until|once|if|unless|before|after|will be)\b", re.I
)
_NEXT_STEP = re.compile(
    r"\b(now (for|let'?s|let’s|we('ll| will)|on to|to)|next,|let(')?s (do|move|start|turn|handle|take care)|moving on)\b",
    re.I,
)
_DENIAL = re.compile(
    r"\b(can('|no)?t|cannot|unable to|not able to|not allowed|(is|are)n('|o)t (eligible|available|allowed|"
    r"possible)|not eligible|not possible|no (seats?|rooms?|desks?|slots?|availability|options?|flights?)\b|"
    r"not finding|couldn('|o)t find|could not find|unfortunately|doesn('|o no)t (qualify|match)|is blocked|"
    r"not authorized|won('|o)t be able|don('|o no)t see (a|any)|there (are|is) no|does not match|"
    r"do not have (a|any)|no record|no matching|isn('|o)t something i can)",
    re.IGNORECASE,
)
_CONFIRM_Q = re.compile(
    r"^(is that|is this|is it|are those|are these|does that|does this|did i|have i|can you confirm|please confirm|"
    r"to confirm|shall i|should i|do you want me to|would you like me to|do i have your|can i go ahead|"
    r"is it (ok|okay|alright)|ok(ay)? to|do you approve|do you authorize|are you (ok|okay|fine|happy) with|"
    r"may i (go ahead|proceed|submit|book|place|process)|would you like (to (proceed|go ahead|confirm|keep|book))|"
    r"ready for me to|does everything|want me to|sound good|is everything|shall we|just to confirm|"
    r"do you want (to )?(proceed|go ahead|keep)|do you want to (assign|add|book|cancel|renew|submit|change|update|unlock|reset)\b|would you like that|do you still want|is that (still )?what)"
    r"|\b(correct|right|accurate)\s*\?$|\bplease say yes\b|\bconfirm (that )?you want\b|\bto proceed\b.*\?$"
    r"|^(?!(what|which|how|where|when|who|why|spell|say|read)\b)[a-z]+ (it|that|this|them)\b[^?]{0,30}\?$",
    re.IGNORECASE,
)
_OPEN_Q = re.compile(
    r"how (can|may|might) i (help|assist)|what can i (do|help)|what (do you need|would you like|brings you|"
    r"can i do)|how can i help|what (\w+ ){0,3}(do you need|are you calling|would you like help)|"
    r"what('s| is) the (reason|issue|problem)|what seems to be|tell me (more )?about (the|your) (issue|problem)|"
    r"what (are|is|'s) (the|your) .{0,40}\b(requests?|issues?|things?|updates?|needs?|changes?|items?)\b|"
    r"\b(second|next|other|another|third|fourth|fifth|last|remaining) (\w+ ){0,2}(request|thing|issue|item|update|change|one|question)s?\b.*\?|"
    r"what .{0,30}\bcan i (help|assist)( you)? with|"
    r"what('s| is) (the|your) (first|next|second|third|fourth|fifth|other|last|remaining) (\w+ ){0,2}"
    r"(thing|request|item|issue|question|task|one)s?\b|"
    r"what (\w+ ){0,3}would you like (help with|to (take care of|handle|do|start with|work on|address|cover))\b",
    re.IGNORECASE,
)
_STEP = re.compile(
    r"\b(try|restart|reboot|check|make sure|forget|reconnect|disconnect|clear|sign (in|out)|log (in|out)|run|"
    r"reset|close|reopen|update|turn (off|on)|unplug|plug|confirm you('re| are) entering|verify that)\b",
    re.IGNORECASE,
)
_OUTCOME_Q = re.compile(
    r"(is it working|is that working|did (that|it|this) (fix|resolve|work|help|clear)|does (that|it|this) "
    r"(fix|resolve|work)|(let me|tell me) (know )?(if|whether|when|once)|has that (fixed|resolved)|"
    r"is the (\w+ )?(stable|working)|are you (able|still)|still (happening|not working|having)|"
    r"did (that|it|this) change anything|(is|was) (the issue|the problem|it|that) (now )?(resolved|fixed)|"
    r"does (the|your) (external )?(\w+ )?(work|connect|turn on|power on)\b)",
    re.IGNORECASE,
)


# Words that name a piece of information (an LLM is asked which fact only for such a request).
_INFO_NOUN = re.compile(
    r"\b(number|id|i d|code|name|date|dates|address|email|e mail|phone|time|zip|birth|pin|passcode|"
    r"amount|account|reference|type|size|floor|building|location)\b",
    re.I,
)
# The agent sent the caller a one-time code: the caller reads it out next.
_SENT_CODE = re.compile(
    r"\b(i('ve| have)? (just )?(sent|texted)|i('m| am) (now )?sending|we('ve| have)? sent)\b.{0,40}\b(code|passcode)\b",
    re.I,
)
_WH = re.compile(r"(what|which|how|where|when|who|why|whose)\b", re.I)
_READBACK_CUE = re.compile(
    r"\b(let me read (that|it) back|i heard|to confirm|just to confirm|i have (you down|you as|your))\b", re.I
)


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
    s = sentence.strip()
    return s.endswith("?") or (bool(_REQUEST.search(s)) and not _HOLD.match(s))


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
    sentence: str, book: FactBook, given: set[str] | None = None, context: str = ""
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
            rule = _match(f, wider) and "context"
            got = wider if rule else got
        if rule:
            hits.append((f, got, rule))
    # a fact whose matched words are a strict subset of another's is the less specific name
    # a fact whose matched words are a strict subset of another's is the less specific name, unless
    # that other one left one of its own distinctive words unsaid ('floor' vs 'backup_desk_floor')
    keep = [h for h in hits if not any(h[1] < o[1] and o[2] != "most_words" for o in hits if o is not h)]
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


# Someone other than the caller: a possessive name ('Rohan's'), a third-person pronoun, a role.
_THIRD_PARTY = re.compile(
    r"\b(?!(?:it|that|what|there|here|let|who|where|how|he|she)'s\b)[a-z]+'s\b|"
    r"\b(their|his|her|new hire|colleague|coworker|spouse|child|dependent)\b",
    re.I,
)


def _prefer_not_given(
    sentence: str, book: FactBook, asked: list[tuple[str, str]], given: set[str]
) -> list[tuple[str, str]]:
    """Asked again for a fact already given, the agent usually means another of the same kind.

    ("Please give me the new team member's employee ID" after the caller gave its own.) Unless
    it says "your ... again", a given fact is replaced by the one not-given fact sharing its head.
    """
    if re.search(r"\b(again|once more|repeat|one more time|slowly|your)\b", sentence, re.I):
        return asked
    if not _THIRD_PARTY.search(sentence):
        return asked
    out: list[tuple[str, str]] = []
    for key, rule in asked:
        f = book.get(key)
        if f is None:
            out.append((key, rule))
            continue
        # 'her date of birth': the one fact named like this one plus a qualifier ('dependent_date_of_birth')
        qualified = [o for o in book if set(o.words) > set(f.words) and o.source == f.source]
        if len(qualified) == 1:
            out.append((qualified[0].key, f"third_party:{key}"))
            continue
        if key not in given:
            out.append((key, rule))
            continue
        others = [
            o for o in book if o.key not in given and set(o.heads) & set(f.heads) and o.source == f.source
        ]
        out.append((others[0].key, f"not_given_same_head:{key}") if len(others) == 1 else (key, rule))
    return list(dict.fromkeys(out))


def _prefer_heard_digits(text: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
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
        same = [o for o in book if set(o.heads) & set(f.heads) | (set(o.words) & set(f.words))
                and any(r in compact(v) for v in o.values() for r in heard_runs)]  # fmt: skip
        if len(same) == 1:
            out[same[0].key] = f"heard_digits:{k}"
        else:
            out[k] = rule
    return out


_FALLBACK_WORDS = {"backup", "fallback", "alternate", "alternative", "secondary"}


def _prefer_fallback(question: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """'Which floor should I try next / instead?': the caller's fallback fact of that kind
    ('backup_desk_floor', 'fallback_floor'), when it has exactly one."""
    if not re.search(r"\b(next|instead|another|other|else|alternative)\b", question, re.I):
        return asked
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
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


def subject_fallback(sentence: str, book: FactBook) -> list[tuple[str, str]]:
    """'What is the shift ID?' with no shift ID among the facts: the (at most two) facts about the shift."""
    ws, flat = _words(sentence)
    out: list[tuple[str, str]] = []
    for f in book:
        strong = [w for w in f.distinctive if w not in WEAK_WORDS and w not in ("choice", "preference")]
        if strong and all(_has_word(w, ws, flat) for w in strong) and f.source == "information_required":
            out.append((f.key, "subject"))
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
            rf"\b(those|these|that|the same|same)\s+{head}s?\b", sentence, re.I
        ):
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
        if len(cands) > 1 and re.search(r"\b(new|like|want|hoping|prefer|need|looking)\b", sentence, re.I):
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
        if 1 <= len(cands) <= 2:
            out += [(f.key, f"head:{head}") for f in cands]
    return out


def readbacks(text: str, book: FactBook) -> tuple[list[str], list[str]]:
    """Facts the agent said back: with the caller's value, or with a near miss of it."""
    ok: list[str] = []
    wrong: list[str] = []
    rs = [r for r in runs(text) if any(c.isdigit() for c in r) and len(r) >= 3]
    for f in book:
        if not f.matchable:
            continue
        vals = f.values()
        if any(mentions(text, v) for v in vals):
            ok.append(f.key)
            continue
        for v in vals:
            c = compact(v)
            if sum(ch.isdigit() for ch in c) >= 7 and any(len(r) == 4 and c.endswith(r) for r in rs):
                ok.append(f.key)  # "the phone ending in four eight two nine"
                break
            if len(c) >= 4 and is_code(v) and any(ch.isdigit() for ch in c):
                near = [  # same length, one or two characters off: a mishearing, not another code
                    r
                    for r in rs
                    if len(r) == len(c)
                    and sum(a != b for a, b in zip(r, c, strict=True)) <= min(2, len(c) // 3)
                ]
                if near:
                    wrong.append(f.key)
                    break
    return ok, wrong


_LEAD = re.compile(
    r"^(?:.*?\b(?:would you (?:still )?(?:like|prefer|want)|do you (?:want|need|prefer)|should i|shall i|"
    r"is it|is this|is that|are you|did you want|can i)\b\s*(?:to\s+)?(?:me to\s+)?)",
    re.I,
)
_OFFER_ITEM = re.compile(r"\b(am|pm|dollars?|noon)\b")
_NOT_AN_OFFER = re.compile(r"\b(current(ly)?|original|existing|previous|because|so the|since)\b", re.I)


def _options(sents: list[str], question: str) -> list[str]:
    """The alternatives an agent offered: 'window or aisle?', or the items listed before 'Which one?'."""
    q = question.rstrip("?").strip()
    if ":" in q:
        q = q.split(":", 1)[1]
    if re.search(r"\bor\b", q, re.I):
        parts = [p.strip(" ,.") for p in re.split(r",\s*(?:or\s+)?|\s+or\s+", q) if p.strip(" ,.")]
        if len(parts) >= 3 and (
            re.match(r"(what|which|how|where|when|who)\b", parts[0], re.I) or len(parts[0].split()) == 1
        ):
            parts = parts[1:]  # 'What would you like to handle first, A or B' / 'Next, A or B'
        parts = [_LEAD.sub("", p).strip(" ,.") for p in parts]
        parts = [p for p in parts if p and len(p.split()) <= 12]
        if len(parts) >= 2:
            return parts
    listed: list[str] = []
    if not re.search(r"\b(which|what option|prefer|choose|one would you|like me to book)\b", question, re.I):
        return []
    for s in sents:
        if s == question:
            break
        items = [
            p.strip(" ,.")
            for p in re.split(r",\s*(?:and\s+)?(?=(?:an?|one|the|option|flight)\b)|;\s*|\band (?=an?\b)", s)
            if p.strip()
        ]
        for it in items:
            if _OFFER_ITEM.search(" ".join(tokens(it))) and not _NOT_AN_OFFER.search(it):
                listed.append(re.sub(r"^(there (is|are)|i (found|have)|we have)\s+", "", it, flags=re.I))
    return listed if len(listed) >= 2 else []


def classify(
    text: str,
    book: FactBook,
    given: set[str] | None = None,
    hook: ChoiceClassifier | None = None,
    focus: set[str] | None = None,
) -> Heard:
    """Classify one agent turn against the caller's facts (``given``: keys already disclosed;
    ``focus``: the facts of the request in hand, to tell apart 'the dates' of two requests)."""
    given = given or set()
    text = text.replace("’", "'").replace("‘", "'")
    sents = sentences(text)
    heard = Heard()
    rules = heard.rules
    questions = [s for s in sents if s.endswith("?")]
    requests = [s for s in sents if is_request(s)]
    heard.question = (questions or requests or [""])[-1]
    if sents and _HOLD.match(sents[-1]) and not questions:
        heard.kinds.append("hold")
        rules.append("hold_phrase")
    if _TRANSFER_NOW.search(text):
        heard.kinds.append("transfer")
        rules.append("transfer_now")
    elif any(_TRANSFER_OFFER.search(s) for s in sents):
        heard.kinds.append("transfer_offer")
        rules.append("transfer_offer")
    if any(_ANYTHING_ELSE.search(s) for s in questions):
        heard.kinds.append("anything_else")
        rules.append("anything_else")
    if _GOODBYE.search(text) and not questions:
        heard.kinds.append("goodbye")
        rules.append("goodbye")
    statements = [s for s in sents if not s.endswith("?")]
    if any(_COMPLETED.search(s) and not _NOT_DONE.search(s) for s in statements):
        heard.kinds.append("completed")
        rules.append("completed_phrase")
    if any(_DENIAL.search(s) for s in statements):
        heard.kinds.append("denial")
        rules.append("denial_phrase")
    asked: dict[str, str] = {}
    for s in requests:
        if _CONFIRM_Q.search(s) and not re.search(r"\b(give|tell|provide|read|spell|what|which)\b", s, re.I):
            continue
        context = " ".join(x for x in sents if x != s)
        found = asked_facts(s, book, given=given, context=context)
        for key, rule in found:
            asked.setdefault(key, rule)
        if not _OPEN_Q.search(s):
            covered = {h for k, _ in found if (f := book.get(k)) for h in f.heads}
            for key, rule in head_fallback(s, book, given | set(asked), covered, focus):
                asked.setdefault(key, rule)
        if (
            not found
            and not asked
            and not _OPEN_Q.search(s)
            and re.search(r"\b(id|number|code|name)\b", s, re.I)
        ):
            for key, rule in subject_fallback(s, book):
                asked.setdefault(key, rule)
    # unsure: a question or request for some piece of information that names none of the facts
    # by their words, in a turn that is nothing else the rules know (not a hold, "anything
    # else?", a completion, a transfer or a goodbye)
    known = {"hold", "transfer", "transfer_offer", "anything_else", "goodbye", "completed"}
    unsure = (
        [
            s
            for s in requests
            if (
                (re.match(r"(what|which|who|where|when)\b", s, re.I) and s.endswith("?"))
                or _REQUEST.search(s)
            )
            and _INFO_NOUN.search(s)
            and not _OPEN_Q.search(s)
            and not _CONFIRM_Q.search(s)
        ]
        if not set(heard.kinds) & known
        else []
    )
    if not asked and any(_SENT_CODE.search(s) for s in sents):
        for f in book:
            if set(f.words) & {"otp", "passcode", "verification", "security"} or re.search(
                r"otp", f.key, re.I
            ):
                asked.setdefault(f.key, "sent_code")
    if not asked and hook is not None and unsure:
        # unsure: a request that names none of the facts by their words; the LLM picks one or none
        choices = [" ".join(f.words) or f.key for f in book] + [
            "none of these (not a request for one of them)"
        ]
        prompt = (
            f'The agent said: "{" ".join(unsure)}"\nWhich piece of the caller\'s information does it ask for?'
        )
        i = hook.choose(prompt, choices)
        if i is not None and 0 <= i < len(book.facts):
            asked[book.facts[i].key] = f"llm:{hook.name}"
    # a fact whose value the agent just said is not asked for ("forget the network called CorpNet"),
    # unless it said it as one of the choices ("The category can be your own condition, a family
    # member's serious illness, or bonding")
    choices = [x for x in sents if re.search(r"\b(or|either|can be|options are)\b", x, re.I)]
    asked = {
        k: r
        for k, r in asked.items()
        if not (
            (f := book.get(k))
            and f.matchable
            and any(mentions(text, v) for v in f.values())
            and not any(mentions(c, v) for c in choices for v in f.values())
        )
    }
    asked = _prefer_heard_digits(text, book, asked)
    asked = _prefer_fallback(heard.question, book, asked)
    if asked:
        heard.kinds.append("request")
        heard.asked = list(asked)
        rules += [f"ask:{k}:{r}" for k, r in asked.items()]
    ok, wrong = readbacks(" ".join(statements + [q for q in questions if _CONFIRM_Q.search(q)]), book)
    # 'Just today, May twenty-first?': a short question with no wh-word that reads a fact back
    elliptic = " ".join(q for q in questions if len(q.split()) <= 6 and not _WH.match(q))
    read_in_q = [k for k in (readbacks(elliptic, book)[0] if elliptic else []) if k not in asked]
    ok += [k for k in read_in_q if k not in ok]
    heard.readback_ok = [k for k in ok if k not in asked]
    checking = any(_CONFIRM_Q.search(q) for q in questions) or bool(_READBACK_CUE.search(text))
    heard.readback_wrong = [k for k in wrong if k not in asked and k not in ok] if checking else []
    if heard.readback_ok or heard.readback_wrong:
        heard.kinds.append("readback")
    if (
        any(_CONFIRM_Q.search(s) for s in sents)
        or (heard.readback_ok and _READBACK_CUE.search(text))
        or read_in_q
    ):
        heard.kinds.append("confirm_question")
        rules.append("confirm_question")
    opts: list[str] = []
    for q in reversed(questions or [heard.question]):
        if q and (not _CONFIRM_Q.search(q) or re.search(r"\bor\b", q)):
            opts = _options(sents, q)
            if opts and not re.search(r"\b(give|tell|provide|spell|say)\b", q, re.I):
                break
            opts = []
    if opts:
        heard.kinds.append("options")
        heard.options = opts
        rules.append("options")
    if any(_STEP.search(s) for s in sents) and any(_OUTCOME_Q.search(s) for s in sents):
        if "confirm_question" in heard.kinds:
            heard.kinds.remove("confirm_question")
        heard.kinds.append("troubleshoot")
        rules.append("troubleshoot_step")
    if any(_OPEN_Q.search(s) for s in sents) and not heard.has("request"):
        heard.kinds.append("open_question")
        rules.append("open_question")
    if _NEXT_STEP.search(text) and heard.has("completed") and not questions and not heard.has("request"):
        heard.kinds.append("hold")  # done with one thing and moving to the next: the agent keeps going
        rules.append("next_step_announced")
    if not heard.kinds or (questions and not set(heard.kinds) - {"completed", "denial", "readback"}):
        heard.kinds.append("question" if (questions or requests) else "statement")
    return heard
