"""Sentences a listener did not need: EVA's minor conciseness failure modes, read sentence by sentence.

EVA's conciseness rubric (`configs/prompts/judge.yaml`) asks, beside how much a turn says,
whether it holds content "that should have been omitted or deferred": repetition, "unnecessary
wording ... hedging" (`verbosity_or_filler`), "more background ... than the situation
warrants" (`contextually_disproportionate_detail`). The fitted counts of `conciseness.py` see a
turn's size, not what its sentences are for, and EVA's human labels hold almost none of these
(one filler label, no repetition), so no weight can be fitted for them. Each is a rule on one
class of sentences, its words data (`lang/en.json`, `_conciseness`):

- **said again**: a statement (no question, no real request, no code read out) of five or more
  words saying a statement of the agent's previous turn again, in a turn that also says
  something new: four fifths of the content words of each are the other's and it carries no
  value of its own. Not when the caller asked to hear it again, and not when the caller's line
  in between shares its content words (a question about it, or push-back on it: restating is
  the answer); not in the wrap-up
  (the final turn, and the recap before a closing exchange: EVA's wrap-up exception), not in a
  turn with a write (the action reported done repeats its read-back), not when the previous
  turn was cut off (it may not have been heard), not when the turn says nothing else (it
  reaffirms in reply to the caller; nothing new waits behind it).
- **filler**: a statement of eight or more words with no value, at least three fifths of whose
  content words are courtesy, hedging or reassurance words (no content verbs); it takes two in a
  turn (one polite sentence is politeness, which people rate 3).
- **background**: a statement of twelve or more words with a background cue ("typically", "the
  system", "for context") that addresses nobody (no "you" outside the cue) and shares no
  content word with what the caller said in this turn (or in the one before, when this turn's
  line only acknowledges a "let me check"): how things work, which nobody asked. The final turn is no exception: EVA's wrap-up allowance ends at "unrelated
  information".

Words match by form: one inflection ending off, a dropped "e" restored ("changed", "change"),
irregular forms by table ("paid", "pay"). Said again and filler are both `verbosity_or_filler`:
EVA's scale rates a turn with one minor failure mode 2 and with more 1, counting modes, not
kinds (`Said.rated`), never above what the counts rate (a mode found does not excuse a long turn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from voxbench.eval.context import strip_tags
from voxbench.eval.offline.lang import alt, word_set
from voxbench.eval.tags import cut_off
from voxbench.spoken import sentences_of
from voxbench.spoken.words import MONTHS, ORDINALS, SCALES, TENS, UNITS

MIN_REPEAT_WORDS = 5
"""A shorter statement ("You're all set.") is an acknowledgement, not content said again."""
MIN_CONTENT = 3
"""Content words a statement needs for its repetition to be told from a common phrase."""
SAME_SHARE = 0.8
"""Share of each statement's content words the other holds for the two to say the same."""
MIN_FILLER_WORDS = 8
"""A shorter courtesy ("Happy to help.") is politeness; a longer one is wording to listen through."""
FILLER_SHARE = 0.6
"""Share of a sentence's content words that are courtesy, hedging or reassurance words."""
FILLER_SENTENCES = 2
"""Filler sentences a turn needs for `verbosity_or_filler`: one is politeness."""
MIN_BACKGROUND_WORDS = 12
"""A shorter aside ("For adoption, the category is usually bonding.") is the modest addition
EVA's rubric allows."""

_SUFFIXES = ("ing", "ed", "ly", "es", "s")
_WORD = re.compile(r"[a-z0-9']+")
_DIGIT = re.compile(r"\d")
_CHAR = r"(?:[A-Z0-9]|zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_SPELLED = re.compile(rf"\b{_CHAR}(?:[ ,-]+{_CHAR}\b){{2,}}")
"""Three or more single letters, digits or digit words in a row: a code read out ("K seven M D")."""
_CODE_TOKEN = re.compile(
    r"\b(?!(?i:\d+(?:st|nd|rd|th|am|pm)\b))(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{2,}\b|\b\d{4,}\b"
)
"""A code written as one token, as text for speech holds it: capitals and digits mixed
("K7MD2Q", "INC0041"), or four or more digits; an ordinal or a clock time ("30th", "9AM") is none."""
_CLAUSE = re.compile(r"[.!?,;:]+\s*")
VALUE_WORDS = frozenset([*UNITS, *TENS, *ORDINALS, *SCALES, *MONTHS])
"""Number and month words (the project's spoken-value words): a word of them tells a value."""


@cache
def _words_of(name: str) -> frozenset[str]:
    return word_set("_conciseness", name)


@cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alt('_conciseness', name)})\b", re.IGNORECASE)


def words(text: str) -> list[str]:
    """Lower-case words, curly apostrophes straightened."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def content(ws: list[str]) -> frozenset[str]:
    """The words that carry content: not stop words, longer than two letters."""
    stop = _words_of("stop")
    return frozenset(w for w in ws if w not in stop and len(w) > 2)


def _stems(word: str) -> list[str]:
    """The word without one inflection ending ("started" -> "start"), longest ending first."""
    return [word[: -len(s)] for s in _SUFFIXES if word.endswith(s) and len(word) > len(s) + 2]


@cache
def _irregular() -> dict[str, str]:
    return dict(pair.split(":") for pair in _words_of("irregular"))


@cache
def forms(word: str) -> frozenset[str]:
    """The forms a word is matched by: itself, without one inflection ending, with a dropped "e"
    restored ("changed" -> "change", "times" -> "time"), and its base if irregular ("paid" -> "pay")."""
    cut = _stems(word)
    base = _irregular().get(word)
    return frozenset([word, *cut, *(s + "e" for s in cut), *([base] if base else [])])


def _form_set(ws: frozenset[str]) -> set[str]:
    return {f for w in ws for f in forms(w)}


def is_filler(word: str) -> bool:
    """A courtesy, hedging or reassurance word, or an inflection of one ("hoping", "thanked")."""
    return bool(forms(word) & _words_of("filler"))


def is_question(line: str) -> bool:
    """The caller asks: a "?", or a clause opening with a wh-word after any lead-in ("wait which
    gate does it leave from"), as speech-to-text writes questions without their mark."""
    if "?" in line:
        return True
    wh, lead = _words_of("wh"), _words_of("lead_in")
    for clause in _CLAUSE.split(line.lower()):
        first = next((w for w in words(clause) if w not in lead), "")
        if first in wh:
            return True
    return False


def is_request(text: str) -> bool:
    """A real request to the caller: "could you", "tell me", or "please" / "let me know" with
    something to supply ("your date of birth", "which day"); "please don't hesitate to let me
    know if anything is unclear" is courtesy, not a request."""
    if _pattern("asks").search(text):
        return True
    return bool(_pattern("asks_softly").search(text) and _words_of("to_supply") & set(words(text)))


def has_value(ws: list[str] | tuple[str, ...] | frozenset[str]) -> bool:
    """A digit, a number word or a month: the words tell something specific."""
    return any(_DIGIT.search(w) or w in VALUE_WORDS for w in ws)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a turn with its words and content words."""

    text: str
    words: tuple[str, ...]
    content: frozenset[str]

    @property
    def statement(self) -> bool:
        """It tells: no question, no real request to the caller, no code read out (spelled or as one token)."""
        t = self.text
        return not (t.rstrip().endswith("?") or _SPELLED.search(t) or _CODE_TOKEN.search(t) or is_request(t))


def sentences(text: str) -> list[Sentence]:
    """The sentences of an agent turn (tags out)."""
    out = []
    for piece in sentences_of(text):
        s = strip_tags(piece)
        if s:
            ws = words(s)
            out.append(Sentence(s, tuple(ws), content(ws)))
    return out


def _same(a: Sentence, b: Sentence) -> bool:
    """`a` says `b` again: each holds four fifths of the other's content words, `a` no value of its own."""
    common = len(a.content & b.content)
    return common >= SAME_SHARE * max(len(a.content), len(b.content)) and not has_value(a.content - b.content)


def said_again(text: str, previous: str, caller: str, wrap_up: bool, wrote: bool = False) -> list[str]:
    """Statements of `text` that say a statement of the agent's `previous` turn again, when
    nothing in the turn asks for it and the turn also says something new (module doc)."""
    if (
        not previous
        or wrap_up
        or wrote
        or _pattern("repeat_ask").search(caller)
        or cut_off(previous, at_end=True)
    ):
        return []
    before = [p for p in sentences(previous) if p.statement and len(p.content) >= MIN_CONTENT]
    raised = _form_set(content(words(caller)) - VALUE_WORDS)
    out, new = [], False
    for s in sentences(text):
        if any(_same(s, p) for p in before):
            if (
                s.statement
                and len(s.words) >= MIN_REPEAT_WORDS
                and len(s.content) >= MIN_CONTENT
                and not _form_set(s.content) & raised
            ):
                out.append(s.text)
        elif len(s.content) >= MIN_CONTENT:
            new = True
    return out if new else []


def filler(text: str) -> list[str]:
    """The filler sentences of `text` when it has `FILLER_SENTENCES` or more, else none."""
    found = [
        s.text
        for s in sentences(text)
        if s.statement
        and len(s.words) >= MIN_FILLER_WORDS
        and not has_value(s.words)
        and sum(map(is_filler, s.content)) >= FILLER_SHARE * len(s.content)
    ]
    return found if len(found) >= FILLER_SENTENCES else []


def acknowledges(line: str) -> bool:
    """The caller only acknowledges ("Sure, go ahead."): no value, fewer than `MIN_CONTENT` content words."""
    ws = words(line)
    return not has_value(ws) and len(content(ws)) < MIN_CONTENT


def background(text: str, caller: str, earlier: str = "") -> list[str]:
    """Statements of `text` telling how things work, addressed to nobody and about nothing the
    caller said in this turn (`caller`), or in the one before (`earlier`) when this turn's line
    only acknowledges: the question before a "let me check" is answered after it (module doc)."""
    asked = _form_set(content(words(f"{earlier} {caller}" if acknowledges(caller) else caller)))
    cue = _pattern("background_cue")
    out = []
    for s in sentences(text):
        if not s.statement or len(s.words) < MIN_BACKGROUND_WORDS or not cue.search(s.text):
            continue
        rest = words(cue.sub(" ", s.text))
        if not (_words_of("you") & set(rest) or _form_set(content(rest)) & asked):
            out.append(s.text)
    return out


@dataclass(frozen=True)
class Said:
    """What one turn says that the listener did not need, by kind."""

    again: tuple[str, ...] = ()
    filler: tuple[str, ...] = ()
    background: tuple[str, ...] = ()

    @property
    def modes(self) -> list[str]:
        """EVA's failure modes of the kinds found (repetition and filler are both verbosity)."""
        out = ["verbosity_or_filler"] if self.again or self.filler else []
        return out + (["contextually_disproportionate_detail"] if self.background else [])

    def rated(self, counted: int) -> int:
        """EVA: one minor failure mode rates a turn 2, more rate it 1, counting distinct modes
        (said again and filler together are one); never above `counted`, the counts' rating."""
        return min(counted, max(1, 3 - len(self.modes)))

    def claim(self) -> str:
        out = [f"said again: {s!r}" for s in self.again] + [f"filler: {s!r}" for s in self.filler]
        return "; ".join(out + [f"background nobody asked for: {s!r}" for s in self.background])


def closing(line: str) -> bool:
    """A caller's line that asks nothing new (no question, no request): after it, the agent's
    turn before is the call's recap, the closing exchange a thanks and goodbye."""
    return not (is_question(line) or is_request(line))


def not_needed(
    text: str, previous: str, caller: str, wrap_up: bool, wrote: bool = False, earlier: str = ""
) -> Said:
    """The sentences of one agent turn a listener did not need: `previous` is the agent's
    previous turn, `caller` what the caller said in this one and `earlier` in the one before,
    `wrap_up` whether it is the call's wrap-up (`closing`), `wrote` whether a write tool was
    called in it."""
    return Said(
        again=tuple(said_again(text, previous, caller, wrap_up, wrote)),
        filler=tuple(filler(text)),
        background=tuple(background(text, caller, earlier)),
    )
