"""The weak-agent bench's table (``bench/lang/weak_<lang>.json``) and the caller's facts as its
templates use them: scalar leaves of ``information_required`` with their label words and value kind,
another value of the same kind for a changed read-back, another person's fact of the caller's field
(:mod:`.weak_turns` builds the items from these)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import cache
from typing import Any

from pydantic import BaseModel, Field

from voxbench.bench.matcher import NOT_VALUES
from voxbench.bench.weak_alternatives import AlternativeWords
from voxbench.bench.weak_endings import EndingWords
from voxbench.bench.weak_fallback import FallbackWords
from voxbench.bench.weak_goal import GoalTold
from voxbench.bench.weak_treeask import TreeAskedWords
from voxbench.bench.weak_wish import GoalWish
from voxbench.spoken.dates import ISO_DATE, say_date
from voxbench.spoken.tables import read_table


class WeakClass(BaseModel):
    act: str
    what: str
    templates: list[str]
    context: list[str] = Field(default_factory=list)
    wants: list[str] = Field(default_factory=list)
    """Templates for a fact the caller wants (its key has a ``want_words`` word), if they differ."""


class SeveralWords(BaseModel):
    """How several values or fields are said in one turn (:mod:`.weak_several`)."""

    joiner: str
    """The word before a list's last item ('and')."""
    your: str
    """The determiner of a field asked ('your')."""
    items: list[str]
    """Forms of one value read back: '{label} {value}', 'the {label} {value}, {spelled}', bare '{value}'."""
    lacked: list[str]
    """Fields a caller may not hold, each with a head word its facts have ("mother's maiden name")."""


class WeakTable(BaseModel):
    """The templates and the word lists they draw on (data: ``bench/lang/weak_<lang>.json``)."""

    opening: str
    label_drop: list[str]
    persons: list[str]
    name_parts: list[str]
    names: dict[str, list[str]]
    capitals: list[str]
    lacked_fields: list[str]
    generic_labels: list[str]
    per_class: int
    refusal_steps: list[str] = Field(default_factory=list)
    """Tree steps refusing a fact ('{label}'), added to a scenario by :mod:`.weak_refusals`."""
    refusal_steps_wide: list[str] = Field(default_factory=list)
    """Refusing steps that also cover other asks ('... or any other verification'): not used
    where another fact is asked and expected (:mod:`.weak_refusals`)."""
    classes: dict[str, WeakClass]
    not_have: list[str]
    number_words: list[str]
    offer_taken: list[str] = Field(default_factory=list)
    """Words of a reply that take an offer ('go ahead', 'please do'): :mod:`.weak_offers`."""
    record_places: list[str] = Field(default_factory=lambda: ["origin", "destination"])
    report_not_held: list[str] = Field(default_factory=list)
    """Key words of a value the call may settle otherwise (a preference, a limit, an amount)."""
    denials: list[str] = Field(default_factory=list)
    """Words of a reply that says the values read were wrong ('not right')."""
    goal_told: GoalTold | None = None
    goal_wish: GoalWish | None = None
    endings: EndingWords | None = None
    """The ending classes' word lists and templates (:mod:`.weak_endings`)."""
    unheld_skip: list[str] = Field(default_factory=list)
    """Key words that qualify a date or time, not a thing ('effective', 'start'): no 'the start ID'."""
    want_words: list[str] = Field(default_factory=list)
    """Key words of a value the caller wants ('desired', 'new'): read back as a want."""
    preference_words: list[str] = Field(default_factory=list)
    """Key words of a preference ('seat_preference', 'preferred_os'): the rest is its topic."""
    free_topics: list[str] = Field(default_factory=list)
    """Topics an agent may ask a preference about; one no fact or goal word of the caller's names is held by none."""
    cut_letters: int = 4
    thing_heads: list[str] = Field(default_factory=list)
    """Label heads that name a thing the caller uses, not one it has ('application', 'system')."""
    thing_meta: list[str] = Field(default_factory=list)
    """Meta words last in a label, the thing before them ('application name', 'equipment type')."""
    """A word cut by the recogniser keeps this many letters ('confirmation' -> 'conf')."""
    id_heads: list[str] = Field(default_factory=list)
    """Last label words of a record's identifier ('employee ID', 'confirmation number')."""
    held_parts: dict[str, str] = Field(default_factory=dict)
    """A part a key names ('last four') -> the head of the whole field it is part of ('number')."""
    alternative_declined: AlternativeWords | None = None
    """How a tree step declining an alternative is read (:mod:`.weak_alternatives`)."""
    wish_limits: list[str] = Field(default_factory=list)
    """Key words of a bound the caller sets ('latest', 'maximum'): with ``want_words``, a wish."""
    wish_marks: list[str] = Field(default_factory=list)
    """Words that say a value is a wish or a limit ('prefer', 'after', 'latest'): :mod:`.weak_wishes`."""
    tree_asked: TreeAskedWords | None = None
    """How a tree step naming its one follow-up question is read (:mod:`.weak_treeask`)."""
    fallback: FallbackWords | None = None
    """How a goal's fallback is read (:mod:`.weak_fallback`)."""
    told_counts: dict[str, int] = Field(default_factory=dict)
    """Words that claim a count of tellings ('a few times': 3, 'twice': 2): :mod:`.weak_misheard`."""
    additive: list[str] = Field(default_factory=list)
    """Words that add an item to others asked ('also', 'another'): :mod:`.weak_misheard`."""
    several: SeveralWords | None = None
    """How several values or fields are said in one turn (:mod:`.weak_several`)."""


@cache
def table(language: str = "en") -> WeakTable:
    return read_table("voxbench.bench.lang", f"weak_{language}.json", WeakTable, "bench/lang")


class Leaf(BaseModel):
    key: str
    value: str
    words: list[str]
    kind: str


_TIME = re.compile(r"^(\d{1,2}):(\d{2})(\s*[AaPp]\.?[Mm]\.?)?$")


def kind_of(value: str, words: list[str]) -> str:
    """date, time, number, capitals (2-3 capitals: 'AUS', 'US'), code, name, or text."""
    if ISO_DATE.match(value):
        return "date"
    if _TIME.match(value):
        return "time"
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return "number"
    if re.fullmatch(r"[A-Z]{2,3}", value):
        return "capitals"
    if " " not in value and (any(c.isdigit() for c in value) or re.fullmatch(r"[A-Z][A-Z-]{3,}", value)):
        return "code"
    t = table()
    person = len(words) == 1 or words[-2] in t.name_parts or words[-2] in t.persons
    if words[-1:] == ["name"] and person and re.fullmatch(r"[A-Za-z' -]+", value):
        return "name"  # a person's name ('first_name', "Husband's name"), not 'group_name'

    return "text"


def key_label_words(key: str, drop: set[str]) -> list[str]:
    """A key's words ('Husband's name' -> husband, name; 'original_travel_details.0.flight_date' ->
    flight, date), brackets, digits and the table's filler left out."""
    parts = key.split(".")
    key = parts[-1] if len(parts) > 2 and parts[-2].isdigit() else " ".join(parts)  # a listed item's field
    key = re.sub(r"\(.*?\)", " ", key)
    return [w for w in split_words(key) if w not in drop and not w.isdigit()]


def split_words(key: str) -> list[str]:
    key = re.sub(r"['’]s\b", "", re.sub(r"([a-z])([A-Z])", r"\1 \2", key))
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", key) if w]


def leaves(info: dict[str, Any], drop: set[str]) -> list[Leaf]:
    """The caller's scalar facts a weak agent may name: short, no booleans, no prose, no e-mail."""
    out: list[Leaf] = []

    def walk(prefix: str, obj: Any) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                if isinstance(v, dict | list):
                    walk(f"{prefix}.{i}", v)
        elif obj is not None and not isinstance(obj, bool):
            v = str(obj).strip()
            if v and len(v.split()) <= 5 and "@" not in v and "<" not in v and v.lower() not in NOT_VALUES:
                words = key_label_words(prefix, drop)
                if words and not (
                    len(words) == 1 and words[0] in table().generic_labels
                ):  # 'your date': which?
                    out.append(Leaf(key=prefix, value=v, words=words, kind=kind_of(v, words)))

    walk("", info)
    return out


def said(value: str) -> str:
    """A value as an agent writes it: a date in words, an enum's underscores as spaces."""
    if ISO_DATE.match(value):
        return say_date(value)
    return value.replace("_", " ") if re.fullmatch(r"[a-z0-9_]+", value) else value


def label(leaf: Leaf) -> str:
    return " ".join("ID" if w == "id" else w for w in leaf.words)


def _shift_code(value: str) -> str:
    """The last two digits moved on by three ('EMP095417' -> 'EMP095440', 'FL1' -> 'FL4'); a code
    without digits, its last two letters ('GRP-ENGCORE' -> 'GRP-ENGCOUH'): the format kept."""
    chars, moved = list(value), 0
    digits = any(c.isdigit() for c in value)
    for i in range(len(chars) - 1, -1, -1):
        c = chars[i]
        if c.isdigit():
            chars[i] = str((int(c) + 3) % 10)
        elif c.isalpha() and not digits:
            base = ord("A") if c.isupper() else ord("a")
            chars[i] = chr(base + (ord(c) - base + 3) % 26)
        else:
            continue
        moved += 1
        if moved == 2:
            break
    return "".join(chars)


def _shift_time(value: str) -> str:
    m = _TIME.match(value)
    assert m is not None
    h, suffix = int(m.group(1)), (m.group(3) or "")
    if suffix:
        pm = "p" in suffix.lower()
        h24 = (h % 12) + (12 if pm else 0) + 2
        h12, ap = h24 % 12 or 12, "PM" if 12 <= h24 % 24 < 24 else "AM"
        return f"{h12}:{m.group(2)} {ap}"
    return f"{(h + 2) % 24:02d}:{m.group(2)}"


def changed(leaf: Leaf, taken: set[str]) -> str | None:
    """Another value of the leaf's kind, none of the caller's values (``taken``); None for text."""
    t = table()
    v, cands = leaf.value, []
    if leaf.kind == "date":
        d = date.fromisoformat(v)
        cands = [(d + timedelta(days=n)).isoformat() for n in (3, 4, 5, -3)]
    elif leaf.kind == "time":
        cands = [_shift_time(v)]
    elif leaf.kind == "number":
        first = int(v[0])
        cands = [str(first + 1 if first < 9 else 8) + v[1:]]
    elif leaf.kind == "code":
        cands = [_shift_code(v)]
    elif leaf.kind == "capitals":
        cands = [c for c in t.capitals if len(c) == len(v)] + t.capitals
    elif leaf.kind == "name":
        part = next((p for p in t.name_parts if p in leaf.words), t.name_parts[-1])
        cands = list(t.names.get(part, []))
    return next((c for c in cands if c != v and c not in taken), None)


def person_pairs(facts: list[Leaf]) -> list[tuple[list[Leaf], Leaf]]:
    """(the caller's own facts of a field, another person's fact of that field): a key with a
    person word ('colleague_employee_id', "Husband's name") whose other words are an own key's
    ('employee_id'; 'name' is the first and the last name together)."""
    persons = set(table().persons)
    parts = table().name_parts
    own = [f for f in facts if not set(f.words) & persons]
    out = []
    for other in facts:
        if not set(other.words) & persons:
            continue
        rest = [w for w in other.words if w not in persons]
        mine = [f for f in own if f.words == rest]
        if not mine and rest == ["name"]:  # a full name: the caller's first and last name, both
            mine = [f for p in parts for f in own if f.words == [p, "name"]]
            mine = mine if len(mine) == len(parts) else []
        if mine and other.kind in ("name", "code", "number", "date", "capitals"):
            out.append((mine, other))
    return out
