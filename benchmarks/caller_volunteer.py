"""When does EVA's reference caller say a fact it was not asked for? A table fitted on the reference
conversations (turn kind x fact role), cross-validated by scenario and leave-one-domain-out.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_volunteer.py --data ../shared/eva-data [--half dev]
        [--k 5] [--seed 0] [--threshold 0.5] [--cells]

The goal caller is run over each scenario's reference agent turns, as the caller check runs it.
Every agent turn that asks something (:func:`voxbench.bench.reference.asks`) with a reference reply
gives one *candidate* per goal fact the turn does not ask for by name
(:func:`voxbench.bench.reference.names_fact`) and does not say itself; its label is whether the
reference caller said it there (the bench's matcher): a volunteered fact. Each candidate has a
*cell*: the kind of act the goal caller made there (answer, confirm, choose, state_request, ...),
the fact's *role* at that turn, read from the scenario by the caller's own parts, and whether
the caller had said it before in the call:

* ``limit``: a key that states a limit (:data:`voxbench.pipelines.caller.goal.volunteer.LIMIT_KEY`);
* ``pref``: a ranked preference (``..._choice``);
* ``detail``: a fact of the request in hand (:mod:`.belong` owners, or the facts that go with
  the request, :meth:`.requests.Requests.details`); ``other_request``: of another request;
* ``record``: a field of a listed record ('original_travel_details.0.origin');
* ``call``: the rest (name, IDs, codes: facts of the whole call).

The *cell model* volunteers a candidate when the share of its cell's training candidates the
reference volunteered is at least ``--threshold`` (and the cell held 5 or more). Printed: the
goal caller's own rules (what it said unasked, in-sample whatever the split) and the cell model
in-sample, k-fold by scenario and leave one domain out: candidates volunteered, precision and
recall against the reference. ``--cells`` prints the table. Rules for the caller are written on
the dev half only (``--half dev``, the default; the split of ``caller_check_halves.py``).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import asks, names_fact, offered_options, reference_turns
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.volunteer import LIMIT_KEY
from voxbench.scenarios import Scenario

Item = tuple[str, Scenario]
Cell = tuple[str, str, str]


@dataclass(frozen=True)
class Candidate:
    scenario: tuple[str, str]
    cell: Cell
    key: str
    reference: bool
    ours: bool


def _role(caller: GoalCaller, key: str, in_hand: int, details: list[str]) -> str:
    f = caller.book.get(key)
    owner = caller.s.owners.get(key)
    if LIMIT_KEY.search(key):
        return "limit"
    if re.search(r"_choice$", key):
        return "pref"
    if owner is not None and owner != in_hand:
        return "other_request"
    if key in details or (owner is not None and owner == in_hand):
        return "detail"
    if "." in key or f is None:
        return "record"
    return "call"


@dataclass
class Step:
    """One reference agent turn that asks something, with the goal caller's reply to it and what
    each side said (the walk both volunteer-classes benches share)."""

    n: int  # the turn's place in the reference, from 1
    agent: str
    ref: str
    caller: GoalCaller
    act: CallerAct
    roles: dict[str, str]  # fact key -> its role for the request in hand (_role)
    ours: set[str]  # facts the caller's reply said
    before: set[str]  # facts the caller had said before this turn (its opening included)
    agent_said: set[str]  # facts the agent's turn itself said
    offered: set[str]  # facts the agent's offered options name
    theirs: set[str]  # facts the reference caller said

    def asked(self, key: str) -> bool:
        return key not in self.agent_said and names_fact(self.agent, key, key in self.offered)


def _request_in_hand(caller: GoalCaller, agent: str) -> tuple[int, list[str]]:
    """The request the agent's turn is about (else the first still open) and its detail keys."""
    hand = caller.req.in_hand(agent)
    pending = caller.tracker.pending()
    i = hand.current if hand.current is not None else (pending[0] if pending else 0)
    return i, caller.req.details(i)[1]


def steps(sc: Scenario, before_reply: Callable[[], None] = lambda: None) -> Iterator[Step]:
    """The goal caller walked through a scenario's reference agent turns, each reply made (after
    ``before_reply``) whatever it said before; a Step for each turn that asks and has a reference
    reply."""
    facts = goal_facts(sc.user_goal.information_required)
    keys = [g.key for g in facts]
    caller = GoalCaller(sc)
    opening, turns = reference_turns(sc)
    told: set[str] = set(facts_said(caller.open().text, facts)) if opening is not None else set()
    for n, (agent, ref) in enumerate(turns, 1):
        if caller.ended:
            break
        i, details = _request_in_hand(caller, agent)
        roles = {k: _role(caller, k, i, details) for k in keys}
        before_reply()
        act = caller.respond(agent)
        ours = set(facts_said(act.text, facts, agent))
        before, told = set(told), told | ours
        if not ref or not asks(agent):
            continue
        options = [o for o in offered_options(agent) if not o.startswith("time:")]
        offered = set(facts_said(" ; ".join(options), facts)) if options else set()
        yield Step(n, agent, ref, caller, act, roles, ours, before, set(facts_said(agent, facts)), offered,
                   set(facts_said(ref, facts, agent)))  # fmt: skip


def candidates(domain: str, sc: Scenario) -> list[Candidate]:
    """The scenario's volunteer candidates (see the module docstring)."""
    facts = goal_facts(sc.user_goal.information_required)
    keys = {g.key for g in facts}
    caller = GoalCaller(sc)
    opening, turns = reference_turns(sc)
    if opening is not None:
        caller.open()
    out: list[Candidate] = []
    for agent, ref in turns:
        if caller.ended:
            break
        i, details = _request_in_hand(caller, agent)
        before = set(caller.given)
        act = caller.respond(agent)
        if not ref or not asks(agent):
            continue
        options = [o for o in offered_options(agent) if not o.startswith("time:")]
        offered = set(facts_said(" ; ".join(options), facts)) if options else set()
        agent_said = set(facts_said(agent, facts))
        said_ref, said_ours = set(facts_said(ref, facts, agent)), set(facts_said(act.text, facts, agent))
        for k in sorted(keys):
            if k in agent_said or names_fact(agent, k, k in offered):
                continue
            cell = (act.kind, _role(caller, k, i, details), "again" if k in before else "new")
            out.append(Candidate((domain, sc.id), cell, k, k in said_ref, k in said_ours))
    return out


class Score:
    def __init__(self) -> None:
        self.tp = self.fp = self.fn = 0

    def add(self, pred: bool, gold: bool) -> None:
        self.tp += pred and gold
        self.fp += pred and not gold
        self.fn += gold and not pred

    def line(self) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        return f"volunteered {self.tp + self.fp:4}  precision {100 * p:5.1f} %  recall {100 * r:5.1f} %"


def fit(cands: list[Candidate], threshold: float, min_n: int = 5) -> set[Cell]:
    """The cells whose training candidates the reference volunteered at ``threshold`` or more."""
    n: Counter[Cell] = Counter(c.cell for c in cands)
    pos: Counter[Cell] = Counter(c.cell for c in cands if c.reference)
    return {cell for cell in n if n[cell] >= min_n and pos[cell] / n[cell] >= threshold}


def _graded(folds: list[list[Item]], by: dict[tuple[str, str], list[Candidate]], threshold: float) -> Score:
    items = [it for f in folds for it in f]
    s = Score()
    for fold in folds:
        train = [c for d, sc in rest(items, fold) for c in by[(d, sc.id)]]
        cells = fit(train, threshold)
        for d, sc in fold:
            for c in by[(d, sc.id)]:
                s.add(c.cell in cells, c.reference)
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--half", choices=["dev", "test", "all"], default="dev")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--cells", action="store_true", help="print the table of cells")
    args = ap.parse_args()
    items = [(d, sc) for d, sc in resolved_scenarios(args.data) if args.half in ("all", half(d, sc.id))]
    by = {(d, sc.id): candidates(d, sc) for d, sc in items}
    every = [c for cs in by.values() for c in cs]
    rules = Score()
    for c in every:
        rules.add(c.ours, c.reference)
    cells = fit(every, args.threshold)
    inside = Score()
    for c in every:
        inside.add(c.cell in cells, c.reference)
    print(f"{len(items)} scenarios ({args.half}), {len(every)} candidates, "
          f"{sum(c.reference for c in every)} volunteered by the reference")  # fmt: skip
    print(f"goal caller's rules       {rules.line()}")
    print(f"cell model, in-sample     {inside.line()}  cells {sorted(cells)}")
    print(f"cell model, k-fold        {_graded(kfold(items, args.k, args.seed), by, args.threshold).line()}")
    print(f"cell model, LODO          {_graded(domain_folds(items), by, args.threshold).line()}")
    if args.cells:
        table: dict[Cell, Counter[str]] = defaultdict(Counter)
        for c in every:
            table[c.cell].update(n=1, reference=c.reference, ours=c.ours, missed=c.reference and not c.ours)
        for cell, t in sorted(table.items(), key=lambda x: (-x[1]["reference"], -x[1]["n"])):
            if t["reference"] or t["ours"]:
                print(f"  {'/'.join(cell):40} n {t['n']:5}  reference {t['reference']:4} "
                      f"({100 * t['reference'] / t['n']:4.1f} %)  ours {t['ours']:4}  missed {t['missed']:3}")  # fmt: skip


if __name__ == "__main__":
    main()
