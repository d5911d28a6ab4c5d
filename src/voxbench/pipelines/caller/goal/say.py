"""How the goal caller says its facts: labelled sentences, ranked preferences, full names.

Values come from the scenario only (:meth:`.facts.Fact.spoken`: codes spelled, dates and
times in words); the seeded :class:`.phrases.Phrasing` frames them.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, key_words
from voxbench.pipelines.caller.goal.phrases import Phrasing


def fact_label(f: Fact) -> str:
    key = re.sub(r"\(.*?\)", " ", f.key)  # 'Latest acceptable arrival time (local at destination)'
    words = key_words(key.split(".")[0]) if "." in key else key_words(key) or list(f.words)
    part = key.split(".")[1] if key.count(".") == 1 else ""
    if part and not part.isdigit() and not part.endswith("choice") and words:
        # a named part of a fact: 'completion_codes.TB_TEST' -> 'TB test completion code'
        last = words[-1][:-1] if _plural(words[-1]) and not isinstance(f.value, list) else words[-1]
        words = [w.lower() for w in key_words(part)] + words[:-1] + [last]
    out = []
    for w in words:
        if w == "id":
            out.append("ID")
        elif (
            len(w) <= 3
            and w.isalpha()
            and w not in ("of", "on", "day", "end", "new", "zip", "pin", "fee", "ref", "per")
        ):
            out.append(" ".join(w.upper()))
        elif w == "pin":
            out.append("PIN")
        else:
            out.append(w)
    return " ".join(out) or f.key


_TRAILING_WANT = {"wanted", "requested", "needed", "desired", "preferred"}


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics"))


def _is_count(value: object) -> bool:
    return not isinstance(value, bool) and bool(re.fullmatch(r"\d{1,3}", str(value).strip()))


class FactSayer:
    """Says a set of the caller's facts, grouped and in the caller's words."""

    def __init__(self, book: FactBook, phr: Phrasing) -> None:
        self.book = book
        self.phr = phr

    def sentence(self, f: Fact) -> str:
        """'My employee ID is E M P ...'; a count said with its noun ('1 bag.' for 'bags_wanted: 1');
        a plural label agrees ('My travel dates are ...')."""
        words = fact_label(f).split()
        while len(words) > 1 and words[-1] in _TRAILING_WANT:
            words.pop()  # 'bags wanted' -> 'bags'
        if _is_count(f.value):  # 'number of bags' -> 'bags'
            words = [w for w in words if w not in ("number", "count", "total", "num")] or words
        label = " ".join(words)
        plural = _plural(words[-1]) if words else False
        if plural and _is_count(f.value) and len(label.split()) == 1:
            n = float(str(f.value))
            noun = label if n != 1 else label[:-1]
            return f"{f.spoken()} {noun}."
        return self.phr.say("fact", label=label, value=f.spoken(), be="are" if plural else "is")

    def with_companions(self, keys: list[str]) -> list[str]:
        """Asked for a last name, a caller says the full name; asked for a code, what it stands for
        too ('M G E N G, Engineering Manager')."""
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
        return out

    def answer(self, keys: list[str]) -> str:
        """The facts ``keys`` as sentences; ranked choices as one 'X if available, otherwise Y'."""
        groups: dict[str, list[Fact]] = {}
        for k in keys:
            f = self.book.get(k)
            if f is not None:
                groups.setdefault(f.top if "." in f.key else f.key, []).append(f)
        out: list[str] = []
        for fs in groups.values():
            ranked = sorted(
                (f for f in fs if re.search(r"(first|second|third)_choice$", f.key)), key=lambda f: f.key
            )
            if len(ranked) >= 2:
                order = {"first": 0, "second": 1, "third": 2}
                ranked.sort(key=lambda f: order[f.key.rsplit(".", 1)[-1].split("_")[0]])
                line = self.phr.say(
                    "ranked", first=ranked[0].spoken().capitalize(), second=ranked[1].spoken()
                )
                if len(ranked) > 2:
                    line = f"{line[:-1]}, and {ranked[2].spoken()} only as a last resort."
                out.append(line)
                fs = [f for f in fs if f not in ranked]
            out += [self.sentence(f) for f in fs]
        return " ".join(out)
