"""The agent asks about a thing one of the caller's facts names: its controls and faults.

A caller holding `laptop_size` is asked about the laptop. When what is asked is none of its
facts (the laptop's model, its serial number), "I don't have that" is no fault: the record must
pass (`none`). When what is asked is its fact (the laptop's size, the code of its manager's
authorisation), the same reply withholds it (`caller`). Three shapes, each a control and a
fault:

* `of`: the attribute in an "X of the Y" / "Y's X" phrase (`unheld_attribute_asked`); with a
  generic head word, "the serial number of the laptop" (`unheld_identifier_asked`, and its
  fault `withheld_identifier_asked`: "the auth code of your manager" for `manager_auth_code`);
* `which`: no such phrase, the thing named beside the question ("For the laptop, which model
  is it?"; `unheld_attribute_which` / `withheld_attribute_which`);
* `both`: the held field and an unheld attribute asked at once; answering the one and lacking
  the other is clean (`held_and_unheld_asked`), lacking both withholds (`withheld_held_and_unheld`).

Every thing, field and attribute comes from the scenario's own field names; an attribute is a
word of none of them. The wordings are the tables below.
"""

from __future__ import annotations

import random

from voxbench.eval.gateset._steps import (
    Injected,
    Injector,
    Party,
    given_facts,
    held_words,
    insert_exchange,
    mid_caller_lines,
    owner_words,
    reply_to,
)
from voxbench.eval.gateset.conversation import Line, RefConversation
from voxbench.eval.offline._caller_facts import field_words
from voxbench.eval.offline.lang import word_set

ATTRIBUTES = ("model", "colour", "brand", "manufacturer", "version")
"""Attributes of a thing a caller's fact names that no EVA goal holds for it."""
IDENTIFIERS = ("serial number", "asset tag", "model number", "part number", "tracking number")
"""Identifiers with a generic head word ("number"): the thing's, not the caller's field."""
UNHELD_REPLIES = (
    "I don't have that, sorry.",
    "I'm not sure, I don't have that information.",
    "I don't know that.",
)
WITHHOLDS = ("I don't have that with me right now.", "Sorry, I don't know it.", "I can't remember it, sorry.")
WITHHOLDS_BOTH = ("I don't have either of those, sorry.", "Sorry, I don't know any of that.")
OF_FRAMES = ("Thanks. And what's the {attr} of the {thing}?", "Okay. What's the {thing}'s {attr}?")
WHICH_FRAMES = (
    "For the {thing}, which {attr} is it?",
    "Okay, the {thing}. Do you know which {attr} it is?",
    "And the {thing}, which {attr} would that be?",
    "Got it. Which {attr} is your {thing}?",
)
BOTH_FRAMES = (
    "And what's your {field}, and the {attr} of the {thing}?",
    "Could you tell me the {field} and the {thing}'s {attr}?",
    "What's the {attr} of the {thing}, and its {head}?",
)
MODIFIERS = (
    "preferred",
    "new",
    "original",
    "desired",
    "current",
    "target",
    "start",
    "end",
    "effective",
    "latest",
    "required",
    "missed",
    "if",
    "asked",
    "requested",
    "maximum",
    "minimum",
    "old",
)
"""Words of a field name that qualify its thing rather than name one."""
PARTIAL_REPLIES = (
    "It's {value}. I don't have the {attr}, sorry.",
    "{value}, but I'm not sure about the {attr}.",
)

_GENERIC = word_set("_caller_facts", "generic_field")


def _insert(conv: RefConversation, rng: random.Random, ask: str, reply: str, what: str) -> Injected | None:
    """`ask` and the caller's `reply` after a mid-call caller line the agent answered."""
    return insert_exchange(conv, rng, [Line("agent", ask), Line("user", reply)], what)


def _things(conv: RefConversation) -> dict[str, list[str]]:
    """The caller's sayable facts whose field is a thing and its attribute, two words
    (`laptop_size`, `employee_id`): the thing neither generic ('first' of `first_name`) nor a
    modifier ('preferred' of `preferred_date`)."""
    out = {}
    for k in given_facts(conv):
        words = owner_words(k)
        if len(field_words(k)) == 2 and len(words) == 1 and not set(words) & (_GENERIC | set(MODIFIERS)):
            out[k] = words
    return out


def _unheld(conv: RefConversation, table: tuple[str, ...]) -> list[str]:
    """The entries of `table` whose distinctive words are none of the caller's field words."""
    held = held_words(conv)
    return [a for a in table if not (set(a.split()) - _GENERIC) & held and not set(a.split()) <= held]


def _unheld_asked(
    conv: RefConversation, rng: random.Random, table: tuple[str, ...], frames: tuple[str, ...]
) -> Injected | None:
    things, attrs = _things(conv), _unheld(conv, table)
    if not things or not attrs:
        return None
    name = rng.choice(sorted(things))
    thing, attr = rng.choice(things[name]), rng.choice(attrs)
    ask = rng.choice(frames).format(attr=attr, thing=thing)
    return _insert(conv, rng, ask, rng.choice(UNHELD_REPLIES), f"asked {ask!r} ({name} held)")


def unheld_attribute_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Another attribute of a thing a fact names, "X of the Y": "What's the model of the
    laptop?" with only `laptop_size` (its draws kept from before the other shapes, so its
    records stay the same)."""
    owners = {k: owner_words(k) for k in given_facts(conv)}
    names = [k for k, words in owners.items() if words]
    held = held_words(conv)
    attrs = [a for a in ATTRIBUTES if not set(a.split()) & held]
    cands = [i for i in mid_caller_lines(conv) if reply_to(conv, i) is not None]
    if not names or not attrs or not cands:
        return None
    i, name, attr = rng.choice(cands), rng.choice(names), rng.choice(attrs)
    thing = rng.choice(owners[name])
    ask = Line("agent", f"Thanks. And what's the {attr} of the {thing}?")
    steps = [*conv.steps[: i + 1], ask, Line("user", rng.choice(UNHELD_REPLIES)), *conv.steps[i + 1 :]]
    return Injected(conv.copy(steps), i + 1, f"asked the {attr} of the {thing} ({name} held)")


def unheld_identifier_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The thing's identifier, a generic head word ("the serial number of the laptop")."""
    return _unheld_asked(conv, rng, IDENTIFIERS, OF_FRAMES)


def unheld_attribute_which(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Another attribute asked without "of": "For the laptop, which model is it?"."""
    return _unheld_asked(conv, rng, ATTRIBUTES, WHICH_FRAMES)


def _head(name: str, thing: str) -> str:
    """The field's words without its thing ('size' of `laptop_size` and 'laptop')."""
    parts = [w for w in sorted(field_words(name), key=name.lower().find) if w != thing]
    return " ".join(parts)


def withheld_identifier_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A fact whose field ends in a generic word asked as "the X of the Y" ("the auth code of
    your manager" for `manager_auth_code`); the caller says it lacks it."""
    names = [
        k for k, w in _things(conv).items() if sorted(field_words(k), key=k.lower().find)[-1] in _GENERIC
    ]
    if not names:
        return None
    name = rng.choice(sorted(names))
    thing = rng.choice(owner_words(name))
    ask = rng.choice(("And what's the {attr} of your {thing}?", "Okay. What's your {thing}'s {attr}?"))
    ask = ask.format(attr=_head(name, thing), thing=thing)
    return _insert(conv, rng, ask, rng.choice(WITHHOLDS), f"asked {ask!r}, {name} withheld")


def withheld_attribute_which(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A fact asked as "which <its head>" beside its thing ("For the laptop, which size is it?")."""
    things = _things(conv)
    if not things:
        return None
    name = rng.choice(sorted(things))
    thing = rng.choice(things[name])
    ask = rng.choice(WHICH_FRAMES).format(attr=_head(name, thing), thing=thing)
    return _insert(conv, rng, ask, rng.choice(WITHHOLDS), f"asked {ask!r}, {name} withheld")


def _both(conv: RefConversation, rng: random.Random, withhold: bool) -> Injected | None:
    things, attrs, facts = _things(conv), _unheld(conv, ATTRIBUTES), given_facts(conv)
    if not things or not attrs:
        return None
    name = rng.choice(sorted(things))
    thing, attr = rng.choice(things[name]), rng.choice(attrs)
    field = " ".join(sorted(field_words(name), key=name.lower().find))
    ask = rng.choice(BOTH_FRAMES).format(field=field, attr=attr, thing=thing, head=_head(name, thing))
    reply = (
        rng.choice(WITHHOLDS_BOTH)
        if withhold
        else rng.choice(PARTIAL_REPLIES).format(value=facts[name], attr=attr)
    )
    what = f"asked {ask!r}; {'both withheld' if withhold else 'held one given'} ({name} held)"
    return _insert(conv, rng, ask, reply, what)


def held_and_unheld_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The held fact and an unheld attribute asked at once; the caller gives the one and says
    it lacks the other."""
    return _both(conv, rng, withhold=False)


def withheld_held_and_unheld(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The same question; the caller says it has neither."""
    return _both(conv, rng, withhold=True)


ASKED_FAULTS: dict[str, tuple[Party, Injector]] = {
    "unheld_attribute_asked": ("none", unheld_attribute_asked),
    "unheld_identifier_asked": ("none", unheld_identifier_asked),
    "withheld_identifier_asked": ("caller", withheld_identifier_asked),
    "unheld_attribute_which": ("none", unheld_attribute_which),
    "withheld_attribute_which": ("caller", withheld_attribute_which),
    "held_and_unheld_asked": ("none", held_and_unheld_asked),
    "withheld_held_and_unheld": ("caller", withheld_held_and_unheld),
}
