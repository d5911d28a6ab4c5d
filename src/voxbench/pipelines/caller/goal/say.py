"""How the goal caller says its facts: labelled sentences, ranked preferences, full names.

Values come from the scenario only (:meth:`.facts.Fact.spoken`: codes spelled, dates and
times in words); the seeded :class:`.phrases.Phrasing` frames them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

from voxbench.pipelines.caller.goal.category import category_phrase, with_article, written
from voxbench.pipelines.caller.goal.facts import (
    SYNONYMS,
    WANT_WORDS,
    Fact,
    FactBook,
    stem,
)
from voxbench.pipelines.caller.goal.framing import (
    ReplyFacts,
    frame_of,
    kind_of,
    narrowed,
    ranked_choices,
    same_day,
    span_label,
    spans_of,
    without_thing_name,
)
from voxbench.pipelines.caller.goal.labels import (
    STATE_WORDS,
    agree,
    agree_phrase,
    as_self,
    fact_label,
    is_count,
    owned,
    plural,
)
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.records import record_lines, route_mates
from voxbench.pipelines.caller.goal.speech import (
    GENERAL_ACRONYMS,
    IDENTIFIER,
    key_parts,
    measure_form,
    value_kind,
)
from voxbench.spoken import is_code
from voxbench.spoken.words import NUMBER_WORDS

_KEPT_AS_IS = {"original", "current", "must", "remain", "remains", "keep", "unchanged", "stay", "same", "old"}
"""Key words a value that stays as it is leaves out ('return_date_must_remain': 'return date')."""

_SELF = {"passenger", "customer", "caller", "employee", "user", "your", "my", "own", "traveler", "member"}
"""Whose name a key names when it is the caller's own ('passenger_first_name')."""

_TRAILING_WANT = {"wanted", "requested", "needed", "desired", "preferred"}

_PERSONS = set(phrases("readback", "person_words"))
"""Words that name another person ('husband', 'colleague'): a fact of theirs is 'my husband's ...'."""


_COUNT_WORDS = set(phrases("speech", "count_words"))
_UNITS = set(phrases("speech", "count_units"))
_PART = re.compile(rf"^(?P<whole>.+) (?P<end>{alt('speech', 'part_ends')}) (?P<n>{NUMBER_WORDS}|\d+)$", re.I)
"""A label that names a part of a number: '<whole> <last|first> <how many digits>'."""
_PART_WHOLES = set(phrases("speech", "part_wholes"))
_HOW_MANY = re.compile(rf"\b({'|'.join(phrases('speech', 'count_question'))})\b", re.I)
_SAID_COUNTS = phrases("speech", "count_said")
"""A small count as a person says it ('one bag', 'six attendees'); a larger one keeps its digits."""


class FactSayer:
    """Says a set of the caller's facts, grouped and in the caller's words."""

    def __init__(self, book: FactBook, phr: Phrasing, acronyms: set[str] | None = None) -> None:
        self.book = book
        self.phr = phr
        self.acronyms = GENERAL_ACRONYMS | (acronyms or set())

    def sentence(self, f: Fact, question: str = "", ctx: ReplyFacts | None = None) -> str:
        """'My employee ID is E M P ...'; a count with its noun phrase (:meth:`count`); a plural
        label agrees ('My travel dates are ...'); framed by its class in the reply (``ctx``,
        :func:`.framing.frame_of`): asked alone, the value ('Executive Garage.')."""
        counted = self.count(f, question)
        if counted is not None:
            return counted
        words = self.label_words(f)
        while len(words) > 1 and words[-1] in _TRAILING_WANT:
            words.pop()  # 'bags wanted' -> 'bags'
        value = self.value(f)
        part = self.part(f, words, value)
        if part is not None and not (ctx and f.key in ctx.asked and frame_of(f, words, value, ctx) == "bare"):
            return part  # asked alone: the digits alone ('Seven seven six one.')
        if (
            value.replace(" ", "").lower() in f.words
        ):  # 'pto_type: pto': 'P T O.', not 'The P T O type is pto.'
            return f"{value[:1].upper()}{value[1:]}."
        if (
            len(words) > 1
            and value.lower().startswith(f"{words[-1]} ")
            and words[-2] not in STATE_WORDS | _TRAILING_WANT
        ):
            return (
                f"For the {' '.join(words[:-1])}, {value}."  # 'delivery_floor: FL3': not 'floor is floor 3'
            )
        if len(words) == 1 and value.lower().startswith(f"{words[0]} "):
            return f"{value[:1].upper()}{value[1:]}."  # 'floor: FL3': 'Floor 3.'
        return self.framed(f, words, value, ctx or ReplyFacts())

    def framed(self, f: Fact, words: list[str], value: str, ctx: ReplyFacts) -> str:
        """The fact in the frame of its class (:func:`.framing.frame_of`), the seed choosing the wording."""
        frame = frame_of(f, words, value, ctx)
        if frame in ("own_words", "bare", "asked_label", "label") and category_phrase(f.value, words):
            value = with_article(value)  # 'It's an additional practice site.' (:mod:`.category`)
        cap = f"{value[:1].upper()}{value[1:]}"
        if frame == "own_words" and len(str(f.value).split()) >= 4:
            return self.phr.say("own_words", value=value, Value=cap)
        if frame == "own_words":  # 'It's end of life.'; unasked, what it is: 'The reason is role change.'
            head = words[-1] if f.key not in ctx.asked and words else ""
            return self.phr.say("own_short", value=value, head=head) if head else f"It's {value}."
        if frame == "bare" or frame == "names_itself":
            return self.phr.say("fact_bare", value=value, Value=cap) if frame == "bare" else f"{cap}."
        if frame == "measure":
            return self.phr.say("measure", value=measure_form(f.value) or value, thing=" ".join(words[:-1]))
        if frame == "qualified":
            return self.phr.say("qualified", Value=cap, thing=" ".join(words[:-1]))
        if frame == "asked_label":
            words = written(ctx.labels.get(f.key, "").split()) or words
        words = as_self(without_thing_name(words))
        many = plural(words[-1]) if words else False
        said = self.phr.say("fact", label=" ".join(words), value=value, be="are" if many else "is")
        if not owned(words) and said.startswith("My "):  # 'The date is ...', 'The application is ...'
            said = "The " + said[3:]
        return said

    def part(self, f: Fact, words: list[str], value: str) -> str | None:
        """A key that names a part of a number said as one ('phone_last_four': 'The last four
        digits of my phone number are six six two zero.', not 'My phone last four is ...', the key
        read nearly as written, live 2026-12-06). None for a key that names no part."""
        m = _PART.match(" ".join(key_parts(f.key.split(".")[-1])))
        if m is None:
            return None
        whole = words[: next((i for i, w in enumerate(words) if w.lower() == m["end"].lower()), len(words))]
        if not whole:
            return None
        if whole[-1].lower() not in _PART_WHOLES and not whole[-1].isupper():
            whole.append("number")  # 'phone' -> 'phone number'; 'S S N', 'employee ID' stay
        return self.phr.say(
            "fact_part", end=m["end"].lower(), n=m["n"].lower(), whole=" ".join(whole), value=value
        )

    def count(self, f: Fact, question: str = "") -> str | None:
        """A count said with its noun phrase, in a sentence: 'I'd like one bag.' ('bags_wanted: 1'),
        'There are six attendees.' ('attendee_count'), 'The duration is 60 days.' ('duration_days'):
        a small count in words (``count_said``); asked how many, the count and its noun alone ('One
        bag.'). None for a value that is no count.
        Said alone after other facts, '1 bag.' was a fragment no one could place (live, small agent)."""
        if not is_count(f.value) or value_kind(f.value, f.words) == "money":
            return None
        n = int(str(f.value).strip())
        key = set(re.split(r"[^a-z]+", f.key.lower()))
        words = [
            w
            for w in fact_label(f, self.acronyms).split()
            if w not in _COUNT_WORDS | _TRAILING_WANT | WANT_WORDS
        ]
        unit = next((w for w in words if w in _UNITS), None)
        if not (unit or key & _COUNT_WORDS - {"number"} or any(plural(w) for w in words)):
            return None  # 'room_number: 101', 'floor: 3': a number, not a count of things
        rest = without_thing_name([w for w in words if w != unit]) if unit else []  # 'trial duration'
        noun = agree(unit, n) if unit else agree_phrase(words or ["items"], n)
        counted = f"{_SAID_COUNTS[n] if 0 <= n < len(_SAID_COUNTS) else n} {noun}"
        if _HOW_MANY.search(question):
            return f"{counted[:1].upper()}{counted[1:]}."
        if key & (_TRAILING_WANT | WANT_WORDS):
            return self.phr.say("count_want", count=counted)
        if rest:
            return self.phr.say("count_of", label=" ".join(rest), count=counted)
        return self.phr.say("count_there", count=counted, be="is" if n == 1 else "are")

    def whose(self, f: Fact) -> str:
        """Another of its facts named as its own ('David Park is my husband's name.', 'E M P ... is
        my colleague's employee ID.'): a person word first in its label is the owner."""
        words = self.label_words(f)
        if len(words) > 1 and words[0] in _PERSONS:
            words[0] = f"{words[0]}'s"
        value = self.value(f)
        return f"{value[:1].upper()}{value[1:]} is my {' '.join(words)}."

    def label_words(self, f: Fact) -> list[str]:
        """The fact's label as said: its words, a glued compound written apart ('on-call')."""
        return written(fact_label(f, self.acronyms).split())

    def value(self, f: Fact) -> str:
        """The value as said; an acronym written in small letters ('pto', or a word of 'vpn_gateway')
        spelled as the acronym a person says ('P T O', 'V P N gateway')."""
        said = f.spoken()
        if said.lower() in self.acronyms and said.isalpha():
            return " ".join(said.upper())
        if IDENTIFIER.match(
            str(f.value)
        ):  # 'vpn_gateway' -> 'V P N gateway': an identifier's acronym spelled
            return " ".join(" ".join(w.upper()) if w in self.acronyms else w for w in said.split(" "))
        return said

    def change(self, route: list[str], stays: list[str], part: str | None) -> str:
        """The part of a booking a change is to, by its route ('That's the outbound, ORD to MIA.'),
        and what stays as it is ('The return date stays June 12, 2026.'): :func:`.volunteer.change_parts`."""
        out: list[str] = []
        fs = [f for k in route if (f := self.book.get(k)) is not None]
        if fs:
            said = " to ".join(f.spoken() for f in fs)
            out.append(self.phr.say("route", part=f"the {part}, " if part else "", route=said))
        for k in stays:
            f = self.book.get(k)
            if f is None:
                continue
            words = [w for w in fact_label(f, self.acronyms).split() if w not in _KEPT_AS_IS]
            out.append(self.phr.say("stays", label=" ".join(words) or "date", value=f.spoken()))
        return " ".join(out)

    def spelled(self, keys: list[str]) -> str:
        """Asked to spell: each word value letter by letter ('That's O K O N K W O.'); a code is
        said as it always is (spelled already)."""
        out = []
        for k in keys:
            f = self.book.get(k)
            if f is None:
                continue
            out.append(letters_of(str(f.value)) or self.value(f))
        return f"That's {', '.join(out)}." if out else ""

    def with_companions(self, keys: list[str], turn: str = "") -> list[str]:
        """Asked for a last name, a caller says the full name; asked for a code, what it stands for
        too ('M G E N G, Engineering Manager'); a route's other end the ``turn`` names too."""
        out = list(keys)
        for k in keys:
            f = self.book.get(k)
            if f is None or "last" not in f.words or "name" not in f.words:
                continue
            twin = [w if w != "last" else "first" for w in f.words]
            first = [o.key for o in self.book if list(o.words) == twin and o.key not in out]
            out += first[:1]
        for (
            k
        ) in keys:  # a date with its time ('preferred_date' -> 'preferred_time'), a building with its floor
            f = self.book.get(k)
            pairs = (("date", "time", ("time", "start")), ("building", "floor", ("floor",)),
                     ("floor", "building", ("building", "name")))  # fmt: skip
            for part, other, skip in pairs:
                if f is not None and part in f.words:
                    rest = [w for w in f.words if w != part]
                    out += [o.key for o in self.book if other in o.words and o.key not in out
                            and [w for w in o.words if w not in skip] == rest][:1]  # fmt: skip
        for k in keys:
            f = self.book.get(k)
            if f is not None and f.words and f.words[-1] == "code":
                named = [o.key for o in self.book if list(o.words) == list(f.words[:-1]) and o.key not in out]
                out += named[:1]
        return out + route_mates(self.book, out, turn)

    def in_asked_order(self, keys: list[str], question: str) -> list[str]:
        """The asked facts in the order the question names them ('What new departure and return
        dates ...?': the departure date first), each placed by the first word that tells it from
        the others asked; a fact the question does not name keeps its place after those it does."""
        said = [stem(w) for w in re.findall(r"[a-z0-9]+", question.lower())]
        facts = [f for k in keys if (f := self.book.get(k)) is not None]

        def words_of(f: Fact, synonyms: bool) -> list[str]:  # and what an agent may say for them
            extra = [x for w in f.words for x in " ".join(SYNONYMS.get(w, ())).split()] if synonyms else []
            return [stem(w) for w in [*f.words, *extra]]

        def place(f: Fact) -> int:
            """By a word that tells it apart (its key's, else what is said for them), else any."""
            tries = []
            for synonyms in (False, True):
                others = {w for o in facts if o is not f for w in words_of(o, synonyms)}
                tries.append([w for w in words_of(f, synonyms) if w not in others])
            for words in [*tries, words_of(f, False), words_of(f, True)]:
                at = [i for i, w in enumerate(said) if w in words]
                if at:
                    return min(at)
            return len(said)

        placed = sorted(range(len(facts)), key=lambda i: (place(facts[i]), i))
        return [facts[i].key for i in placed] + [k for k in keys if self.book.get(k) is None]

    def full_name(self, facts: list[Fact]) -> tuple[str, list[Fact]]:
        """A first and a last name of the same person said together, as a person says a name ('My
        name is Rachel Bennett.', 'My colleague's name is ...'); the facts it says."""
        for f in facts:
            if "first" not in f.words or "name" not in f.words:
                continue
            twin = tuple(w if w != "first" else "last" for w in f.words)
            last = next((o for o in facts if o.words == twin), None)
            if last is None:
                continue
            whose = [w for w in f.words if w not in ("first", "name")]
            name = f"{f.spoken()} {last.spoken()}"
            if not whose or whose[0] in _SELF:
                return self.phr.say("full_name", name=name), [f, last]
            return f"My {' '.join(whose)}'s name is {name}.", [f, last]
        return "", []

    def answer(self, keys: list[str], question: str = "", asked: Iterable[str] = (), turn: str = "") -> str:
        """The facts ``keys`` as sentences; ranked choices as one 'X if available, otherwise Y';
        a first and last name as one name; a start and an end as one span; ``question``, the
        agent's, tells a count asked how many; ``asked`` (the facts the agent's turn asks for) and
        ``turn`` (its words) frame each other fact by its class (:mod:`.framing`)."""
        groups: dict[str, list[Fact]] = {}
        facts = [f for k in keys if (f := self.book.get(k)) is not None]
        label = partial(fact_label, acronyms=self.acronyms)
        listed, per_record = record_lines(self.book, self.phr, facts, self.value, label)
        facts = [f for f in facts if f not in per_record]  # a field of several records: per record
        name, named = self.full_name(facts)
        for f in facts:
            if f in named and f is not named[0]:
                continue
            groups.setdefault(f.top if "." in f.key else f.key, []).append(f)
        out: list[str] = listed
        span = same_day(facts)
        if span is not None:  # 'start_date' and 'end_date' both May 21: 'Just the one day, May 21, 2026.'
            out.append(self.phr.say("same_day", value=span[0].spoken()))
            groups = {k: kept for k, fs in groups.items() if (kept := [f for f in fs if f not in span])}
        ranks = {k: ranked_choices(fs) for k, fs in groups.items()}
        singles = [
            f for k, fs in groups.items() for f in fs if f not in ranks[k] and not (named and f is named[0])
        ]
        spans = {p[0].key: p for p in spans_of(singles, asked)}
        in_span = {f.key for p in spans.values() for f in p}
        ctx = self.reply_facts([f for f in singles if f.key not in in_span], asked, turn)
        ctx.facts = len(facts)
        for k, fs in groups.items():
            if named and fs[0] is named[0]:
                out.append(name)
                continue
            ranked = ranks[k]
            if len(ranked) >= 2:
                line = self.phr.say(
                    "ranked", first=ranked[0].spoken().capitalize(), second=ranked[1].spoken()
                )
                if len(ranked) > 2:
                    line = f"{line[:-1]}, and {ranked[2].spoken()} only as a last resort."
                out.append(line)
            for f in fs:
                if f.key in spans:
                    out.append(self.span(spans[f.key], ctx))
                elif f not in ranked and f.key not in in_span:
                    out.append(self.sentence(f, question, ctx))
        return " ".join(out)

    def reply_facts(self, singles: list[Fact], asked: Iterable[str], turn: str) -> ReplyFacts:
        """The frames' view of a reply (:class:`.framing.ReplyFacts`); an asked fact said beside
        another keeps the label's words the turn says, when they tell it apart: not when they are
        all words of the other's label ('What is the phone number?' asked beside the confirmation
        number: 'The number is M L A T G two.' was said of the code)."""
        ctx = ReplyFacts.of(singles, asked, turn)
        twins = [f for f in singles if f.key in ctx.asked and len(singles) > 1]
        short = {f.key: " ".join(without_thing_name(narrowed(fact_label(f, self.acronyms).split(), ctx.turn)))
                 for f in twins}  # fmt: skip
        for f in twins:  # a label inside another's tells them not apart: 'number' beside 'phone number'
            mine = set(short[f.key].lower().split())
            inside = [mine <= set(short.get(o.key, fact_label(o, self.acronyms)).lower().split())
                      for o in singles if o is not f]  # fmt: skip
            if mine and not any(inside):
                ctx.labels[f.key] = short[f.key]
        return ctx

    def span(self, pair: list[Fact], ctx: ReplyFacts) -> str:
        """A start and an end said as one span: 'From 10 AM to 12 PM.'; with what it is a span of
        ('The P T O is from July 24, 2026 to July 31, 2026.') unless asked in other words."""
        start, end = (self.value(f) for f in pair)
        if kind_of(pair[0]) != kind_of(pair[1]):  # a date and its time: 'August 11, 2026, at 10 AM.'
            return self.phr.say("when", date=start, Date=f"{start[:1].upper()}{start[1:]}", time=end)
        label = span_label(*(fact_label(f, self.acronyms).split() for f in pair))
        if any(f.key in ctx.asked for f in pair) and label != narrowed(label, ctx.turn, head=False):
            label = []  # asked: what the span is of only when the turn says it ('your P T O')
        if label:
            text = " ".join(label)
            return self.phr.say(
                "span_of", label=text, Label=f"{text[:1].upper()}{text[1:]}", start=start, end=end
            )
        return self.phr.say("span", start=start, Start=f"{start[:1].upper()}{start[1:]}", end=end)


def letters_of(value: str) -> str:
    """A word value letter by letter ('Okonkwo' -> 'O K O N K W O'); '' for a code, which is said
    spelled already, or a value that is no word."""
    v = value.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z' -]*", v) or is_code(v):
        return ""
    return " ".join(c.upper() for c in v if c.isalpha())
