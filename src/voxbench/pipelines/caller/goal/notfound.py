"""A report that the agent found nothing under the values the caller gave ("I couldn't find a
reservation under that code and last name."): the caller gives those values again, each name
spelled letter by letter, as a person does when a lookup fails and as EVA's simulated users are
told to ("repeat it even slower and spell it out ... one character at a time").

A name is the value most likely misheard: a code is said spelled already, a name is said as a word
the recogniser may write several ways ('Lima', 'Leema'). A caller that only repeats the code it was
last asked for, or asks for "another way", leaves the agent where it was (live, twice in one call).

Which values: the facts the not-found sentence names by their field's words (:func:`.asks.asked_facts`),
by their value, or by a head noun one given fact has ('that code'), among those the caller has given; a turn that also asks for a fact, offers a
transfer or options, or reads a value back wrong is answered by those rules instead. Once said
again (so, or each value twice in any act), the same values not found again are the refusal
standing (the tree's push-back, then goodbye): spelling a name is done once, as EVA's users do
("ONLY ... the first time").
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import HEADS, FactBook
from voxbench.pipelines.caller.goal.framing import NAME_KEEPERS
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.rules import NOT_FOUND_GIVES_AGAIN
from voxbench.pipelines.caller.goal.say import FactSayer, letters_of
from voxbench.spoken import mentions, sentences_of, tokens

NOT_FOUND = re.compile(rf"(?:{alt('notfound', 'cue')})", re.I)


def not_found_keys(text: str, heard: Heard, book: FactBook, given: set[str]) -> list[str]:
    """The given facts a not-found report names (in the caller's book order), two or more or a
    person's name among them; [] when the turn is no such report, or asks, offers or reads back
    something the other rules answer. One code not found is a refusal (the tree's push-back)."""
    if heard.asked or heard.readback_wrong or heard.options or heard.has("transfer_offer"):
        return []
    said = [s for s in sentences_of(text) if NOT_FOUND.search(s)]
    if not said:
        return []
    named: set[str] = set()
    for s in said:
        named |= {k for k, _ in asked_facts(s, book, given=set(), context="")}
        named |= {f.key for f in book if f.matchable and any(mentions(s, v) for v in f.values())}
        for head in set(tokens(s)) & HEADS:  # 'that code': the one given fact of that head
            of = [f.key for f in book if f.key in given and head in f.heads]
            named |= set(of) if len(of) == 1 else set()
    keys = [f.key for f in book if f.key in named and f.key in given]
    several = len(keys) >= 2 or any(_person_name(f.words) for k in keys if (f := book.get(k)) is not None)
    return keys if several else []


def given_again(keys: list[str], say: FactSayer, phr: Phrasing) -> str:
    """The values again, each person's name then spelled: 'The confirmation code is Z K three F F W.
    The last name is Lima. Lima is spelled L I M A.' (said again: 'As I said, ...', :mod:`.stall`)."""
    out = [say.answer(keys)]
    for k in keys:
        f = say.book.get(k)
        value = str(f.value).strip() if f is not None else ""
        letters = letters_of(value)
        if f is None or not letters or not _person_name(f.words):
            continue
        out.append(phr.say("spelled_name", value=value, Value=value[:1].upper() + value[1:], letters=letters))
    return " ".join(out)


def given_twice(keys: list[str], acts: list[CallerAct]) -> bool:
    """Every one of the values said twice already (given, then again after a failed lookup or a
    request), or said again by this rule: the same report now is the refusal standing."""
    again = any(a.rule == NOT_FOUND_GIVES_AGAIN and set(keys) <= set(a.facts) for a in acts)
    return again or all(sum(k in a.facts for a in acts) >= 2 for k in keys)


def _person_name(words: tuple[str, ...]) -> bool:
    """A person's name ('last_name', 'passenger_first_name'), not a thing's ('license_product_name_trial')."""
    return bool(words) and words[-1] == "name" and (len(words) == 1 or words[-2] in NAME_KEEPERS)
