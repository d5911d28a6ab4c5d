"""Meaning-preserving surface rewrites of an agent turn, one class per rewrite (a metamorphic bench).

The goal caller's rules were written on the reference agents' wordings. An agent it has never met
says the same things with other surface forms: an acknowledgement first, "can you" for "could you",
"I will" for "I'll", "the" for "your", "3" for "three", two statements in the other order. None of
these changes what the turn asks or tells, so none should change what the caller replies: its act
and the facts it discloses. ``benchmarks/caller_invariance.py`` gives the caller each reference
turn and its rewrite by every class and counts the replies that differ, with no label needed.

Each class is data (``bench/lang/perturb_<lang>.json``: its operation, why it preserves meaning,
its phrases; the grammar's word lists beside them); the operations are here, one function each. A
class that does not apply to a turn leaves it unchanged (the bench then counts no item). The choice
among a class's phrases is seeded by the caller's string (domain/scenario/turn), so a run is
deterministic. These tables are the bench's own: the caller never reads them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from typing import Literal

from pydantic import BaseModel

from voxbench.bench.lang import words
from voxbench.spoken.contractions import contractions
from voxbench.spoken.tables import read_table

__all__ = ["Grammar", "PerturbTable", "Rewrite", "class_names", "perturb", "same_choice", "table"]

Op = Literal[
    "prefix", "suffix", "request_form", "contractions", "determiner", "numbers", "reorder", "ask_tail"
]


class Rewrite(BaseModel):
    op: Op
    why: str
    """Why the rewrite leaves the turn's meaning as it was (printed by the bench)."""
    phrases: list[str] = []
    """What a ``prefix``, ``suffix`` or ``ask_tail`` adds, one chosen per turn."""


class Grammar(BaseModel):
    greeting: list[str]
    """A turn opening with one of these is the call's greeting: nothing is said before it."""
    farewell: list[str]
    """A turn closing with one of these says goodbye: nothing is said after it."""
    modals: list[str]
    imperative: str
    request_verbs: list[str]
    """The verbs of a request a modal question and an imperative both say ('provide', 'spell')."""
    ask_openers: list[str]
    """How a sentence asking for information opens (regex branches)."""
    not_expanded_before: list[str]
    """A contraction before these may be 'has' or 'had' ('it's been'): never expanded."""
    owners: list[str]
    """'your' before these names another person's thing or stresses the caller's: kept."""
    number_kept: list[str]
    """Number words also said as pronouns ('this one'): not rewritten as digits."""
    number_neighbours: list[str]
    """Words beside which a number is part of a longer number or a spelled code."""
    back_reference: list[str]
    """A sentence opening with these leans on the one before it: not moved before it."""
    announce: list[str]
    """A sentence opening with these introduces the next one: not moved after it."""
    contractions: list[tuple[str, str]] = []
    """(contracted, full) pairs: the language's one table (``spoken.contractions``, the one the goal
    caller hears either form of), set by :func:`table`, not written in this file."""


class PerturbTable(BaseModel):
    classes: dict[str, Rewrite]
    grammar: Grammar


@cache
def table(language: str = "en") -> PerturbTable:
    """The classes and grammar of ``language`` (``bench/lang/perturb_<language>.json``)."""
    t = read_table("voxbench.bench.lang", f"perturb_{language}.json", PerturbTable, "bench/lang")
    t.grammar.contractions = contractions(language)
    return t


def class_names(language: str = "en") -> list[str]:
    return list(table(language).classes)


def perturb(cls: str, text: str, seed: str, language: str = "en") -> str:
    """``text`` rewritten by class ``cls`` (unchanged where the class does not apply)."""
    t = table(language)
    rewrite = t.classes[cls]
    return _OPS[rewrite.op](text, rewrite, t.grammar, random.Random(f"{seed}/{cls}"))


def same_choice(written: str, heard: str, cls: str, seed: str, language: str = "en") -> bool:
    """Whether two choices are one: an option is named in the agent's words, so the choice made on
    the turn rewritten by ``cls`` may be the written turn's choice rewritten the same way ('ten
    AM' and '10 AM', 'your Confluence access' and 'the Confluence access')."""
    said = {_words(written), _words(perturb(cls, written, seed, language))}
    return _words(heard) in said


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[\w']+", _plain(text).lower()))


_SPLIT = re.compile(r"(?<=[.?!])(?<![A-Z]\.)(\s+)")
"""A sentence ends at its mark, not at a spelled capital's period ('the shift I.D. first')."""
_APOS = "'’"


def _alt(items: list[str]) -> str:
    return "|".join(items)


def _sentences(text: str) -> list[str]:
    """Sentences and the whitespace between them, alternating: joined back they are the text."""
    return _SPLIT.split(text)


def _starts(s: str, branches: list[str]) -> bool:
    return bool(re.match(rf"(?:{_alt(branches)})\b", _plain(s), re.I))


def _plain(s: str) -> str:
    """Curly apostrophes as straight ones: the tables are written with straight ones."""
    return s.replace("’", "'")


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _prefix(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    if _starts(text.strip(), g.greeting):
        return text
    return f"{rng.choice(rw.phrases)} {text}"


def _suffix(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    parts = _sentences(text.strip())
    if re.search(rf"\b(?:{_alt(g.farewell)})\b", parts[-1], re.I):
        return text
    return f"{text.rstrip()} {rng.choice(rw.phrases)}"


def _request_form(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """Every request 'MODAL you [please] VERB ...?' or 'Please VERB ....' re-said in one other
    form chosen for the turn: another modal, or the imperative (its question mark a full stop)."""
    forms = [*g.modals, g.imperative]
    target = rng.choice(forms)
    verbs = _alt(g.request_verbs)
    modal = re.compile(rf"^(?P<pre>(?:\w+, )?)(?P<lead>{_alt(g.modals)})(?P<please> please)? (?P<rest>(?:{verbs})\b.*)\?$", re.I)  # fmt: skip
    imper = re.compile(rf"^(?P<pre>(?:\w+, )?)(?P<lead>{g.imperative}) (?P<rest>(?:{verbs})\b.*)[.!]$", re.I)

    def one(s: str) -> str:
        m = modal.match(s)
        if m and m["lead"].lower() != target:
            if target == g.imperative:
                return _lead(m["pre"], g.imperative) + f" {m['rest']}."
            return _lead(m["pre"], target) + f"{m['please'] or ''} {m['rest']}?"
        m = imper.match(s)
        if m and target != g.imperative:
            return _lead(m["pre"], target) + f" {m['rest']}?"
        return s

    parts = _sentences(text)
    return "".join(p if i % 2 else one(p) for i, p in enumerate(parts))


def _lead(pre: str, lead: str) -> str:
    return pre + (lead if pre else lead[:1].upper() + lead[1:])


def _contractions(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """Every contraction expanded if the turn has one, else every expanded pair contracted
    (written with the turn's own apostrophe)."""
    plain = _plain(text)
    pairs = g.contractions
    keep = _alt(g.not_expanded_before)
    if any(re.search(rf"\b{re.escape(c)}\b", plain, re.I) for c, _ in pairs):
        for c, e in pairs:
            pat = re.escape(c).replace("'", f"[{_APOS}]")
            text = re.sub(rf"\b{pat}\b(?!\s+(?:{keep})\b)", _say_as(e), text, flags=re.I)
        return text
    apos = "’" if "’" in text else "'"
    for c, e in pairs:
        said = c.replace("'", apos)
        text = re.sub(rf"\b{re.escape(e)}\b(?=\s+\w)", _say_as(said), text, flags=re.I)
    return text


def _say_as(form: str) -> Callable[[re.Match[str]], str]:
    """A replacement saying ``form`` for a match, capitalised as the match was."""
    return lambda m: _cased(form, m[0])


def _determiner(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """'your X' said 'the X', not before another person's or 'own'. Never 'the X' said 'your X':
    after another person is named, 'the date of birth' is that person's."""
    owners = _alt([re.escape(o).replace("'", f"[{_APOS}]") for o in g.owners])
    return re.sub(rf"\byour\b(?!\s+(?:{owners})\b)", lambda m: _cased("the", m[0]), text, flags=re.I)


def _numbers(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """In the turn's statements (not its questions), each number said alone as a word written as
    digits; in a turn with none, each one or two digit number said alone written as a word."""
    as_words = {w: n for w, n in words("en").number_words.items() if w not in g.number_kept}
    as_digits = {str(n): w for w, n in words("en").number_words.items()}
    near = {*words("en").number_words, *g.number_neighbours}
    parts = _sentences(text)
    statements = [i for i in range(0, len(parts), 2) if not parts[i].rstrip().endswith("?")]
    for table_, pat in ((as_words, r"[A-Za-z]+"), (as_digits, r"\d{1,2}")):
        changed = False
        for i in statements:
            new = _alone(parts[i], pat, table_, near)
            changed |= new != parts[i]
            parts[i] = new
        if changed:
            return "".join(parts)
    return text


def _alone(s: str, pat: str, table_: dict[str, int] | dict[str, str], near: set[str]) -> str:
    """``s`` with each token of ``table_`` that stands alone rewritten: not joined by a hyphen,
    a colon, a digit or a letter, not beside another number word, a spelled letter or a word of
    ``near`` (a longer number or a spelled code)."""
    toks = list(re.finditer(r"[\w]+|[^\w\s]", s))
    out, last = [], 0
    for k, m in enumerate(toks):
        w = m[0]
        if not re.fullmatch(pat, w) or w.lower() not in table_:
            continue
        before = toks[k - 1][0] if k else ""
        after = toks[k + 1][0] if k + 1 < len(toks) else ""
        glued = (m.start() > 0 and s[m.start() - 1] in "-:$") or (m.end() < len(s) and s[m.end()] in "-:%")
        if glued or any(_number_like(x, near) for x in (before, after)):
            continue
        out += [s[last : m.start()], str(table_[w.lower()])]
        last = m.end()
    return "".join([*out, s[last:]]) if out else s


def _number_like(w: str, near: set[str]) -> bool:
    return w.lower() in near or w.isdigit() or (len(w) == 1 and w.isalpha() and w.isupper())


def _reorder(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """In a turn of statements and one question, its last, the last two adjacent statements that
    stand on their own (the second leans on no word of the first, the first announces nothing and
    ends in no colon) swapped."""
    parts = _sentences(text)
    sents = parts[0::2]
    if len(sents) < 3 or not sents[-1].rstrip().endswith("?") or any("?" in s for s in sents[:-1]):
        return text
    for i in range(len(sents) - 3, -1, -1):
        a, b = sents[i], sents[i + 1]
        if _starts(b, g.back_reference) or _starts(a, g.announce) or a.rstrip().endswith(":"):
            continue
        parts[2 * i], parts[2 * i + 2] = b, a
        return "".join(parts)
    return text


def _ask_tail(text: str, rw: Rewrite, g: Grammar, rng: random.Random) -> str:
    """The turn's last sentence asking for information ('What is X?', 'Could you give X?',
    'Please provide X.') softened before its end mark."""
    parts = _sentences(text)
    verbs = _alt(g.request_verbs)
    opener = re.compile(rf"^(?:\w+, )?(?:{_alt(g.ask_openers)})\b", re.I)
    for i in range(len(parts) - 1, -1, -2):
        s = parts[i].rstrip()
        body = _plain(s)
        modal = re.match(rf"^(?:\w+, )?(?:{_alt(g.modals)}|{g.imperative})\b", body, re.I)
        if not opener.match(body) or (modal and not re.search(rf"\b(?:{verbs})\b", body, re.I)):
            continue
        if s.endswith("?") or (s.endswith(".") and re.match(rf"^(?:\w+, )?{g.imperative}\b", body, re.I)):
            parts[i] = s[:-1] + rng.choice(rw.phrases) + s[-1] + parts[i][len(s) :]
            return "".join(parts)
    return text


_OPS: dict[str, Callable[[str, Rewrite, Grammar, random.Random], str]] = {
    "prefix": _prefix,
    "suffix": _suffix,
    "request_form": _request_form,
    "contractions": _contractions,
    "determiner": _determiner,
    "numbers": _numbers,
    "reorder": _reorder,
    "ask_tail": _ask_tail,
}
