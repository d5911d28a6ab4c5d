"""The reference agent turns the request classes of :mod:`.weak_refasks` are said from, picked by
the trace's structure alone (no word list, no turn read): an ask, a *whose* ask, a read-back or an
offer (the kinds are defined in :mod:`.weak_refasks`), each with the spans of the caller's facts
it says or names, so :mod:`.weak_refsay` can say it again in another scenario."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from voxbench.bench.matcher import MONTHS, GoalFact, facts_said, goal_facts, words_of
from voxbench.bench.options import chosen_option
from voxbench.bench.reference import (
    asks,
    names_fact,
    offered_options,
    reference_turns,
    reply_polarity,
    yes_no_question,
)
from voxbench.bench.transplant import (
    Span,
    Tok,
    field_spans,
    label_before,
    tokens,
    value_spans,
    with_owner,
    with_year,
)
from voxbench.bench.weak_facts import Leaf, leaves, table
from voxbench.bench.weak_whose import owner
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

_TEXT_WORDS = 3
"""A text value of more words than this is prose, not a value a turn reads or offers."""


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


def caller_leaves(scenario: Scenario) -> list[Leaf]:
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
        by_key = {f.key: f for f in caller_leaves(sc)}
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
