"""Weak-agent request turns in EVA's own words: agent turns of the *other* domains' reference
conversations (leave-one-domain-out), picked by the trace's structure, said again in every scenario
with that scenario's own fact values and field names (:mod:`.transplant`).

The request classes of :mod:`.weak_turns` (several values read back, whose fact is asked, offers)
are the bench's templates: a caller reading written on them passes them and meets real agents'
wordings it was never tried on (issue 29: four such readings each lifted their classes and lost a
real test-half turn). Here the wording is the reference agents', picked by structure alone (no word
list, no turn read):

* an *ask*: a turn that asks (:func:`.reference.asks`) after which the reference caller disclosed
  goal facts whose fields the turn names (:func:`.reference.names_fact`), none of them another
  person's; a *whose* ask: the same where one is another person's (an owner phrase in its key,
  :func:`.weak_whose.owner`: "the new hire's employee I D");
* a *read-back*: a yes/no question (:func:`.reference.yes_no_question`) that says values of facts
  the reference caller had disclosed before, answered yes, asking for no new fact;
* an *offer*: options offered (:func:`.reference.offered_options`, no clock times) from which the
  reference caller chose the one holding its own fact's value, the turn naming that fact's field.

Each turn is said again in a scenario of another domain of its half: every fact of the source
that it says or names is given a fact of the target of the same value kind (another person's for
another person's; the same label first, then the same last word, then by a hash), and each value
and field name is replaced by the target's. The classes and the act expected:

* ``ref_ask_named`` / ``ref_ask_whose``: the facts asked are given (``facts``; whose: never the
  caller's own fact of the field nor a third person's);
* ``ref_readback_right``: the values right: a yes; ``ref_readback_changed``: one changeable value
  changed (:func:`.weak_facts.changed`): a no with its own value (``correct``);
* ``ref_offer_taken``: the option holding the caller's value (the others: another value of its
  kind, or the source's own other options when the kind has no other value, 'read only,
  standard'): named by the reply (``takes_option``, read by :func:`.options.chosen_option`).

A turn is dropped for a scenario, and counted by reason (:class:`Made`), when it cannot be said
faithfully: a source value of no fact of the target's kind, a value or field not found, two
fields of one key, a source value left after the rewrite, a target field not named by it. Per
scenario, class and source domain, up to :data:`PER` turns in an order fixed by a hash (no seed).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from voxbench.bench.matcher import facts_said
from voxbench.bench.options import chosen_option
from voxbench.bench.reference import BYE, offered_options, reply_polarity
from voxbench.bench.weak_facts import Leaf, changed, said
from voxbench.bench.weak_item import WeakItem, digest, half
from voxbench.bench.weak_refharvest import RefAsk, harvest
from voxbench.bench.weak_refsay import Said, say_in
from voxbench.bench.weak_reftarget import Target, map_facts, sort_of
from voxbench.bench.weak_whose import of_field
from voxbench.scenarios import Scenario

KINDS = ("ask", "whose", "readback", "offer")
ACTS = {"ref_ask_named": "facts", "ref_ask_whose": "facts", "ref_readback_right": "yes",
        "ref_readback_changed": "correct", "ref_offer_taken": "takes_option"}  # fmt: skip
OPTION_ACTS = frozenset({"takes_option"})
"""The acts :func:`problem` reads (the others are :mod:`.weak_check`'s)."""
PER = 2
"""Items per scenario, class and source domain."""
TRIES = 10
"""Source turns tried per scenario, kind and source domain before giving up."""


class RefItem(NamedTuple):
    item: WeakItem
    source: str
    """The domain the graded turn's wording comes from."""
    origin: str = ""
    """The reference turn it was said from ('medical_hr/D5.3#3': its scenario and place in the pool)."""


class Made(NamedTuple):
    items: list[RefItem]
    dropped: Counter[tuple[str, str]]
    """(kind, reason) -> source turns tried and not said faithfully."""


def _alternatives(g: Leaf, n: int, taken: set[str]) -> list[str] | None:
    """``n`` other values of the fact's kind, each none of the caller's (None when its kind has none)."""
    out: list[str] = []
    cur = g
    for _ in range(n):
        v = changed(cur, taken | set(out))
        if v is None:
            return None
        out.append(v)
        cur = Leaf(key=g.key, value=v, words=g.words, kind=g.kind)
    return out


def _offer_words(src: RefAsk, t: Target, salt: str) -> list[str] | None:
    """New words of each option: the target's value for the chosen one, other values of its kind
    for the others (the source's own other options where its kind has none)."""
    mapped = map_facts([f for f in src.values if f.key == src.asked[0]], t, salt)
    if not mapped:
        return None
    g = mapped[src.asked[0]]
    alts = _alternatives(g, len(src.options) - 1, t.taken)
    rest = (
        [said(v) for v in alts]
        if alts is not None
        else [o for i, o in enumerate(src.options) if i != src.chosen]
    )
    return [*rest[: src.chosen], said(g.value), *rest[src.chosen :]]


def _items(src: RefAsk, t: Target, salt: str) -> list[tuple[str, WeakItem]] | str:
    """The items one source turn makes in the target (or why none)."""

    def item(cls: str, turn: str, must: list[str], must_not: list[str], not_offered: list[str] | None = None) -> tuple[str, WeakItem]:  # fmt: skip
        return cls, WeakItem(domain=t.domain, scenario_id=t.sid, half=t.half, cls=cls, act=ACTS[cls],
                             turn=turn, must=must, must_not=must_not, not_offered=not_offered or [])  # fmt: skip

    if src.kind in ("ask", "whose"):
        got = say_in(src, t, salt)
        if isinstance(got, str):
            return got
        must = [got.mapped[k].key for k in src.asked if k in got.mapped]
        if len(must) < len(src.asked):
            return "an asked fact unplaced"
        return [
            item(f"ref_ask_{'whose' if src.kind == 'whose' else 'named'}", got.text, must, _mates(t, must))
        ]
    if src.kind == "readback":
        got = say_in(src, t, salt)
        if isinstance(got, str):
            return got
        out = [item("ref_readback_right", got.text, [], [])]
        said_values = [got.mapped[f.key] for f in src.values if f.key in got.mapped]
        can = [g for g in said_values if changed(g, t.taken) and sort_of(g).endswith("/held")]
        if can:
            g = min(can, key=lambda x: digest(salt, "wrong", x.key))
            bad = say_in(src, t, salt, wrong=g.key)
            if isinstance(bad, Said):
                out.append(item("ref_readback_changed", bad.text, [g.key], _mates(t, [g.key])))
        return out
    words = _offer_words(src, t, salt)
    if words is None:
        return "no fact of its kind"
    got = say_in(src, t, salt, options=words)
    if isinstance(got, str):
        return got
    key = got.mapped[src.asked[0]].key
    new = [o for o in offered_options(got.text) if not o.startswith("time:")]
    if len(new) != len(words) or chosen_option(words[src.chosen], new, got.text) != src.chosen:
        return "options not read back"
    if key not in facts_said(new[src.chosen], t.goal):
        return "options not read back"
    return [
        item(
            "ref_offer_taken",
            got.text,
            [],
            _mates(t, [key]),
            [o for i, o in enumerate(new) if i != src.chosen],
        )
    ]


def _mates(t: Target, must: list[str]) -> list[str]:
    """Facts a reply must not give for those asked: another person's of their field, the caller's
    own of another person's field (:func:`.weak_whose.of_field`)."""
    asked = [f for f in t.facts if f.key in must]
    return sorted({o.key for f in asked for o in t.facts if o.key not in must and of_field(f, o)})


def items_of(domain: str, scenario: Scenario, pool: list[RefAsk]) -> Made:
    """Every item of one scenario, its wordings from the other domains' turns of ``pool`` of the
    scenario's own half (a dev item never shows a test conversation's words)."""
    t = Target(domain, scenario)
    out: list[RefItem] = []
    dropped: Counter[tuple[str, str]] = Counter()
    mine = [p for p in pool if half(p.domain, p.scenario_id) == t.half and p.domain != domain]
    for src_domain in sorted({p.domain for p in mine}):
        for kind in KINDS:
            cands = sorted((p for p in mine if p.domain == src_domain and p.kind == kind),
                           key=lambda p: digest(t.sid, kind, p.text))  # fmt: skip
            made = 0
            for p in cands[:TRIES]:
                got = _items(p, t, digest(t.sid, p.text)[:12])
                if isinstance(got, str):
                    dropped[(kind, got)] += 1
                    continue
                out += [RefItem(x, src_domain, f"{p.domain}/{p.scenario_id}#{pool.index(p)}") for _, x in got]
                made += 1
                if made == PER:
                    break
    return Made(out, dropped)


def generate_all(scenarios: list[tuple[str, Scenario]], pool: list[RefAsk] | None = None) -> Made:
    """Every item of every scenario (``pool``: every scenario's reference turns,
    :func:`.weak_refharvest.harvest`, collected here unless the caller has it already)."""
    pool = harvest(scenarios) if pool is None else pool
    items: list[RefItem] = []
    dropped: Counter[tuple[str, str]] = Counter()
    for d, sc in scenarios:
        made = items_of(d, sc, pool)
        items += made.items
        dropped += made.dropped
    return Made(items, dropped)


def problem(item: WeakItem, reply: str, ends_call: bool) -> str:
    """Why the reply does not take the offered option holding its value ('' when it does)."""
    if ends_call or BYE.search(reply):
        return "hung up"
    options = [o for o in offered_options(item.turn) if not o.startswith("time:")]
    want = [i for i, o in enumerate(options) if o not in item.not_offered]
    got = chosen_option(reply, options, item.turn)
    if got is None:
        return f"named no option ({reply_polarity(reply) or 'no polarity'})"
    return "" if [got] == want else f"chose another option ({options[got]})"
