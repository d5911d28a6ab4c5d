"""Two ways an agent asks for a caller's fact without its field's words: controls and faults.

* `offered`: the agent lists options and asks "Which one would you like?". When one option is
  the caller's own value (its goal's date, duration, code), "I'm not sure" withholds it
  (`withheld_offered_value`, `caller`); when none is, the same reply is no fault
  (`unheld_offered_value`, `none`). The list is in the question's line, or in the agent's line
  before it with a caller's "Okay." between.
* `synonym`: the agent asks by another word for the field's words ("What's your surname?" for
  `last_name`, "your DOB" for `date_of_birth`: the synonym table in `offline/lang/en.json`).
  Asked for a field the caller holds, "I don't have that" withholds it
  (`withheld_synonym_asked`); asked for one it holds no field of, the reply is no fault
  (`unheld_synonym_asked`).

The options other than the caller's value are made up in its shape (a date a few days off, a
code's characters redrawn). The wordings are the tables below, written with the rules known.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string

from voxbench.eval.gateset._steps import Injected, Injector, Party, given_facts, insert_exchange
from voxbench.eval.gateset.conversation import Line, RefConversation
from voxbench.eval.offline._caller_facts import asked_field, field_words
from voxbench.eval.offline.lang import tables

LIST_FRAMES = (
    "I have {opts} available. Which one would you like?",
    "The options are {opts}. Which would you like?",
    "I can offer {opts}. Which one works for you?",
)
LIST_ONLY = ("I have {opts} available.", "The options I can offer are {opts}.")
THEN_ASK = ("Which one would you like?", "Which of those would you like?")
ACKS = ("Okay.", "Hmm, let me think.", "I see.")
CHOICE_WITHHOLDS = (
    "I'm not sure, sorry.",
    "I don't know.",
    "Hmm, I don't know which.",
    "I'd rather not say.",
)
SYNONYM_FRAMES = (
    "Thanks. And what's your {syn}?",
    "Could you give me your {syn}, please?",
    "Okay. Can I have your {syn}?",
)
WITHHOLDS = ("I don't have that with me right now.", "Sorry, I don't know it.", "I can't remember it, sorry.")
UNHELD_REPLIES = ("I don't have that, sorry.", "I'm not sure, I don't have that information.")


def _alike(value: str, rng: random.Random) -> str:
    """Another value of `value`'s shape: an ISO date 1-20 days off, a clock time at another
    hour, else its digits and letters redrawn."""
    if m := re.fullmatch(r"(\d{1,2}):(\d{2})(\s*[AaPp]\.?[Mm]\.?)?", value.strip()):
        hour = rng.choice([h for h in range(1, 13) if h != int(m[1])])
        return f"{hour}:{m[2]}{m[3] or ''}"
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        pass
    else:
        return (day + dt.timedelta(days=rng.choice((-1, 1)) * rng.randint(1, 20))).isoformat()
    out = "".join(
        rng.choice(string.digits) if c.isdigit() else rng.choice(string.ascii_uppercase) if c.isalpha() else c
        for c in value
    )
    return out if out != value else _alike(value, rng)


def _options(conv: RefConversation, rng: random.Random, own: bool) -> tuple[str, str] | None:
    """(the field, "A, B, or C"): three options of one of the caller's facts' shape, one of
        them its value when `own`. Facts with a digit only (dates, times, amounts, codes), and no
    comma (a value "June 14, 1995" is no item of a comma list)."""
    facts = {k: v for k, v in given_facts(conv).items() if any(c.isdigit() for c in v) and "," not in v}
    if not facts:
        return None
    name = rng.choice(sorted(facts))
    value = facts[name]
    others: list[str] = []
    while len(others) < (2 if own else 3):
        x = _alike(value, rng)
        if x not in others and x not in facts.values():
            others.append(x)
    opts = [*others, value] if own else others
    rng.shuffle(opts)
    return name, f"{', '.join(opts[:-1])}, or {opts[-1]}"


def _offered(conv: RefConversation, rng: random.Random, own: bool) -> Injected | None:
    got = _options(conv, rng, own)
    if got is None:
        return None
    name, opts = got
    reply = Line("user", rng.choice(CHOICE_WITHHOLDS))
    if rng.random() < 0.5:
        lines = [Line("agent", rng.choice(LIST_FRAMES).format(opts=opts)), reply]
    else:
        lines = [Line("agent", rng.choice(LIST_ONLY).format(opts=opts)), Line("user", rng.choice(ACKS)),
                 Line("agent", rng.choice(THEN_ASK)), reply]  # fmt: skip
    what = f"offered {opts} ({name} {'among them' if own else 'not among them'}); caller: {reply.text!r}"
    return insert_exchange(conv, rng, lines, what)


def withheld_offered_value(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Options holding the caller's value, "Which one would you like?", "I'm not sure"."""
    return _offered(conv, rng, own=True)


def unheld_offered_value(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Options none of which is the caller's value, the same question and reply."""
    return _offered(conv, rng, own=False)


def _synonyms() -> dict[str, list[str]]:
    return dict(tables().phrases.get("_caller_synonyms", {}))


def _synonym_asked(conv: RefConversation, rng: random.Random, held: bool) -> Injected | None:
    """A synonym of a field's words the caller holds (`held`) or holds no field of."""
    facts = given_facts(conv)
    info = conv.goal.get("information_required") or {}
    table = _synonyms()
    named = {words: asked_field(words, facts) for words in table}
    unheld = {  # no field of the caller's has all the words ("first name": no passenger_first_name)
        words for words in table
        if asked_field(words, info) is None and not any(set(words.split()) - {"of"} <= field_words(k) for k in info)
    }  # fmt: skip
    cands = sorted(w for w in table if (named[w] is not None if held else w in unheld))
    if not cands:
        return None
    words = rng.choice(cands)
    # a synonym said only in a frame ("{possessive} birthday"): each frame says "your" before it
    syn = re.sub(r"^\{\w+\}\s+", "", rng.choice(table[words]))
    ask = rng.choice(SYNONYM_FRAMES).format(syn=syn)
    reply = rng.choice(WITHHOLDS if held else UNHELD_REPLIES)
    what = f"asked {ask!r} ({named[words]} held)" if held else f"asked {ask!r} (no field of {words!r} held)"
    return insert_exchange(conv, rng, [Line("agent", ask), Line("user", reply)], what)


def withheld_synonym_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A held fact asked by a synonym of its field's words ("your surname"); the caller lacks it."""
    return _synonym_asked(conv, rng, held=True)


def unheld_synonym_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A synonym of a field the caller does not hold ("your DOB" with no date of birth)."""
    return _synonym_asked(conv, rng, held=False)


OFFERED_FAULTS: dict[str, tuple[Party, Injector]] = {
    "withheld_offered_value": ("caller", withheld_offered_value),
    "unheld_offered_value": ("none", unheld_offered_value),
    "withheld_synonym_asked": ("caller", withheld_synonym_asked),
    "unheld_synonym_asked": ("none", unheld_synonym_asked),
}
