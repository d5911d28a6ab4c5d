"""The caller's facts: did it withhold one it was given when the agent asked for it?

`missing_information`: the agent asked for a fact the caller's instructions hold (the request
names the field: "confirmation number" for `Booking confirmation number`, or a synonym of its
words, "surname" for `last_name`; or it asks to choose among options one of which is the
caller's value) and the caller answered that it does not have it, does not know it or will not
say it. Its twin, a value the caller states that it was not given, is
`_caller_invented.invented_information`.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._caller_end import caller_turns, closing_question, ev
from voxbench.eval.offline._caller_offered import offered_field
from voxbench.eval.offline._caller_synonyms import in_field_words, named_fields
from voxbench.eval.offline._values import spoken_values, text_keys
from voxbench.eval.offline.lang import alt, word_set

_WITHHOLDS = re.compile(
    alt("_caller_facts", "withholds"),
    re.I,
)
_FIELD_STOP = word_set("_caller_facts", "field_stop")


def field_words(name: str) -> set[str]:
    """The words of a fact's field name (`Booking confirmation number`, `employee_id`), in the
    field's words of the synonym table as the agent's line is (`surname` -> "last name", `dob`
    -> "date of birth"), so a field named by a synonym is asked by that word too."""
    return set(_field_words(name))


@cache
def _field_words(name: str) -> frozenset[str]:
    # read as the caller's own ("your birthday"), so a synonym said only in a frame is read too
    text = in_field_words("your " + " ".join(re.split(r"[^a-z0-9]+", name.lower()))).removeprefix("your ")
    return frozenset(w for w in re.split(r"[^a-z0-9]+", text) if len(w) >= 2 and w not in _FIELD_STOP)


_GENERIC = word_set("_caller_facts", "generic_field")
_OTHER_PERSON = word_set("_caller_facts", "other_person")
_PERSONS = "|".join(sorted(_OTHER_PERSON))
# the other person owns what is asked: "your husband's flight", "the number of your husband"
_POSSESSOR = re.compile(rf"\b(?:{_PERSONS})(?:'|’)s\b|\bof (?:your|the|his|her|my) (?:{_PERSONS})\b", re.I)
# "his confirmation number": a third person's pronoun right before the field's words
_THIRD = "|".join(sorted(word_set("_caller_facts", "third_person_possessive")))
_THEIR = re.compile(rf"\b(?:{_THIRD})\s+([a-z]+(?:\s+[a-z]+){{0,5}})", re.I)
_OWN = frozenset({"your", "my"})


def _pronoun_owns(after: str, name: str) -> bool:
    """The words after "his" / "her" / "their" are the field's: its words (and "of": "date of
    birth") right after the pronoun, or after one adjective ("her new confirmation number");
    "her name and your booking number" gives her the name, not the booking."""
    own = field_words(name)
    words = after.lower().split()
    for start in (0, 1):
        if start and (words[0] in _OWN or words[0] in own):
            break
        run: list[str] = []
        for w in words[start:]:
            if w in own or w.removesuffix("s") in own or (run and w == "of"):
                run.append(w)
            else:
                break
        if run and asked_field(" ".join(run), {name: name}) == name:
            return True
    return False


def _other_owner(line: str, asks: str, name: str) -> bool:
    """The question makes another person the owner of the field: by a person's word in the line
    ("your husband's", "of your wife") or by a third person's pronoun right before the field's
    words in what the line asks (`asks`: "What is his confirmation number?"; the agent says
    "your" to the caller, and "I'll add her booking afterwards" asks nothing)."""
    if _POSSESSOR.search(line):
        return True
    return any(_pronoun_owns(m.group(1), name) for m in _THEIR.finditer(asks))


def _whose_field(question: str, name: str, fields: dict[str, Any]) -> str | None:
    """The field a question asks for once its owner is read: "What is your spouse's date of
    birth?" (or "What is his date of birth?") names `date_of_birth` by its words, but makes another
    person the owner, so it asks for
    `dependent_date_of_birth` (the field of the same words plus a person's); when the caller holds
    no such field ("the confirmation number of your husband" and only `Your confirmation number`),
    it asks for nothing the caller holds (None)."""
    if field_words(name) & _OTHER_PERSON or not _other_owner(question, asking(question), name):
        return name
    own = field_words(name)
    theirs = [f for f in fields if field_words(f) & _OTHER_PERSON and field_words(f) - _OTHER_PERSON == own]
    return theirs[0] if len(theirs) == 1 else None


_PART_OF = word_set("_caller_facts", "part_of")
_NOT_ATTRIBUTE = word_set("_caller_facts", "not_attribute")
_ATTRIBUTE_OF = re.compile(r"\b((?:[a-z]+\s+)?[a-z]+)\s+of\s+(?:the|your|my|this|that|its)\s+[a-z]+")
_ATTRIBUTE_POSS = re.compile(r"\b(?=([a-z]+)(?:'|’)s\s+([a-z]+(?:\s+[a-z]+){0,2})\b)")
_ATTRIBUTE_WH = re.compile(rf"(?:{alt('_caller_facts', 'attribute_asked')})([a-z]+(?:\s+[a-z]+)?)\b")


def _attribute_heads(q: str) -> list[tuple[list[str], tuple[int, int]]]:
    """What a question asks about, as phrases: the X of "X of the Y", "Y's X", "which X" /
    "what's the X", "its X" (its words less stop and filler words) with where it stands. A
    "which X" whose X is the owner of a "Y's X" ("what's the laptop's model") is that phrase's."""
    out = []
    for rx in (_ATTRIBUTE_OF, _ATTRIBUTE_POSS, _ATTRIBUTE_WH):
        for m in rx.finditer(q):
            g = 2 if rx is _ATTRIBUTE_POSS else 1
            if rx is _ATTRIBUTE_POSS and m.group(1) in _NOT_ATTRIBUTE:
                continue  # "what's the model": no owner
            if rx is _ATTRIBUTE_WH and (
                re.match(r"(?:'|’)s\b", q[m.end(1) :]) or _relative_which(q, m.start())
            ):
                continue
            words = [w for w in m.group(g).split() if w not in _FIELD_STOP | _NOT_ATTRIBUTE]
            if words:
                out.append((words, m.span(g)))
    return out


_AUXILIARY = word_set("_caller_facts", "auxiliary")
_SUBJECT = word_set("_caller_facts", "subject_or_determiner")


def _relative_which(q: str, at: int) -> bool:
    """A "which" after a comma that starts a relative clause, not a question: a verb follows it
    ("staged, which preserves email", "which is not", "which resolved to") or a subject ("which
    I cannot"). A question's "which" has its noun, then a verb or a subject ("For the laptop,
    which model is it?"), or a verb and then its subject ("Okay, which is your date?")."""
    if not q.startswith("which", at) or not q[:at].rstrip().endswith(","):
        return False
    first, second, *_ = [*re.findall(r"[a-z']+", q[at + 5 : at + 60])[:2], "", ""]
    if first in _SUBJECT:
        return True
    if first in _AUXILIARY:
        return second not in _SUBJECT
    verb_like = first.endswith(("s", "ed")) and not first.endswith("ss")
    return verb_like and second not in _AUXILIARY | _SUBJECT


def _distinct(head: list[str]) -> list[str]:
    """A phrase's distinctive words: no generic word, and no part word at its end ("the part
    number" is an identifier, "which part" a part)."""
    return [w for w in head[:-1] if w not in _GENERIC] + [
        w for w in head[-1:] if w not in _GENERIC | _PART_OF
    ]


def _asks_field(head: list[str], own: set[str]) -> bool:
    """A phrase asks for the field: a part of something ("the last four digits"), or its
    distinctive words (those no generic word) are the field's; with none, its generic ones are
    ("the number of your booking" may ask for `booking_reference`, "the serial number" not)."""
    if head[-1] in _PART_OF - _GENERIC:
        return True
    return any(w in own or w.removesuffix("s") in own for w in _distinct(head) or head)


def other_attribute(question: str, name: str) -> bool:
    """Whether the question asks for another attribute of the thing `name` names (see
    `other_attributes`)."""
    return bool(other_attributes(question, name))


def other_attributes(question: str, name: str) -> list[str]:
    """The question asks for another attribute of the thing a field names, not the field: "the
    model of the laptop", "the laptop's model", "the serial number of the laptop", "For the
    laptop, which model is it?" for `laptop_size` name the laptop, but ask for something else.
    Said when the question names a word of the field, asks about a phrase of a distinctive word
    (none generic, a part or a field word), asks about no phrase of the field's ("... and its
    size?") and does not name the whole field beside it ("your laptop size and its model").
    Live, a caller asked the model of its laptop, with only its size, said "I don't have that"
    and the call was discarded as its fault. Returns those phrases (empty: the field is asked)."""
    q = question.lower()
    own = field_words(name)
    heads = _attribute_heads(q)
    if any(_asks_field(h, own) for h, _ in heads):
        return []
    other = [span for h, span in heads if _distinct(h)]
    if not other:
        return []
    rest = "".join(" " if any(a <= k < b for a, b in other) else c for k, c in enumerate(q))
    said = {w.removesuffix("s") for w in re.findall(r"[a-z0-9]+", rest)} | set(re.findall(r"[a-z0-9]+", rest))
    named = bool(own & said) and not own <= said
    return [" ".join(h) for h, _ in heads if _distinct(h)] if named else []


def asked_field(question: str, fields: dict[str, Any]) -> str | None:
    """The caller's fact the agent's line asks for: the field whose distinctive name words it
    says (half of them at least: "building" for `delivery_building`), or, for a field named
    only by generic words (`last_name`), all of them; None when it names none."""
    words = set(re.findall(r"[a-z0-9]+", question.lower()))
    best: tuple[int, str] | None = None
    for name, value in fields.items():
        if not isinstance(value, str | int | float) or isinstance(value, bool) or not str(value).strip():
            continue
        fw = field_words(name)
        distinct = fw - _GENERIC
        hit = len(fw & words)
        ok = len(distinct & words) * 2 >= len(distinct) > 0 if distinct else bool(fw) and fw <= words
        if ok and (best is None or hit > best[0]):
            best = (hit, name)
    return best[1] if best else None


_ASKS = re.compile(rf"(?:^|,\s*)(?:{alt('_caller_facts', 'asks_opener')})\b", re.I)
_CONFIRM_Q = re.compile(rf"\b(?:{alt('_caller_facts', 'confirm_q')})\b", re.I)
_REQUEST_Q = re.compile(rf"\b(?:{alt('_caller_facts', 'request_q')})", re.I)


def asking(text: str) -> str:
    """The part of an agent line that asks for something: its questions and requests ('Please
    provide ...'), so a field it only states ('I'll check the free desks on floor 3 of Harbor
    Building.') is not read as asked (live, a caller asked for a desk code it lacks was discarded
    as withholding its building). A confirmation question ('Is that correct?') asks about what
    the line read back: then the whole line."""
    asks = _asks(text)
    return text if any(_CONFIRM_Q.search(s) for s in asks) else " ".join(asks)


def _sentences(text: str) -> list[str]:
    """A line's sentences ('I.D. you want' is no sentence end: the next word is small)."""
    return re.split(r"(?<=[.!?])\s+(?=[A-Z\"“])", text.strip())


def _is_ask(sentence: str) -> bool:
    return sentence.rstrip().endswith("?") or bool(_ASKS.search(sentence))


def _asks(text: str) -> list[str]:
    """The sentences that ask."""
    return [s for s in _sentences(text) if _is_ask(s)]


def holds(text: str, value: str) -> bool:
    """The line states `value` (written or spoken: "EMP204817" in "E M P two zero four ...")."""
    if re.search(rf"(?<!\w){re.escape(value.strip())}(?!\w)", text, re.I):
        return True
    keys = text_keys(value)
    if keys and keys <= text_keys(text):
        return True
    digits = re.sub(r"\D", "", value)  # a date or number said digit by digit, in parts
    return len(digits) >= 6 and digits in "".join(
        re.findall(r"\d", " ".join(str(v.key[2:]) for v in spoken_values(text) if v.kind in "nc"))
    )


def _unsaid_field(question: str, fields: dict[str, Any], said: list[str]) -> str | None:
    """The fact a question asks for when it names none distinctly: the one fact, not yet said
    by the caller, whose field name shares a word with the question ("What date
    would you like?" for `date_constraint_earliest_departure`; "Could I get your ID?" for
    `employee_id`); of several, the one all of whose words the question says, a word by its stem
    ("What date would you prefer?" for `preferred_date`). A field the synonym table knows, named
    whole ("date of birth"), is what is asked: no fact missing one of its words fits. None when
    no such fact, or more than one, fits."""
    words = set(re.findall(r"[a-z0-9]+", question.lower()))
    words |= {w[:-1] for w in words if w.endswith("s") and not w.endswith("ss")}  # "what dates ...?"
    fits = [
        name for name, value in fields.items()
        if isinstance(value, str | int | float) and not isinstance(value, bool) and len(str(value)) >= 3
        and field_words(name) & words and not any(holds(x, str(value)) for x in said)
    ]  # fmt: skip
    named = named_fields(question)  # "your date of birth" asks for no `Travel date`
    fits = [name for name in fits if all(n <= field_words(name) for n in named)]
    if len(fits) > 1:  # "What date would you prefer?": the one fact all of whose words it says
        fits = [name for name in fits if all(_says_word(w, words) for w in field_words(name))]
    return fits[0] if len(fits) == 1 else None


_INFLECTION = ("s", "es", "d", "ed", "red", "ing")


def _says_word(word: str, words: set[str]) -> bool:
    """A field's word is said as itself or its stem ("prefer" for "preferred")."""
    return word in words or any(
        len(q) >= 4 and word.startswith(q) and word[len(q) :] in _INFLECTION for q in words
    )


def _head_of_named(line: str, fields: dict[str, Any]) -> str | None:
    """The fact a question asks by its head word alone ("Do you know which ID it is?") after
    the sentence just before it, one that does not ask, named its thing ("Okay, the
    employee."): the field that sentence names, when the question's "which X" / "X of" / "its
    X" holds a word of the field's that is no part word ("which one", "the second one" ask for
    one of the things listed, not a field). A generic head word ("ID") counts only so, beside
    the distinctive words the sentence before named; a field the line names elsewhere does not."""
    sentences = _sentences(line)
    for before, question in pairwise(sentences):
        if not _is_ask(question) or _is_ask(before) or (name := asked_field(before, fields)) is None:
            continue
        own = field_words(name)
        if not own - _GENERIC:
            continue  # a field of generic words only (`first_name`): a generic head alone names nothing
        if any(
            w in own or w.removesuffix("s") in own
            for head, _ in _attribute_heads(question.lower())
            for w in head
            if w not in _PART_OF - _GENERIC
        ):
            return name
    return None


def _turn_before(agent: dict[int, str], asked: int) -> str:
    """The agent's turn before turn `asked` (options read out before a choice question)."""
    before = max((t for t in agent if t < asked), default=None)
    return agent[before] if before is not None else ""


def missing_information(ctx: ConversationContext) -> list[dict[str, Any]]:
    fields = ctx.user_goal.get("information_required") or {}
    if not isinstance(fields, dict) or not fields:
        return []
    said_by_agent = {t: strip_tags(x) for t, x in ctx.intended_assistant_turns.items() if x.strip()}
    agent = {t: in_field_words(x) for t, x in said_by_agent.items()}  # "surname" -> "last name"
    callers = caller_turns(ctx)
    out: list[dict[str, Any]] = []
    for turn, text in callers.items():
        asked = max((t for t in agent if t < turn), default=None)
        if asked is None or "?" not in agent[asked] or not _WITHHOLDS.search(text):
            continue
        said = [x for t, x in callers.items() if t < turn]  # an option the agent read out is still held
        last = (_asks(agent[asked]) or [""])[-1].lower()  # 'If so, please read me the six-digit code.'
        name = (
            asked_field(asking(agent[asked]), fields)
            or _unsaid_field(last, fields, said)
            or _head_of_named(agent[asked], fields)
            or offered_field(agent[asked], _turn_before(agent, asked), fields, holds)
        )
        if name is not None and (others := other_attributes(asking(agent[asked]) or last, name)):
            # asked for something else of the thing the field names: withholding only when that
            # is another of its facts ("for the laptop, which building?" and `delivery_building`)
            # (none of them held: no field asked, but the line may still ask for the caller's request)
            name = asked_field(" ".join(others), {k: v for k, v in fields.items() if k != name})
        name = _whose_field(agent[asked], name, fields) if name is not None else None
        if name is None and _REQUEST_Q.search(closing_question(agent[asked])):
            out.append(ev(turn, f"agent asked {said_by_agent[asked][-100:]!r}; caller: {text[:100]!r}",
                          "caller withheld its request when asked for it"))  # fmt: skip
            continue
        if name is None or holds(text, str(fields[name])):
            continue
        out.append(
            ev(
                turn,
                f"agent asked {said_by_agent[asked][-100:]!r}; caller: {text[:100]!r}; its facts hold {name!r}",
                "caller withheld a fact its instructions give it",
            )
        )
    return out
