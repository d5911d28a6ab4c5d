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
from collections.abc import Iterable
from typing import NamedTuple

from voxbench.bench.matcher import MONTHS, GoalFact, facts_said, goal_facts, key_words, words_of
from voxbench.bench.options import chosen_option
from voxbench.bench.reference import (
    BYE,
    asks,
    names_fact,
    offered_options,
    reference_turns,
    reply_polarity,
    yes_no_question,
)
from voxbench.bench.refused import refused_facts
from voxbench.bench.transplant import (
    Edit,
    Span,
    Tok,
    determined,
    field_spans,
    label_before,
    rewrite,
    spelled_run,
    tokens,
    value_spans,
    with_owner,
    with_year,
)
from voxbench.bench.weak_facts import Leaf, changed, leaves, said, table
from voxbench.bench.weak_item import WeakItem, digest, half
from voxbench.bench.weak_several import spelled
from voxbench.bench.weak_whose import of_field, owner, whose_words
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

KINDS = ("ask", "whose", "readback", "offer")
ACTS = {"ref_ask_named": "facts", "ref_ask_whose": "facts", "ref_readback_right": "yes",
        "ref_readback_changed": "correct", "ref_offer_taken": "takes_option"}  # fmt: skip
OPTION_ACTS = frozenset({"takes_option"})
"""The acts :func:`problem` reads (the others are :mod:`.weak_check`'s)."""
PER = 2
"""Items per scenario, class and source domain."""
TRIES = 10
"""Source turns tried per scenario, kind and source domain before giving up."""
_TEXT_WORDS = 3
"""A text value of more words than this is prose, not a value a turn reads or offers."""
_SPELLED = ("code", "name")
_MONEY = "$€£"


class RefAsk(NamedTuple):
    """One reference agent turn picked by structure, with what it says of its caller's facts."""

    domain: str
    scenario_id: str
    kind: str
    text: str
    values: list[Leaf]
    """Facts whose values the turn says."""
    named: list[Leaf]
    """Facts whose fields the turn names, values unsaid."""
    asked: list[str]
    """ask / whose: keys the reference caller gave; offer: the chosen option's fact."""
    options: list[str]
    chosen: int
    unplaced: list[str]
    """Values the turn says of facts no leaf holds (prose, lists, e-mail): it cannot be rewritten."""
    goal: list[GoalFact]
    """The source caller's goal facts: none may be left in a rewritten turn."""
    at: dict[str, list[tuple[Span, Span | None]]]
    """Each said fact's value spans, with its label's before it (:mod:`.transplant`)."""
    fields: dict[str, list[Span]]
    """Each named fact's (and an offer's chosen fact's) field spans."""


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


def _leaves(scenario: Scenario) -> list[Leaf]:
    return [f for f in leaves(scenario.user_goal.information_required, set(table().label_drop))
            if f.kind != "text" or len(f.value.split()) <= _TEXT_WORDS]  # fmt: skip


def kind_of(agent: str, reply: str, facts: list[GoalFact], by_key: dict[str, Leaf], told: set[str]) -> tuple[str, list[str], list[str], int]:  # fmt: skip
    """(kind, asked keys, options, chosen index) of one reference agent turn ('' when none)."""
    gave = facts_said(reply, facts, agent) if reply else []
    asking = [s for s in sentences_of(agent) if asks(s)]  # named where it asks, not in a statement
    asked = [k for k in gave if any(names_fact(s, k) for s in asking)]
    if asked and asks(agent):
        whose = any(k in by_key and owner(by_key[k])[0] for k in asked)
        return ("whose" if whose else "ask"), asked, [], -1
    options = [o for o in offered_options(agent) if not o.startswith("time:")]
    chosen = chosen_option(reply, options, agent) if options and reply else None
    if chosen is not None:
        held = facts_said(options[chosen], facts)
        if len(held) == 1 and held[0] in by_key and names_fact(agent, held[0]):
            return "offer", held, options, chosen
        return "", [], [], -1
    said = facts_said(agent, facts)
    if said and set(said) <= told and not gave and yes_no_question(agent) and reply_polarity(reply) == "yes":
        return "readback", [], [], -1
    return "", [], [], -1


def harvest(scenarios: Iterable[tuple[str, Scenario]]) -> list[RefAsk]:
    """Every reference agent turn of a kind, once per wording."""
    out: dict[tuple[str, str], RefAsk] = {}
    for domain, sc in scenarios:
        facts = goal_facts(sc.user_goal.information_required)
        by_key = {f.key: f for f in _leaves(sc)}
        opening, turns = reference_turns(sc)
        told = set(facts_said(opening or "", facts))
        for agent, reply in turns:
            kind, asked, options, chosen = kind_of(agent, reply, facts, by_key, told)
            told |= set(facts_said(reply, facts)) if reply else set()
            if not kind or (kind, agent.strip()) in out:
                continue
            text = agent.strip()
            said = facts_said(text, facts)
            named = [by_key[k] for k in by_key if k not in said and names_fact(text, k)]
            toks = tokens(text)
            at = {
                g.key: _value_at(toks, g, by_key[g.key]) for g in facts if g.key in said and g.key in by_key
            }
            fields = {k: [with_owner(toks, s) for s in field_spans(toks, k)]
                      for k in [f.key for f in named] + asked[:1] * (kind == "offer")}  # fmt: skip
            out[(kind, text)] = RefAsk(domain, sc.id, kind, text, [by_key[k] for k in said if k in by_key],
                                       named, asked, options, chosen, [k for k in said if k not in by_key],
                                       facts, at, fields)  # fmt: skip
    return list(out.values())


def _value_at(toks: list[Tok], g: GoalFact, f: Leaf) -> list[tuple[Span, Span | None]]:
    """A said fact's value spans, each with its label's before it; a date only where it is said as
    one, a month named (its digits inside a code, 'S H F two zero two six zero nine one nine', are
    no date said), its year with it."""
    spans = value_spans(toks, g)
    if f.kind == "date":
        months = set(MONTHS)
        spans = [with_year(toks, v, f.value[:4]) for v in spans
                 if months & set(words_of(" ".join(t.text for t in toks[v.first : v.last])))]  # fmt: skip
    return [(v, label_before(toks, v, g.key)) for v in spans]


def counts(pool: list[RefAsk]) -> dict[tuple[str, str], int]:
    """(domain, kind) -> turns in the pool."""
    return dict(Counter((t.domain, t.kind) for t in pool))


class Target:
    """A scenario turns are said again in: its facts (those its tree refuses left out, as
    :class:`.weak_builder.Builder` does), the caller's own and other persons'."""

    def __init__(self, domain: str, scenario: Scenario) -> None:
        self.domain, self.sid, self.half = domain, scenario.id, half(domain, scenario.id)
        self.goal = goal_facts(scenario.user_goal.information_required)
        refused = refused_facts(scenario, self.goal)  # its tree refuses them: asked, not given
        self.facts = [f for f in _leaves(scenario) if f.key not in refused]
        self.taken = {f.value for f in self.facts}
        unique = [f for f in self.facts if not any(p.isdigit() for p in f.key.split("."))
                  and all(o.value != f.value and o.words != f.words for o in self.facts if o.key != f.key)]  # fmt: skip
        self.own = [f for f in unique if not owner(f)[0]]
        self.others = [f for f in unique if owner(f)[0]]


def sort_of(f: Leaf) -> str:
    """The value's sort a stand-in must share: its kind, money apart from codes, identifiers
    (:func:`_identifier`) and numbers of four digits or more as identifiers, shorter numbers as counts, codes of letters
    as words, and whether it is a wish or a limit (``report_not_held``
    words: 'desired', 'maximum') or a value the caller holds."""
    kind = f.kind
    if f.value[:1] in _MONEY:
        kind = "money"
    elif (kind == "code" and _identifier(f.value)) or (kind == "number" and len(f.value) >= 4):
        kind = "identifier"  # 'EMP092841', an NPI's ten digits, a phone number
    elif kind == "number":
        kind = "count"
    elif kind == "code":
        kind = "word"  # 'EMERGENCY', 'FL2', '14-inch': a short code names a thing, as a text does
    wish = bool(set(owner(f)[1]) & set(table().report_not_held))  # 'new hire' names whose, no wish
    return f"{kind}/{'wish' if wish else 'held'}"


def _identifier(value: str) -> bool:
    """A code that identifies a record ('EMP092841', 'ZK3FFW', 'KAFN-13R', '+1-206-555-0334'): five
    letters or digits or more, one a digit, no lower-case word; not 'FL2' or '14-inch'."""
    chars = [c for c in value if c.isalnum()]
    return len(chars) >= 5 and any(c.isdigit() for c in chars) and not any(c.islower() for c in chars)


def _fits(f: Leaf, g: Leaf) -> bool:
    """Whether ``g`` may stand in for ``f``: the same sort and whose (the caller's own or another
    person's); a count or a text, only with the same last label word ('days', 'type'): 'sixty
    days' said of an attendee count, or 'footrest' of an access level, is no turn an agent says."""
    if sort_of(f) != sort_of(g) or bool(owner(f)[0]) != bool(owner(g)[0]):
        return False
    return sort_of(f).split("/")[0] not in ("count", "text", "word") or f.words[-1:] == g.words[-1:]


def _map(src: list[Leaf], t: Target, salt: str) -> dict[str, Leaf] | None:
    """Each source fact -> a distinct target fact that may stand in for it (:func:`_fits`; the same
    label first, then the same last word, then by a hash), None when one has none."""
    out: dict[str, Leaf] = {}
    for f in sorted(src, key=lambda x: x.key):
        free = [g for g in [*t.own, *t.others] if _fits(f, g) and g not in out.values()]
        if not free:
            return None
        out[f.key] = min(free, key=lambda g: (g.words != f.words, g.words[-1:] != f.words[-1:],
                                              digest(salt, f.key, g.key)))  # fmt: skip
    return out


def field_label(f: Leaf) -> str:
    """How an agent names the fact: its label, another person's with its owner ('the new hire's ID')."""
    who, field = owner(f)
    words = " ".join("ID" if w == "id" else w for w in field)
    return f"{whose_words().persons[who].determiner} {who}'s {words}" if who else words


def _determiners() -> set[str]:
    """The words that say whose a field is before it ('your', 'the', 'his'): ``whose_<lang>.json``."""
    persons = whose_words().persons.values()
    return {p.determiner for p in persons} | {p.pronoun for p in persons}


def _value(f: Leaf, value: str, toks: list[Tok], span: Span) -> str:
    """A target value as the source said its own: spelled where the source spelled it."""
    if f.kind in _SPELLED and spelled_run(toks, span) and any(c.isalpha() for c in value):
        return spelled(value)
    return said(value)


class Said(NamedTuple):
    text: str
    inserted: list[str]
    mapped: dict[str, Leaf]


def say_in(
    src: RefAsk, t: Target, salt: str, wrong: str = "", options: list[str] | None = None
) -> Said | str:
    """The source turn with the target's values and fields (the fact ``wrong`` said changed;
    ``options``: new words for each offered option), or why it cannot be said faithfully."""
    if src.unplaced:
        return "a value of no fact"
    mapped = _map([*src.values, *src.named], t, salt)
    if mapped is None:
        return "no fact of its kind"
    keys = [key_words(f.key) for f in src.named]
    if len({tuple(sorted(k)) for k in keys}) < len(keys):
        return "two fields of one key"
    toks = tokens(src.text)
    edits: list[Edit] = []
    inserted: list[str] = []

    def free(s: Span) -> bool:
        return all(s.last <= e.span.first or s.first >= e.span.last for e in edits)

    if options is not None:
        for old, new in zip(src.options, options, strict=True):
            at = src.text.rfind(old)
            span = Span(*_token_range(toks, at, at + len(old))) if at >= 0 else None
            if span is None or not free(span):
                return "option not found"
            edits.append(Edit(span, new))
            inserted.append(new)
    for f in sorted(src.values, key=lambda x: -len(x.value)):
        if not src.at.get(f.key):
            return "value not found"
        found = [(v, lab) for v, lab in src.at[f.key] if free(v)]  # none: inside a longer one's
        g = mapped[f.key]
        for v, lab in found:
            new = _value(g, changed(g, t.taken) or "" if g.key == wrong else g.value, toks, v)
            edits.append(Edit(v, new))
            inserted.append(new)
            if lab is not None and free(lab):
                edits.append(Edit(lab, field_label(g)))
    inside: set[str] = set()  # 'employee ID' in 'the departing employee's employee ID': not named alone
    for key, where in sorted(src.fields.items(), key=lambda x: -len(key_words(x[0]))):
        kept = [s for s in where if free(s)]
        wider = [k for k in src.fields if k != key and set(key_words(key)) < set(key_words(k))]
        if wider and where and not kept:  # 'employee ID' in 'the departing employee's employee ID'
            inside.add(key)
            continue
        if not kept:
            return "field not found"
        g = mapped[key]
        if owner(g)[0]:
            kept = [determined(toks, s, _determiners()) for s in kept]
        edits += [Edit(s, field_label(g)) for s in kept]
    text = rewrite(src.text, toks, edits)
    if text is None:
        return "spans overlap"
    left = set(facts_said(text, src.goal)) - set(facts_said(" ; ".join(inserted), src.goal))
    if left:
        return "a source value left"
    if not all(names_fact(text, mapped[k].key) for k in src.fields if k not in inside):
        return "a field not named"
    return Said(text, inserted, mapped)


def _token_range(toks: list[Tok], start: int, end: int) -> tuple[int, int]:
    idx = [i for i, t in enumerate(toks) if t.end > start and t.start < end]
    return (idx[0], idx[-1] + 1) if idx else (0, 0)


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
    mapped = _map([f for f in src.values if f.key == src.asked[0]], t, salt)
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
    """Every item of every scenario (``pool``: every scenario's reference turns, :func:`harvest`,
    collected here unless the caller has it already)."""
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
