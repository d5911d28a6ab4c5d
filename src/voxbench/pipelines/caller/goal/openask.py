"""An open question about what the caller wants or has, answered from its goal's own text.

'Why are you cancelling?', 'What time would you like instead?', 'How would you like to receive
it?': no fact of ``information_required`` answers these, but the goal's text often does. This is
the analogue of :mod:`.yesno` for questions that ask for something other than a yes or a no, and
reads the goal in the same two forms, once:

1. the tree's own answers: "If/When (the agent) asks (you) (for/about) X, say Y" (X not a
   'whether': those are :mod:`.yesno`'s; Y not a pointer to the facts, 'exactly as listed in
   information_required', which the fact matcher answers). Matched when the question says two
   thirds of X's words, and, where X says why/how/where/when/who, the question asks that too
   ('why you need it' answers 'Why do you need it?' by its question word alone), and no other
   line shares more of the question's words;
2. the goal's statements about the caller (clauses that start with 'you'/'your', of the
   high-level goal, and of the must/nice-to-have criteria that say what it wants). A clause
   answers when it says a value of the nouns after the question word ('what date or time': one of
   them is enough; 'what building and floor': both): a noun that names a kind of value ('time',
   'date') by such a value ('afternoon or evening', 'next week', '4:00 PM'), any other by a name
   or number next to it ('the North garage', 'floor 2'; not 'my unit'), or, asked what the
   caller wants ('What kind of refund would you like?', 'What room do you need?'), by a
   describing word before it ('a full cash refund'; not 'my refund'); one asked with
   modifiers only as that phrase ('my confirmation number' is no flight number). A 'when'
   question asks a time or a date of a clause that says its other words; a question with no
   such nouns ('How would you like to receive it?'), a clause holding every word it says.

Only a clear, unique answer counts, and only where no fact answers and no field is said lacking
(the caller asks this module late, :meth:`.unanswered.Unanswered.unanswerable`). A 'which' question is answered only by the tree's
own words (what it chooses among is the agent's, :mod:`.choose`), unless it names a thing and the
agent's turn offers nothing to choose among ('Which flight would you prefer?'): that asks what the
caller wants, as 'what kind of' does. A clause about another of its
requests than the one in hand is not said unless the question names that request: nothing of a
later request before its time (the tree's answer to what the agent asks is said when asked). Every word
the caller says is its goal's, in the first person (:func:`.phrases.first_person`); anything less
clear keeps its reply that it does not have that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.cues import OPEN_Q
from voxbench.pipelines.caller.goal.goalclauses import caller_clauses
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.options import ANY_AUX
from voxbench.pipelines.caller.goal.phrases import first_person
from voxbench.pipelines.caller.goal.yesno import CLEAR, words
from voxbench.scenarios import Scenario
from voxbench.spoken import ISO_DATE, dates, is_code, say_value, sentences_of, times


def _a(name: str) -> str:
    return alt("openask", name)


def _norm(ws: frozenset[str] | set[str]) -> frozenset[str]:
    """Stems with a doubled last letter made single ('cancell' and 'cancel' are one word)."""
    return frozenset(w[:-1] if len(w) > 3 and w[-1] == w[-2] and w[-1].isalpha() else w for w in ws)


def _words(text: str) -> frozenset[str]:
    return _norm(words(text))


content = _words
"""The content-word stems openask matches a question on (for :mod:`.fit`)."""


_FRAME = _norm({w for p in phrases("openask", "frame") for w in words(p)} | set(phrases("openask", "frame")))
_WH = tuple(phrases("openask", "wh_one"))
"""Question words that ask for one kind of answer: a told X that says one is matched only by it."""
_TELL = re.compile(rf"\b(?:{_a('open_anywhere')})\b", re.I)
_YES_NO = re.compile(
    rf"^(?:[\w' -]+,\s+)?(?:{ANY_AUX}|{_a('aux_had')})\s+(?:{alt('yesno', 'subject')})\b", re.I
)
"""A yes/no question (any auxiliary of ``phrases.questions``; 'had' as :mod:`.yesno` reads it): :mod:`.yesno`'s."""
_OPEN = re.compile(
    rf"(?:^|[,;:]\s*|\b(?:{_a('open_join')})\s+)(?:{_a('open_lead')})\b|\b(?:{_a('open_anywhere')})\b", re.I
)
WHICH = re.compile(rf"\b(?:{_a('which')})\b", re.I)
"""A 'which' question: a choice among things, not what the caller wants."""
_WHICH_THING = re.compile(rf"\b(?:{_a('which')})\s+(?!(?:{_a('which_not_thing')})\b)[a-z]", re.I)
"""'Which flight would you prefer?' names the thing it asks about; 'Which one?' points at options."""
_OFFERS = re.compile(rf"\b(?:{_a('offers')})\b", re.I)
_REQUEST_NOUNS = _norm({w for p in phrases("openask", "request_nouns") for w in words(p)})
_DESCRIBED = re.compile(rf"\b(?:{_a('described')})\b", re.I)
"""'What kind of room?' asks the thing described: a describing word before it answers ('a quiet room'),
as it does to a question of what the caller wants ('What room do you need?', ``wish``)."""
_HEAD = re.compile(
    rf"\b(?:{_a('head_wh')})(?:'s|\s+(?:{_a('head_be')}))?\s+(?:(?:{_a('head_determiner')})\s+)?"
    rf"(?P<h>(?:(?!(?:{_a('head_stop')})\b)[\w-]+\s*){{1,4}}(?:(?:{_a('of')})\s+(?:(?:{_a('of_determiner')})\s+)?[\w-]+)?)",
    re.I,
)
_TOLD = re.compile(
    rf"\b(?:{_a('told_lead')})\s+(?:(?:{alt('yesno', 'asker')})\s+)?(?:{alt('yesno', 'asked_verb')})"
    rf"(?:\s+(?:{alt('yesno', 'you')}))?\s+(?P<x>(?!(?:{_a('told_not_x')})\b)[^;:,.]+?),\s*(?:(?:{_a('then')})\s+)?"
    rf"(?P<verb>{_a('told_verb')})\b:?(?P<y>[^.;]*)",
    re.I,
)
_FACT_REF = re.compile(rf"(?:{_a('fact_ref')})", re.I)
_CUT = re.compile(rf"\s+(?:{alt('yesno', 'cut')})\b.*$", re.I)
_INSTRUCTION = re.compile(rf",?\s*\b(?:{_a('instruction_cut')})\b.*$", re.I)
_LEAD_FILL = re.compile(rf"^(?:(?:{_a('lead_fill')})\s+)+", re.I)
_TAIL_FILL = re.compile(rf"(?:\s+(?:{_a('lead_fill')}))+$", re.I)
_WISH = re.compile(rf"\b(?:{_a('wish')})\b", re.I)
_VALUE_BEFORE = re.compile(r"(?<![.:;]\s)(?<!^)\b(?:[A-Z][\w'-]*|[\w-]*\d[\w-]*)\s+$")
"""A name or a number right before a noun says which ('the North garage', 'Executive Garage')."""
_VALUE_AFTER = re.compile(r"^\s+(?:[A-Z][\w'-]*|[\w-]*\d[\w-]*)\b")
"""... or right after it ('floor 2', 'lot B')."""
_BARE = re.compile(rf"\b(?:{_a('bare_determiner')})\s*$", re.I)
_JOIN = re.compile(rf"\s*(?:,\s*)?\b({_a('join_and')}|{_a('join_or')})\b\s*|\s*,\s*", re.I)
_AND = frozenset(phrases("openask", "join_and"))
_WH_ONE = re.compile(rf"\b({'|'.join(_WH)})\b", re.I)
_ASKED_ABOUT = re.compile(rf"^(?:{_a('asked_about')})\s+", re.I)
_CUT_AT_LETTER = re.compile(rf"(?:^|\b(?:{_a('article')})\s+)[A-Z]$")
_WH_WORDS = frozenset((*_WH, *phrases("openask", "wh_thing")))
_BRACKETS = re.compile(r"\s*\([^()]*\)")
_KINDS = {
    kind: (_norm({w for h in phrases("openask", f"heads_{kind}") for w in words(h)}),
           re.compile(rf"\b(?:{_a(f'values_{kind}')})\b", re.I))
    for kind in ("time", "date")
}  # fmt: skip
_KIND_WORDS = frozenset(w for heads, _ in _KINDS.values() for w in heads)
_SAYS_KIND: dict[str, Callable[[str], bool]] = {
    "time": lambda t: bool(times(t)),
    "date": lambda t: bool(dates(t)),
}


@dataclass(frozen=True)
class OpenAnswer:
    """The goal's answer to an open question: the line said, the text it came from, and how
    (``told``: the tree's "if asked X, say Y"; ``stated``: a clause of the goal)."""

    line: str
    source: str
    how: str
    about: frozenset[str] = frozenset()
    """The words of the X a told answer is for ('why you need the replacement': 'need', 'replac')."""


@dataclass(frozen=True)
class _Told:
    about: frozenset[str]
    wh: str
    said: str
    source: str


class GoalOpenAnswers:
    """The goal's answers to open questions about what the caller wants or has (module doc)."""

    def __init__(self, told: list[_Told], clauses: list[tuple[frozenset[str], str]]) -> None:
        self.told = told
        self.clauses = clauses

    @classmethod
    def of(cls, scenario: Scenario) -> GoalOpenAnswers:
        goal = scenario.user_goal
        tree = goal.decision_tree
        texts = [
            *tree.must_have_criteria,
            *tree.nice_to_have_criteria,
            *tree.negotiation_behavior,
            *tree.edge_cases,
        ]
        told = [t for s in texts for x in sentences_of(s) for m in _TOLD.finditer(x) if (t := _told_of(m))]
        clauses = [c for x in sentences_of(goal.high_level_user_goal) for c in _clauses(x)]
        clauses += [c for s in [*tree.must_have_criteria, *tree.nice_to_have_criteria] for x in sentences_of(s)
                    for c in _clauses(x) if _WISH.search(c[1])]  # fmt: skip
        return cls(told, clauses)

    def answer(
        self, question: str, other_request: Callable[[str], bool] = lambda _: False, offered: bool = True
    ) -> OpenAnswer | None:
        """The goal's answer to an open question, or None when its text holds none clearly.
        ``other_request``: whether a goal clause is about another of the caller's requests than the
        one in hand (not said now; the tree's answer to what the agent asks is said when asked; and
        a thing asked by its own noun, no date or time, that only such a clause holds: 'What sort of
        space are you looking for?' right after the opening is the later request's parking space).
        ``offered``: the agent's turn offers options; else a 'which' question that names a thing
        ('Which flight would you prefer?') asks what the caller wants, as 'what kind of' does."""
        if not _OPEN.search(question) or (OPEN_Q.search(question) and not names_thing(question)):
            return None  # 'What do you need help with?': its requests (:mod:`.requests`)
        if _YES_NO.match(question) and not _TELL.search(question):  # :mod:`.yesno`'s
            return None
        q = _words(question) - _FRAME
        told = self._told(q, _wh(question))
        wish = not offered and bool(_WHICH_THING.search(question))
        if told is not None or (WHICH.search(question) and not wish):
            return told
        heads = _heads(question)
        if _wh(question) == "when" and not heads[0]:  # a time or a date, of what it says
            return self._stated(q, ([[k] for k in sorted(_KIND_WORDS)], True), other_request, also=q)
        described = wish or bool(_DESCRIBED.search(question) or _WISH.search(question))
        said = self._stated(q, heads, other_request, described=described)
        if said is None and not {w for g in heads[0] for w in g} & _KIND_WORDS:  # asked by its own noun,
            said = self._stated(q, heads, lambda _: False, described=described)  # a later request's thing
        return said

    def told_for(self, question: str) -> OpenAnswer | None:
        """The tree's own answer to an open question (form 1 alone), or None: what :mod:`.fit`
        weighs against the facts the question names."""
        if not _OPEN.search(question) or (_YES_NO.match(question) and not _TELL.search(question)):
            return None  # not open; a yes/no question is :mod:`.yesno`'s
        return self._told(_words(question) - _FRAME, _wh(question))

    def _told(self, q: frozenset[str], wh: str) -> OpenAnswer | None:
        scored = [(len(t.about & q), t) for t in self.told if t.about or (t.wh and len(q) <= 1)]
        clear = [(n, t) for n, t in scored
                 if (n >= 1 or not t.about) and n >= CLEAR * len(t.about) and (not t.wh or t.wh == wh)]  # fmt: skip
        best = max((n for n, _ in clear), default=0)
        top = list({t.said: t for n, t in clear if n == best}.values())
        same_x = len({(t.about, t.wh) for t in top}) == 1  # one X the tree answers twice: its first answer
        if not top or (len(top) > 1 and not same_x) or any(n > best for n, _ in scored):
            return None  # another line it says more of, or two Xs: unclear
        t = top[0]
        return OpenAnswer(_line(t.said), t.source, "told", t.about)

    def _stated(
        self,
        q: frozenset[str],
        heads: tuple[list[list[str]], bool],
        other: Callable[[str], bool],
        also: frozenset[str] = frozenset(),
        described: bool = False,
    ) -> OpenAnswer | None:
        if not q and not heads[0]:
            return None
        hits = [(len(ws & q), c) for ws, c in self.clauses
                if _holds(ws, c, q, heads, described) and also <= ws and not other(c)]  # fmt: skip
        best = max((n for n, _ in hits), default=-1)
        top = list(dict.fromkeys(c for n, c in hits if n == best))
        return OpenAnswer(_line(top[0]), top[0], "stated") if len(top) == 1 else None


def offers(turn: str) -> bool:
    """The agent's turn lists things to choose among ('The options are ...', '... or ...'): a
    'which' question in it asks for one of them (:mod:`.choose`), not what the caller wants."""
    return bool(_OFFERS.search(turn))


def names_thing(question: str) -> bool:
    """'What room do you need?' asks for a thing it wants, by its noun; 'What IT requests do you
    need?', 'What do you need?' ask for its requests (``request_nouns``)."""
    return bool(_heads(question)[0]) and not _words(question) & _REQUEST_NOUNS


def _wh(question: str) -> str:
    m = _WH_ONE.search(question)
    return m.group(1).lower() if m else ""


def _heads(question: str) -> tuple[list[list[str]], bool]:
    """The noun groups a 'what/which' question asks for, and whether any one is enough ('What date
    or time would you like' -> [[date], [time]], any; 'What building and floor' -> both; 'What
    leave end date' -> [[leav, end, date]]: its last word the head, the others what it must say too)."""
    m = _HEAD.search(question)
    if not m:
        return [], True
    parts = _JOIN.split(m.group("h"))
    groups = [[w for w in _word_list(_of_last(p)) if w not in _FRAME] for p in parts[::2]]
    either = not any(c.lower() in _AND for c in parts[1::2] if c)
    return [g for g in groups if g], either


def _of_last(noun: str) -> str:
    """'date of birth' as 'birth date': the head noun last, what it is of before it."""
    head, of, rest = noun.partition(" of ")
    return f"{rest} {head}" if of else noun


def _word_list(text: str) -> list[str]:
    """The content-word stems of ``text`` in the order said (:func:`_words`, one per token)."""
    return [w for t in re.findall(r"[\w'-]+", text) for w in _words(t)]


def _kind_held(word: str, clause: str) -> bool | None:
    """Whether a clause says a value of the kind a head word names (None: the word names no kind)."""
    for kind, (heads, values) in _KINDS.items():
        if word in heads:
            return bool(values.search(clause)) or _SAYS_KIND[kind](clause)
    return None


def _noun_held(word: str, ws: frozenset[str], clause: str, mods: set[str], described: bool = False) -> bool:
    """A clause says a value of the noun: a value of its kind; else, asked with modifiers, the noun
    after them ('parking zone') with more than a determiner before the phrase; else a name or a
    number next to it ('the North garage', 'floor 2'; not 'my unit' or 'my last name', which name
    a field only); asked what kind of thing (``described``), a describing word before it too ('the
    first available flight'; not 'my flight')."""
    kind = _kind_held(word, clause)
    if kind is not None:
        return kind
    if word not in ws:
        return False
    found = [(m.start(), m.group(0)) for m in re.finditer(r"[\w'-]+", clause) if _words(m.group(0)) == {word}]
    spots = [i for i, _ in found]
    if mods:  # 'flight number' is said as one phrase: 'my confirmation number' holds no flight number
        spots = [i for i in spots if _before(clause[:i], mods) != clause[:i]]
        return any(not _BARE.search(_before(clause[:i], mods)) for i in spots)
    return any(
        _VALUE_BEFORE.search(clause[:i])
        or _VALUE_AFTER.match(clause[i + len(w) :])
        or (described and re.search(r"[\w'-]+\s+$", clause[:i]) and not _BARE.search(clause[:i]))
        for i, w in found
    )


def _before(text: str, mods: set[str]) -> str:
    """The text before a noun group ('the new carrier': 'the'), its modifiers ('new') taken off."""
    while (m := re.search(r"([\w'-]+)\s*$", text)) and _words(m.group(1)) and _words(m.group(1)) <= mods:
        text = text[: m.start()]
    return text


def _holds(
    ws: frozenset[str],
    clause: str,
    q: frozenset[str],
    heads: tuple[list[list[str]], bool],
    described: bool = False,
) -> bool:
    """A clause holds what the question asks: its noun groups (any one of alternatives, every one
    of a list), each its head by a value and its other words by name; else every content word
    ('when': every content word, and a time or a date)."""
    groups, either = heads
    if not groups:
        return q <= ws
    held = [_noun_held(g[-1], ws, clause, set(g[:-1]), described) and set(g[:-1]) <= ws for g in groups]
    return any(held) if either else all(held)


def _told_of(m: re.Match[str]) -> _Told | None:
    """One "if asked X, say Y" (None: Y points at the facts, or says nothing)."""
    x = m.group("x")
    x = _ASKED_ABOUT.sub("", x.strip())
    y = _INSTRUCTION.sub("", _CUT.sub("", m.group("y")))
    y = _TAIL_FILL.sub("", _LEAD_FILL.sub("", y.strip(' ,:"“”'))).strip(' ,"“”')
    about = _words(x) - _FRAME - _WH_WORDS
    if _FACT_REF.search(y) or not re.search(r"\w", y) or _CUT_AT_LETTER.search(y) or not (about or _wh(x)):
        return None  # points at the facts, says nothing, or was cut at an abbreviation ('a U.S. ...')
    return _Told(about, _wh(x), y, m.group(0))


def _clauses(sentence: str) -> list[tuple[frozenset[str], str]]:
    """A statement's clauses about the caller (:mod:`.goalclauses`), with their words."""
    return [(_words(p), p) for p in caller_clauses(sentence) if len(_words(p)) >= 2]


def _line(said: str) -> str:
    """The goal's words in the first person, as said: brackets not spoken ('the noon flight
    (12:00 PM)'), a date in words, an enum's underscores as spaces, a code with digits spelled."""
    out = _BRACKETS.sub("", first_person(said)).strip(" .")
    out = re.sub(r"\S+", lambda m: _spoken(m.group(0)), out)
    return f"{out[:1].upper()}{out[1:]}."


def _spoken(token: str) -> str:
    core = token.strip(",;:")
    if (
        ISO_DATE.fullmatch(core)
        or "_" in core
        or (is_code(core) and re.search(r"\d", core) and re.search(r"[A-Za-z]", core) and "-" not in core)
    ):
        return token.replace(core, say_value(core))
    return token


def other_request(tracker: IntentTracker, in_hand: int | None, question: str = "") -> Callable[[str], bool]:
    """Whether a text is about another of the caller's requests than the one in hand (the first
    open one when none is): it names another's own words, which the question does not, and not
    this one's."""
    if len(tracker.intents) < 2:
        return lambda _: False
    here = in_hand if in_hand is not None else next(iter(tracker.pending()), None)
    others = [i for i in range(len(tracker.intents)) if i != here and not tracker.mentions(i, question)]
    return lambda text: (
        any(tracker.mentions(j, text) for j in others)
        and not (here is not None and tracker.mentions(here, text))
    )
