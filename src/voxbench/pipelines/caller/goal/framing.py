"""How one fact is framed in a reply, by class, so that no fact key is read out where a person
would not say it.

A label ("My zone name is Executive Garage.") tells the agent which field a value fills. A person
says it only where it is needed, and so does the caller (:func:`frame_of`, in this order):

* ``own_words``: a free-text fact, a description, a reason, a justification (its key's head is an
  *about* word, or its value four words or more), is said as the caller's own sentence ("VPN keeps
  disconnecting every 30 minutes.", "It's end of life."), never "My issue description is ...";
* ``label`` first for a named part of a fact the turn does not name ("The orientation completion
  code is ..." asked "which task first, and what is the code?"): its label says which one;
* ``bare``: a fact the agent's turn asked for, the only fact the reply says, is the value alone or
  in a short frame ("Executive Garage.", "It's Z K three F F W.");
* ``asked_label``: asked with other facts, it keeps the label as the agent said it: the label's
  words the turn says, and its head noun ("The effective date is ..." for
  ``malpractice_effective_date`` asked "the effective and expiration dates"; "The employee ID is
  ..." asked "your employee I D"), the whole label when those words would not tell
  it from another fact of its kind. Values said bare side by side run into one: two codes read
  letter by letter ("E M P zero nine. Seven seven six one."), a date and a code ("July 14, 2032.
  U S."), for a listener as for the bench's reading;
* ``names_itself``: a word value that holds a word of its label says what it is ("Initial
  verification." for ``verification_action``);
* ``measure``: a measure ("14 inch", said "14-inch": :func:`.speech.measure_form`) of a thing
  whose label is "<thing> <dimension>" (``laptop_size``) is said with the thing, asked or not,
  unless asked alone: "A 14-inch laptop.";
* ``qualified``: a word value whose label's head says it is a kind of the thing before it (a level,
  a type: ``access_level`` standard) is said with the thing, asked with others or not: "Standard
  access."; not a noun that counts ('monitor_arm' of ``equipment_type``: "The equipment type is a
  monitor arm.", not "Monitor arm equipment.": :func:`.category.category_phrase`);
* ``label``: anything else, a fact volunteered unasked, keeps its label ("The new return date is
  ..."), the meta-word *name* after a thing left out ("The building is Headquarters.", not "The
  building name is ...").

A start and an end of one span are said together ("From 10 AM to 12 PM.", :func:`span_label`).
The word sets are data (``goal/lang/<lang>.json``, ``phrases.say``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.category import category_phrase
from voxbench.pipelines.caller.goal.facts import Fact, start_end_pairs, stem
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.speech import key_parts, measure_form, value_kind

ABOUT_WORDS = frozenset(phrases("say", "about_words"))
"""Key heads of a fact that is the caller's own account (description, reason, justification...)."""

NAME_KEEPERS = frozenset(phrases("say", "name_keepers"))
"""Words before *name* that make it a person's name ('first name', 'full name'): kept."""

DIMENSIONS = frozenset(phrases("say", "dimensions"))
"""Label heads that measure a thing ('size', 'length'): 'laptop size' 14 inch is 'a 14-inch laptop'."""

QUALIFIER_HEADS = frozenset(phrases("say", "qualifier_heads"))
"""Label heads whose value is a kind of the thing before them ('access level' standard: 'standard access')."""

GROUP_WORDS = frozenset(phrases("facts", "group_words"))
"""Words that tell apart facts of one group ('trial', 'renewal')."""

OWNERS = frozenset(phrases("readback", "person_words"))
"""Words that say whose a fact is ('dependent first name', 'colleague employee ID'): a label the
agent's words narrow keeps them, or 'My first name is Rohan.' says another person's name as the
caller's own."""

SPAN_WORDS = frozenset(phrases("say", "span_words"))
"""A start's and an end's own words ('start', 'date', 'until'): not what the two share."""

LINKS = frozenset(phrases("speech", "links"))
"""Words that join a label's words ('date of birth'), never its first or last."""

PLAIN_KINDS = frozenset({"date", "time", "money", "code", "name", "number", "text"})
"""Kinds of value a frame without a label may say; yes/no and lists keep theirs."""

FAMILIES = {"code": "digits", "number": "digits", "money": "digits", "name": "words", "text": "words"}
"""Kinds a listener cannot tell apart said bare side by side: two values read digit by digit run
into one ('E M P zero nine. Seven seven six one.'), two word values are two names."""


@dataclass
class ReplyFacts:
    """What a reply says, as the frames need it: the facts the agent's turn asked for, the turn's
    words (stems), and how many facts of each kind the reply says one by one."""

    asked: frozenset[str] = frozenset()
    turn: frozenset[str] = frozenset()
    facts: int = 0
    """Facts the reply says in all (a name, ranked choices and spans included)."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Facts said one by one in the reply, by :func:`family`."""
    # ``turn`` holds the stems of the turn's words and, marked '^', the initials of each run of two
    # to four words: 'paid time off' says the acronym 'P T O'.
    labels: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, facts: Iterable[Fact], asked: Iterable[str] = (), turn: str = "") -> ReplyFacts:
        fs = list(facts)
        said = re.findall(r"[a-z0-9]+", turn.lower())
        initials = {
            "^" + "".join(w[0] for w in said[i : i + n]) for n in (2, 3, 4) for i in range(len(said) - n + 1)
        }
        return cls(
            frozenset(asked),
            frozenset(stem(w) for w in said) | initials,
            len(fs),
            Counter(family(f) for f in fs),
        )


def kind_of(f: Fact) -> str:
    return value_kind(f.value, key_parts(f.key))


def family(f: Fact) -> str:
    """The fact's kind, as far as a listener tells values apart (:data:`FAMILIES`)."""
    kind = kind_of(f)
    return FAMILIES.get(kind, kind)


def without_thing_name(words: list[str]) -> list[str]:
    """'building name' -> 'building', 'zone name' -> 'zone': *name* after a thing says nothing; a
    person's ('first name', "husband's name") stays. A group word last qualifies the whole and
    comes first ('license name trial' -> 'trial license')."""
    if len(words) >= 2 and words[-1] in GROUP_WORDS:
        words = [words[-1], *words[:-1]]
    if (
        len(words) >= 2
        and words[-1] == "name"
        and words[-2] not in NAME_KEEPERS
        and not words[-2].endswith("'s")
    ):
        return words[:-1]
    return words


def is_own_words(f: Fact, words: list[str], kind: str) -> bool:
    """A fact that is the caller's own account: its key's head an *about* word, or prose."""
    if kind != "text" or not isinstance(f.value, str):
        return False
    return bool(words and words[-1] in ABOUT_WORDS) or len(f.value.split()) >= 4


def narrowed(words: list[str], turn: frozenset[str], head: bool = True) -> list[str]:
    """The label's words the agent's turn says ('malpractice effective date' asked 'the effective
    and expiration dates' -> 'effective date'; 'auth' for 'authorization'), and its head noun,
    which names the field whatever the turn calls it ('employee ID' asked 'employee I D'), and
    whose it is (:data:`OWNERS`); with ``head`` False, the words the turn says and no other."""
    if not words:
        return []

    def said(w: str) -> bool:
        s = stem(w)
        return any(
            t == s or (min(len(s), len(t)) >= 4 and (t.startswith(s) or s.startswith(t))) for t in turn
        )

    units = _units(words)  # a spelled acronym ('D E A') is one word: kept whole or not at all

    def whole(u: list[str]) -> bool:  # a spelled acronym said in full words: 'paid time off'
        own = [w for w in u if w not in LINKS] if len(u) > 2 else u
        return all(said(w) for w in own) or (len(u) > 1 and "^" + "".join(u).lower() in turn)

    if not head:
        return _trim([w for u in units if whole(u) for w in u])
    whose = OWNERS | NAME_KEEPERS  # 'dependent', 'first': never narrowed away
    kept = [
        w
        for u in units[:-1]
        if whole(u) or (len(u) == 1 and u[0].lower().removesuffix("'s") in whose)
        for w in u
    ]
    return _trim([*kept, *units[-1]]) if kept or whole(units[-1]) else []


def _units(words: list[str]) -> list[list[str]]:
    """A label's words with each run of single letters (a spelled acronym) as one unit, and a
    head noun with the link and words that qualify it as one ('date of birth', 'type on record'):
    narrowed apart, 'date of birth' asked as 'the date' was said 'The date birth is ...', a key
    with a word dropped that no person says."""
    link = next((i for i in range(1, len(words) - 1) if words[i] in LINKS), 0)  # not a spelled "A"
    if link:
        return [*_units(words[: link - 1]), words[link - 1 :]]
    out: list[list[str]] = []
    for w in words:
        if len(w) == 1 and out and all(len(x) == 1 for x in out[-1]):
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _trim(words: list[str]) -> list[str]:
    """No link word first or last ('on record' -> 'record')."""
    while words and words[0].lower() in LINKS:
        words = words[1:]
    while words and words[-1].lower() in LINKS:
        words = words[:-1]
    return words


def frame_of(f: Fact, words: list[str], value: str, ctx: ReplyFacts) -> str:
    """The class of frame a fact takes in a reply (module docstring)."""
    kind = kind_of(f)
    if kind not in PLAIN_KINDS:
        return "label"
    if is_own_words(f, words, kind):
        return "own_words"
    if _unsaid_part(f, ctx.turn):
        return "label"
    alone = max(ctx.facts, sum(ctx.kinds.values())) <= 1
    if f.key in ctx.asked and alone:
        return "bare"
    if measure_form(f.value) and len(words) > 1 and words[-1] in DIMENSIONS:
        return "measure"
    if (
        kind == "text"
        and 1 < len(words) <= 3
        and words[-1] in QUALIFIER_HEADS
        and len(value.split()) <= 2
        and not category_phrase(f.value, words)  # a noun is no kind of its thing: 'a monitor arm'
    ):
        return "qualified"
    if f.key in ctx.asked:
        return "asked_label"
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", value)}
    if kind == "text" and len(words) > 1 and said & {w for w in words if len(w) > 3}:
        return "names_itself"
    return "label"


def _unsaid_part(f: Fact, turn: frozenset[str]) -> bool:
    """A named part of a fact ('completion_codes.ORIENTATION') the turn does not name: its label
    says which part it is, an answer to 'which task first, and what is the code?'."""
    parts = f.key.split(".")
    if len(parts) != 2 or parts[1].isdigit() or parts[1].endswith("choice"):
        return False
    return not all(stem(w) in turn for w in key_parts(parts[1]) if len(w) > 1) or not turn


def span_label(start: list[str], end: list[str]) -> list[str]:
    """What a start and an end share, their start/end words and heads left out ('P T O start date'
    and 'P T O end date' -> 'P T O'; 'start time' and 'end time' -> nothing)."""
    shared = [w for w in start if w in end and w not in SPAN_WORDS]
    return without_thing_name(shared)


def ranked_choices(fs: list[Fact]) -> list[Fact]:
    """A group's ranked choices ('first_choice', 'second_choice', ...) in rank order; [] for fewer
    than two (said as one 'X if available, otherwise Y')."""
    order = {"first": 0, "second": 1, "third": 2}
    ranked = [f for f in fs if re.search(r"(first|second|third)_choice$", f.key)]
    ranked.sort(key=lambda f: order[f.key.rsplit(".", 1)[-1].split("_")[0]])
    return ranked if len(ranked) >= 2 else []


def same_day(facts: list[Fact]) -> list[Fact] | None:
    """A start and an end date of one span ('start_date', 'end_date') on the same day: a person
    says the day once ('Just the one day, May 21.'), not 'My start date is May 21, 2026. The end
    date is May 21, 2026.' (live hr.3)."""
    return next((pair for pair in start_end_pairs(facts) if str(pair[0].value) == str(pair[1].value)
                 and kind_of(pair[0]) == "date"), None)  # fmt: skip


def spans_of(facts: list[Fact], asked: Iterable[str] = ()) -> list[list[Fact]]:
    """Facts said together as one: a start and an end of one kind, a date or a time, on different
    values ('start_time' 10:00, 'end_time' 11:30: 'From 10 AM to 11:30 AM.'); a date and the time
    of the same words ('preferred_date', 'preferred_time'), one of them asked: 'August 11, 2026,
    at 10 AM.' (unasked, each keeps its label)."""
    out = [p for p in start_end_pairs(facts) if kind_of(p[0]) == kind_of(p[1]) in ("date", "time")
           and str(p[0].value) != str(p[1].value)]  # fmt: skip
    taken = {f.key for p in out for f in p}
    wanted = set(asked)
    for d in facts:
        rest = [w for w in d.words if w != "date"]
        if d.key in taken or kind_of(d) != "date" or "date" not in d.words:
            continue
        t = next((o for o in facts if o.key not in taken and kind_of(o) == "time" and "time" in o.words
                  and [w for w in o.words if w != "time"] == rest), None)  # fmt: skip
        if t is not None and {d.key, t.key} & wanted:
            out.append([d, t])
            taken |= {d.key, t.key}
    return out
