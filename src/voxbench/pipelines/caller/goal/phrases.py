"""The goal caller's few phrasings: a seeded choice among equivalents, styled by the persona.

Content comes from the scenario (facts, quoted lines, intents); these templates only frame
it. A trial's seed picks among equivalent wordings, so trials differ in words and never in
what is disclosed or decided. The persona sets style: a curt caller drops the pleasantries.
"""

from __future__ import annotations

import random
import re

from voxbench.pipelines.caller.goal.lang import alt, words
from voxbench.spoken import say_value
from voxbench.spoken.codes import is_code
from voxbench.spoken.lexicon import say_dates_times
from voxbench.spoken.words import NUMBER_WORDS

PHRASES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in words().templates.items()}
"""The phrasings by kind (``goal/lang/<lang>.json``, ``templates``), in the order the seed picks from."""


def _a(name: str) -> str:
    return alt("phrases", name)


_YES_NO = re.compile(
    rf"^((?:(?:{_a('leading_answer')})\b[^.!?]*[.!?]\s*)*)(.*)$",
    re.I | re.S,
)
"""A line's leading answer to the new turn (a yes, no or thanks), kept first when it is said again;
a sentence that already says it is said again ('Next, I need ...', 'Actually, my request isn't
done yet: ...') needs no 'As I said'."""
_KEEP_CASE = re.compile(r"^(I\b|I'|[A-Z]{2,}\b|[A-Z] [A-Z]\b)")
_PLEASANTRIES = re.compile(rf"^({_a('pleasantry')})[,.]?\s+", re.I)
_CURT = re.compile(rf"\b({_a('curt')})\b", re.I)
_DOING = re.compile(rf"^(?:\w+ing|{_a('doing_lead')})\b", re.I)
"""An option said as a doing: a gerund first ('using List A') or a preposition of manner ('by mail')."""


class Phrasing:
    """Picks a template per kind with a seeded RNG; a curt persona drops leading pleasantries."""

    def __init__(self, seed: int = 0, persona: str = "", small: frozenset[str] = frozenset()) -> None:
        self._rng = random.Random(seed)
        self.curt = bool(_CURT.search(persona or ""))
        self.small = small
        """The words the scenario writes only in small letters (:func:`.casing.small_words`)."""

    def say(self, kind: str, **slots: str) -> str:
        """One phrasing of ``kind`` with its slots filled; an option that is a doing ('using List
        A', 'by shipping label') is not taken as a thing ('I'll take using List A'): its own frames."""
        if kind == "choose" and _DOING.match(slots.get("option", "")):
            kind = "choose_doing"
        return self.say_as(self._rng.choice(PHRASES[kind]), kind, **slots)

    def unsaid(self, kind: str, said: list[str], **slots: str) -> str:
        """One phrasing of ``kind`` not in ``said`` where there is one (the seeded one first, then
        the next in the table): lines said in turn to the same refusal (a tree's three push-backs)
        are three lines, not one said three times. The seeded draw is made either way."""
        text = self.say(kind, **slots)
        options = [self.say_as(t, kind, **slots) for t in PHRASES[kind]]
        if text not in said or text not in options:
            return text
        i = options.index(text)
        return next((x for x in options[i + 1 :] + options[:i] if x not in said), text)

    def say_as(self, template: str, kind: str, **slots: str) -> str:
        """``template`` as :meth:`say` says it (slots filled, a curt persona's pleasantries off)."""
        text = template.format(**slots)
        if self.curt and kind not in ("bye_done", "bye_give_up", "bye_silence", "bye", "bye_nothing"):
            text = _PLEASANTRIES.sub("", text)
            text = text[:1].upper() + text[1:]
        return text

    def again(self, text: str) -> str:
        """The same content said a second time, as a person does: 'Yes. As I said, my last name is
        Lima.' (after a leading yes, no or thanks, which answers the new turn; a question asked
        again is 'Thank you. Again, could you tell me the gate?', not 'As I said, ...'). The
        first word loses its capital when it is the caller's own opener, a number word or a word
        its scenario writes only in small letters ('Like I mentioned, employee medical condition.')."""
        m = _YES_NO.match(text.strip())
        lead, rest = (m.group(1) or "", m.group(2)) if m else ("", text.strip())
        if not rest:
            return text
        opener = rest.split()[0].lower().strip(",.!?") if rest.split() else ""
        common = (
            opener in _OPENERS or opener in self.small or re.fullmatch(f"(?:{NUMBER_WORDS})", opener, re.I)
        )
        rest = rest if _KEEP_CASE.match(rest) or not common else rest[:1].lower() + rest[1:]
        kind = "asked_before" if rest.rstrip().endswith("?") else "said_before"
        return f"{lead}{self.say(kind, rest=rest)}"


_OPENERS = frozenset(
    s.split()[0].lower().strip(",.!?:")
    for ts in PHRASES.values()
    for t in ts
    for s in re.split(r"(?<=[.?!:])\s+", t)
    if s.strip() and s[0] != "{"
)
"""The words the caller's own sentences open with ('It's', 'The', 'My', 'Could'): said again after 'As I
said,' they lose their capital, as does a number word and a word its scenario writes only in small
letters (:attr:`Phrasing.small`); any other first word is a name ('Whitfield.'), a month or a
proper value ('Headquarters.'), and keeps it."""


def _rewrites(name: str) -> list[tuple[str, str]]:
    return words().rewrites[name]


# The second person turned first (``rewrites``): the possessives and contractions; then 'you' as a
# subject, 'I': at a clause's start, or wherever a verb follows it ('the fees you paid', 'the date
# you want', 'anything you can do'), unless a verb that takes an object and then a bare verb comes
# before it ('let you know', 'keep you updated': 'me'); then any other 'you' (an object: 'me').
_VERB = f"(?:{_a('subject_verb')}|{_a('subject_verb_form')})"
_PRONOUNS = [
    *((rf"\b{you}\b", i) for you, i in _rewrites("pronouns")),
    *((rf"(^|[.;,]\s*|\b(?:{_a('clause_start')})\s+){you}\b", rf"\1{i}") for you, i in _rewrites("subject")),
    *((rf"\b((?:{_a('object_then_verb')})\s+){you}\b", rf"\1{me}") for you, me in _rewrites("object")),
    *((rf"\b((?:{_a('inverted_aux')})\s+){you}\b", rf"\1{i}") for you, i in _rewrites("subject")),
    *((rf"\b{you}\b(?=\s+{_VERB}\b)", i) for you, i in _rewrites("subject")),
    *((rf"\b{you}\b", me) for you, me in _rewrites("object")),
]
_OWN_VOICE = re.compile(rf"[\"“][^\"“”]+[\"”]|\b(?:{_a('inverted_aux')})\s+you\b[^?.!;\"“”]*\?", re.I)
"""A quoted line, or a direct question to the agent ('can you issue a refund?'): the caller's own words."""
_AGREEMENT = [(rf"\b{wrong}\b", right) for wrong, right in _rewrites("agreement")]
# Said to the agent, 'the agent' of a goal is 'you' ('I want the agent to look up ...' -> 'I want you to ...').
_ADDRESSEE = [(rf"\b{re.escape(them)}\b", you) for them, you in _rewrites("addressee")]
_PERSON_LEAD = re.compile(rf"^({_a('person_word')})\b", re.I)


def first_person(text: str) -> str:
    """A goal written to the caller ('You want your flight...') as the caller says it ('I want my
    flight...'). Words already in the caller's voice are kept: a quoted line, and a direct
    question to the agent ('ask: can you issue a refund to my card?'); elsewhere a 'you' after
    an auxiliary is its subject ('ask can I get a credit'), never 'me'."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    out = _OWN_VOICE.sub(keep, text.strip())
    for pat, rep in _PRONOUNS:
        out = re.sub(pat, rep, out, flags=re.I)
    for pat, rep in _AGREEMENT:
        out = re.sub(pat, rep, out)
    for pat, rep in _ADDRESSEE:
        out = re.sub(pat, rep, out, flags=re.I)
    out = re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], out)
    out = _BRACKETED.sub(_unbracket, out)
    out = say_dates_times(out)
    return out[:1].upper() + out[1:]


# A code in brackets after what it names: 'Chicago (ORD)', 'cancelled by the airline (IRROPS)'.
_BRACKETED = re.compile(r"(\w[\w'’]*)\s*\(([^()]+)\)(?=(\s*[.,;:!?]|\s*$)?)")


def _unbracket(m: re.Match[str]) -> str:
    """Brackets are not spoken. A code after a proper name is said after it, as a code
    ('Chicago, O R D'); after a common word it is a label for the words before it, which a
    person says instead ('the second floor (FL2)' -> 'the second floor')."""
    word, inner = m.group(1), m.group(2).strip()
    if not is_code(inner):
        return m.group(0)
    if not word[:1].isupper():
        return word
    tail = "" if m.group(3) is not None else ","
    return f"{word}, {say_value(inner)}{tail}"


def as_need(intent: str) -> str:
    """An intent label ('Update malpractice coverage record') as a request ('I need to update ...');
    the label as said is :func:`.intents.plain_requests`'."""
    s = intent.strip().rstrip(".")
    if _PERSON_LEAD.match(s):  # 'You ordered a kettle by mistake and want...'
        return first_person(s)
    return PHRASES["as_need"][0].format(intent=s[:1].lower() + s[1:])
