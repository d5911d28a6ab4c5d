"""Which options an agent turn offers and which one a reply names: the bench's own grammar.

Read the same way for the reference caller and for the caller under test (words in
``bench/lang/<lang>.json``: ``option_filler``, ``option_grammar``, ``clock``, ``number_words``):

* **an 'or' question's parts**: of a question joined by ", and" ("A or B, and what size: C, D, or
  E?") the last clause with an 'or'; the question starts at its first comma-part that opens with
  an auxiliary or a wh-word (a lead-in, "Also," "For parking," "Just to confirm," offers nothing); a
  wh-question offers options only after its colon or first comma ("What level do you need: read
  only, standard, or admin?"), never an 'or' inside the wh-phrase ("What date or time would you
  like?"); a later part opening with a relative pronoun or wh-word describes or asks, it is no
  option ("staged removal, which preserves email ..."); a list with a part of no content word ("on
  or after August 10th") is no list; with no word introducing the options, the first part is read
  by as many last words as the longest other part has ("And will you be using general P T O").
* **clock times** as a person says them ("nine AM", "ten thirty A M", "4:05 p.m.", "twelve oh five
  PM"), read from the text itself (EVA's normaliser joins "2026: nine AM" into one number and
  drops the zeros that tell 10 AM from 1 PM); two times joined by a span word ("from two PM to
  three thirty PM") are one span, not two options; times are options only in a turn that asks,
  and not a yes/no question.
* **the option a reply names**: by the option's *distinctive* words (content words, numbers and
  letter labels, "List A", in no other option and not the turn's topic outside the question; a
  unit said once after the last of bare numbers is all of theirs), compared by a light stem
  ("connects" for "connect", never "disconnecting") or two more letters ("macos" for "Mac"); two
  such words (half, of fewer) name it. A contrast refuses what follows to the end of its clause
  (", not an expired password", "rather than X", "instead of X", "no floor preference"), and so
  does a verb's negation ("I don't have a floor preference") unless the option is itself negative
  ("unable to connect at all" for "I can't connect"); a reply naming two options names none
  unless it says one whole.
"""

from __future__ import annotations

import re
from itertools import pairwise
from math import ceil
from typing import NamedTuple

from voxbench.bench.lang import alt, words
from voxbench.bench.matcher import words_of
from voxbench.spoken import sentences_of

_W = words("en")
_G = _W.option_grammar
_FILLER = frozenset(_W.option_filler)
_NUMS = _W.number_words
_OH = frozenset(_W.clock["zero_minutes"])
_SPAN = frozenset(_W.clock["span"])
_AUX = re.compile(rf"^({alt('reference', 'auxiliary')})\b", re.I)
_WH = re.compile(rf"^({'|'.join(_G['wh'])})\b", re.I)
_REL = re.compile(rf"^({'|'.join(_G['relative'])})\b", re.I)
_INTRO = re.compile(rf":|\b({alt('reference', 'option_intro')})\b", re.I)
_ASK = re.compile(rf"\b({alt('reference', 'ask')})\b", re.I)
_OR = re.compile(r"\bor\b", re.I)
_OPTION_SEP = re.compile(r",\s*(?:or\s+)?|\s+or\s+|;\s*")
_HALF = re.compile(r"\b([ap])\.?\s?m\b\.?", re.I)
_OCLOCK = re.compile(r"\bo['’]clock\b", re.I)
_TOKEN = re.compile(r"\d{1,2}:\d{2}|\d+|[a-z]+(?:-[a-z]+)*|[^\s\w]")


def _words_alt(name: str) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in _G[name])


_END = rf"(?P<reach>.*?)(?=[,.;!?:]|\b(?:{_words_alt('negation_end')})\b|$)"
# A contrast refuses what follows it ("..., not an expired password", "rather than X", "no floor
# preference"); a verb's negation ("I can't connect", "I don't have a floor preference") refuses
# what follows unless the option itself is negative ("unable to connect at all").
_CONTRAST = re.compile(
    rf"(?:(?:^|[,;:\u2014-]\s*|\bbut\s+)(?:{_words_alt('contrast_not')})\b|\b(?:{_words_alt('contrast')})\b(?!\s*[,.!?;])){_END}",
    re.I | re.S,
)
_VERB_NEG = re.compile(rf"(?:\b(?:{_words_alt('negation')})\b|n['’]t\b){_END}", re.I | re.S)
_NEGATIVE = re.compile(rf"\b(?:{_words_alt('negative')})\b|n['’]t\b", re.I)
_AND_Q = re.compile(
    rf",\s+and\s+|\s+and\s+(?=(?:{alt('reference', 'auxiliary')}|{'|'.join(_G['wh'])})\b)", re.I
)
_LABEL = re.compile(r"(?<=[A-Za-z] )([A-HJ-Z])\b")  # 'List A', 'Plan B': a capital letter after a word


class Clock(NamedTuple):
    """A clock time said in a text ('10:30pm') and the tokens it spans."""

    time: str
    start: int
    end: int


def _num(tok: str) -> int | None:
    if tok.isdigit():
        return int(tok)
    parts = tok.split("-")
    if (
        len(parts) == 2
        and parts[0] in _NUMS
        and parts[1] in _NUMS
        and _NUMS[parts[0]] >= 20
        and _NUMS[parts[1]] < 10
    ):
        return _NUMS[parts[0]] + _NUMS[parts[1]]
    return _NUMS.get(tok)


def _hour_minute(toks: list[str]) -> tuple[int, int] | None:
    """The hour and minute the tokens before 'am'/'pm' say, or None ('ten thirty', 'four oh five', '1205')."""
    if len(toks) == 1:
        t = toks[0]
        if ":" in t:
            hh, mm = t.split(":")
            return int(hh), int(mm)
        if t.isdigit() and len(t) in (3, 4):
            return int(t[:-2]), int(t[-2:])
        return (n, 0) if (n := _num(t)) is not None else None
    hour = _num(toks[0])
    if hour is None:
        return None
    if len(toks) == 2:
        minute = _num(toks[1])
        return (hour, minute) if minute is not None and 10 <= minute <= 59 else None
    tens = 0 if toks[1] in _OH else (_num(toks[1]) or 0)
    unit = _num(toks[2])
    if (toks[1] in _OH or tens in (20, 30, 40, 50)) and unit is not None and 1 <= unit <= 9:
        return hour, tens + unit
    return None


def _clock_tokens(text: str) -> list[str]:
    """The text's tokens with 'a.m.' / 'P M' as 'am' / 'pm' and "o'clock" dropped: what
    :func:`clock_times` reads and :attr:`Clock.start` / :attr:`Clock.end` index."""
    return _TOKEN.findall(_HALF.sub(lambda m: f" {m.group(1).lower()}m ", _OCLOCK.sub(" ", text)).lower())


def clock_times(text: str) -> list[Clock]:
    """Clock times said with am/pm, in order; the longest reading of the words before it wins."""
    toks = _clock_tokens(text)
    out = []
    for i, tok in enumerate(toks):
        if tok not in _W.clock["day_half"]:
            continue
        for n in (3, 2, 1):
            hm = _hour_minute(toks[i - n : i]) if i >= n else None
            if hm and 1 <= hm[0] <= 12 and 0 <= hm[1] <= 59:
                out.append(Clock(f"{hm[0]}:{hm[1]:02d}{tok}", i - n, i))
                break
    return out


def _not_spans(clocks: list[Clock], text: str) -> list[str]:
    """The times that are not an end of a span ('from 2 PM to 3:30 PM' is one slot)."""
    toks = _clock_tokens(text)
    inside: set[int] = set()
    for a, b in pairwise(clocks):
        if len(between := toks[a.end + 1 : b.start]) == 1 and between[0] in _SPAN:
            inside |= {a.start, b.start}
    return [c.time for c in clocks if c.start not in inside]


def _or_parts(q: str) -> list[str]:
    """The options of one 'or' question, or [] (see the module docstring)."""
    q = next(
        (c for c in reversed(_AND_Q.split(q)) if _OR.search(c)), q
    )  # 'A or B, and what size: C, D or E?'
    first_or = _OR.search(q)
    if not first_or:
        return []
    head_segs = re.split(r"(?<=,)\s*", q[: first_or.start()])
    starts = [i for i, s in enumerate(head_segs) if _AUX.match(s.strip()) or _WH.match(s.strip())]
    if starts:
        q = "".join(head_segs[starts[0] :]) + q[first_or.start() :]
    head = q[: _OR.search(q).start()]  # type: ignore[union-attr]
    if _WH.match(q.strip()):
        cut = head.find(":") if ":" in head else head.find(",")
        if cut < 0:
            return []
        body, head_cue = q[cut + 1 :], True
    else:
        cues = list(_INTRO.finditer(head))
        body, head_cue = q[cues[-1].end() if cues else 0 :], bool(cues)
    parts: list[str] = []
    for p in (p.strip(" ?.") for p in _OPTION_SEP.split(body)):
        if not p:
            continue
        if not (
            parts and (_REL.match(p) or _WH.match(p))
        ):  # '..., which preserves ...', '..., what size ...'
            parts.append(p)
    if len(parts) < 2 or any(not _content(p) for p in parts):
        return []
    if not head_cue:
        parts[0] = _tail(parts[0], max(len(words_of(p)) for p in parts[1:]))
    return parts


def _tail(part: str, n: int) -> str:
    """The last words of ``part`` that make ``n`` normalised words ('using P T O' of 'And will you be
    using P T O' for n = 2): the question's head stays out of its first option."""
    raw = part.split()
    for i in range(len(raw) - 1, -1, -1):
        if len(words_of(" ".join(raw[i:]))) >= n:
            return " ".join(raw[i:])
    return part


def offered_options(agent_text: str) -> list[str]:
    """The options a turn offers: the parts of its last 'or' question, else two or more clock times
    (no span's ends) in a turn that asks and whose last question is not a yes/no one."""
    sents = sentences_of(agent_text)
    qs = [s for s in sents if s.endswith("?")]
    ors = [s for s in qs if _OR.search(s)]
    if ors and (parts := _or_parts(ors[-1])):
        return parts
    times = list(dict.fromkeys(_not_spans(clock_times(agent_text), agent_text)))
    if (
        len(times) >= 2
        and any(s.endswith("?") or _ASK.search(s) for s in sents)
        and not (qs and _AUX.match(qs[-1]))
    ):
        return [f"time:{t}" for t in times]
    return []


def _stem(w: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)]
    return w


def _content(text: str) -> set[str]:
    """Stems of the words that can tell options apart: not filler, three letters or more or a
    number; a capital letter after a word is a label ('List A' -> '#a')."""
    out = {_stem(w) for w in words_of(text) if (len(w) > 2 or w.isdigit()) and w not in _FILLER}
    return out | {f"#{m.group(1).lower()}" for m in _LABEL.finditer(text)}


def _negated(text: str) -> tuple[str, str]:
    """(the text with every contrast's and verb negation's reach cut out, the verb negations' reach)."""
    kept = _CONTRAST.sub(" ", text)
    verbal = " ".join(m.group("reach") for m in _VERB_NEG.finditer(kept))
    return _VERB_NEG.sub(" ", kept), verbal


def _distinct(options: list[str], agent: str) -> list[set[str]]:
    """Each option's distinctive words (see the module docstring)."""
    words_ = [_content(o) for o in options]
    if all(len(w) == 1 and next(iter(w)).isdigit() for w in words_[:-1]) and any(
        x.isdigit() for x in words_[-1]
    ):
        words_[-1] = {
            x for x in words_[-1] if x.isdigit()
        }  # 'thirty, sixty, or ninety days': the unit is all's
    out = [w - set().union(*(v for j, v in enumerate(words_) if j != i)) for i, w in enumerate(words_)]
    rest = _content(" ".join(s for s in sentences_of(agent) if not any(o in s for o in options)))
    return [(d - rest) or d for d in out]


def _said(said: set[str], word: str) -> bool:
    """A distinctive word is said as itself or as it with up to two more letters ('macos' for 'mac')."""
    return word in said or (
        len(word) >= 3
        and not word.startswith("#")
        and any(w.startswith(word) and len(w) - len(word) <= 2 for w in said)
    )


def _named(said: set[str], distinct: list[set[str]]) -> int | None:
    """The option the words name: the only one with two of its distinctive words said (or half of
    them, if fewer), else the only one said whole ('The equipment is video conferencing.'); a reply
    naming two names none."""
    n = [sum(_said(said, w) for w in d) for d in distinct]
    hits = [i for i, d in enumerate(distinct) if d and n[i] >= min(2, ceil(len(d) / 2))]
    if len(hits) == 1:
        return hits[0]
    full = [i for i in hits if n[i] == len(distinct[i])]
    return full[0] if len(full) == 1 else None


def chosen_option(text: str, options: list[str], agent: str = "") -> int | None:
    """The one offered option a reply names (by its time, or its distinctive words), else None."""
    if not text or not options:
        return None
    if options[0].startswith("time:"):
        said = {c.time for c in clock_times(text)}
        hits = [i for i, o in enumerate(options) if o[5:] in said]
        return hits[0] if len(hits) == 1 else None
    kept, verbal = _negated(text)
    distinct = _distinct(options, agent)
    said = _content(kept)
    negative = [bool(_NEGATIVE.search(o)) for o in options]
    if any(
        negative
    ):  # a negative option is named by a negated verb: 'I can't connect' for 'unable to connect'
        said |= _content(verbal)
        distinct = [d if negative[i] else d - _content(verbal) for i, d in enumerate(distinct)]
    return _named(said, distinct)
