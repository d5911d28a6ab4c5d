"""Which of the goal caller's mechanisms says each fact the agent did not ask for by name, and does a
table over those mechanisms hold on scenarios, intent families and domains it was not fitted on?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_volunteer_sources.py --data ../shared/eva-data
        [--half dev] [--threshold 0.5] [--misses]

Candidates and labels are those of ``caller_volunteer.py``: in every agent turn that asks something
with a reference reply, each goal fact the turn neither says nor names
(:func:`voxbench.bench.reference.names_fact`) is a candidate, volunteered when the reference caller
says it there. Each candidate the goal caller says is put down to the first of its mechanisms that
put the fact in the reply (recorded by wrapping the functions :mod:`.goal.drafts` and
:mod:`.goal.requests` call, in this run only):

* ``asked``: the caller's own reading of what the turn asks (:attr:`.heard.Heard.asked`): a fact the
  agent asked for in words the bench's matcher does not tie to the key ('the six-digit code' for
  ``otp_code``); ``companions`` (a first name with a last, a time with a date, a route's other end);
* ``bundle`` (a tree step that gives facts together, :mod:`.bundles`); ``limits``, ``prefs``,
  ``change``, ``fallback`` (:mod:`.volunteer`); ``identity`` (:mod:`.identity`);
* ``details`` and ``circumstances``: what goes with a request the caller states (:mod:`.requests`);
* ``other``: said by a path none of these records (the opening, a request line, an option named).

Printed per domain and mechanism: facts said, how many the reference said there too (precision),
and how many intent families (the scenario id without its last ``.n``: '7.1' of '7.1.1') those
come from: a mechanism whose agreement comes from one family was written on it. Then a *mechanism
table*: cell = (mechanism, fact role of ``caller_volunteer.py``, said before or not), volunteering
the cells whose training candidates the reference said at ``--threshold`` or more, graded k-fold
by scenario, by intent family and leave one domain out, beside the caller's rules in-sample.
``--misses`` lists the (domain, act kind, role, said before) of what the reference said and the
caller did not. Rules are written on the dev half only; test is read as these aggregates.

Read at 0f3021a (dev): about 4 in 5 of the facts the caller says unasked and the reference says too
come from its reading of the ask, not from a rule to volunteer; the table over (act kind, role)
of ``caller_volunteer.py`` volunteers nothing at 0.5 in any fold, and this one loses a third of
the recall k-fold and three quarters LODO. Leaving codes, dates and times out of a stated
request's details (the reference said 0 of 45 on dev) lost 2 volunteered facts on test medical
HR: measured, not kept.

Read at 7543ee2 with the caller check's *over-volunteered* figure (facts told unasked that the
reference did not tell there, not said before; ``caller_check_halves.py --over`` lists them by
caller rule): dev 198 (77 of them in the statement to the first open question), test 141. Three
class cuts on later turns, each measured on dev (test read once, with the first two together):
the last-resort seat choice left out unless the turn names the preference (dev 198 -> 182, no dev
loss); a later request stated without its identifiers and dates (dev 198 -> 185, no dev loss;
commit b42df4f, reverted); together test 141 -> 128 but one test airline request lost (withheld
4.7 % -> 4.9 %): measured, not kept. A code the agent sent not read out when the turn's question is
a yes/no one about something else ('Is that the correct number on file?'; the reference read it
there at 1 of 17 dev turns), on top of the two: dev 169 -> 156 but that dev request lost: measured,
not kept.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from caller_check_halves import half
from caller_volunteer import Score, steps

import voxbench.pipelines.caller.goal.drafts as drafts
from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.matcher import goal_facts
from voxbench.pipelines.caller.goal.bundles import Bundles
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.say import FactSayer
from voxbench.scenarios import Scenario

Item = tuple[str, Scenario]
Cell = tuple[str, str, str]
DOMAINS = ("airline", "itsm", "medical_hr")

_RECORD: list[tuple[str, list[str]]] = []
"""(mechanism, fact keys it put in the reply) in the order they ran, for the act being made."""


def _wrap(owner: Any, name: str, tag: str, keys: Callable[..., list[str]]) -> None:
    """Record what ``owner.name`` returns, as fact keys (``keys`` of its arguments and result)."""
    orig = getattr(owner, name)

    def wrapped(*a: Any, **kw: Any) -> Any:
        out = orig(*a, **kw)
        _RECORD.append((tag, list(keys(out, *a))))
        return out

    setattr(owner, name, wrapped)


def _instrument() -> None:
    _wrap(drafts.Drafts, "answer", "asked", lambda _o, _self, heard, *_: list(heard.asked))
    _wrap(
        FactSayer, "with_companions", "companions", lambda o, _self, keys, *_: [k for k in o if k not in keys]
    )
    _wrap(Bundles, "extra", "bundle", lambda o, *_: o)
    _wrap(drafts, "constraints_for", "limits", lambda o, *_: o)
    _wrap(drafts, "touched_preferences", "prefs", lambda o, *_: o)
    _wrap(drafts, "change_parts", "change", lambda o, *_: o[0] + o[1])
    _wrap(drafts, "fallback_for_offer", "fallback", lambda o, *_: [o] if o else [])
    _wrap(drafts, "identity_answer", "identity", lambda o, *_: o[1] if o else [])
    _wrap(Requests, "details", "details", lambda o, *_: o[1])
    _wrap(Requests, "circumstances", "circumstances", lambda o, *_: o)


def family(domain: str, scenario_id: str) -> str:
    """The intent family of a scenario: its id without the last '.n' ('airline/7.1' of '7.1.1')."""
    return domain + "/" + re.sub(r"[.]\d+$", "", scenario_id)


@dataclass(frozen=True)
class Candidate:
    domain: str
    scenario: str
    cell: Cell
    act: str
    key: str
    reference: bool
    ours: bool


def candidates(domain: str, sc: Scenario) -> list[Candidate]:
    """The scenario's candidates, each with the mechanism that said it ('-' when the caller did not)."""
    keys = [g.key for g in goal_facts(sc.user_goal.information_required)]
    out: list[Candidate] = []
    for st in steps(sc, before_reply=_RECORD.clear):
        for k in keys:
            if st.asked(k) or k in st.agent_said:
                continue
            src = next((t for t, ks in _RECORD if k in ks), "other") if k in st.ours else "-"
            cell = (src, st.roles[k], "again" if k in st.before else "new")
            out.append(Candidate(domain, sc.id, cell, st.act.kind, k, k in st.theirs, k in st.ours))
    return out


def fit(cands: list[Candidate], threshold: float, min_n: int = 5) -> set[Cell]:
    """The cells said by the caller whose training candidates the reference said at ``threshold`` or more."""
    n: Counter[Cell] = Counter(c.cell for c in cands)
    pos: Counter[Cell] = Counter(c.cell for c in cands if c.reference)
    return {x for x in n if x[0] != "-" and n[x] >= min_n and pos[x] / n[x] >= threshold}


def graded(
    folds: list[list[Item]], by: dict[tuple[str, str], list[Candidate]], threshold: float
) -> dict[str, Score]:
    """Per domain (and 'all'): the table fitted on the other folds, graded on each fold."""
    items = [it for f in folds for it in f]
    out: dict[str, Score] = defaultdict(Score)
    for fold in folds:
        cells = fit([c for d, sc in rest(items, fold) for c in by[(d, sc.id)]], threshold)
        for d, sc in fold:
            for c in by[(d, sc.id)]:
                out[d].add(c.cell in cells, c.reference)
                out["all"].add(c.cell in cells, c.reference)
    return out


def _line(name: str, s: dict[str, Score]) -> str:
    return f"{name:22} " + " | ".join(f"{d[:4]} {s[d].line()}" for d in ("all", *DOMAINS))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--half", choices=["dev", "test", "all"], default="dev")
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--misses", action="store_true", help="the classes of what the caller did not say")
    args = ap.parse_args()
    _instrument()
    items = [(d, sc) for d, sc in resolved_scenarios(args.data) if args.half in ("all", half(d, sc.id))]
    by = {(d, sc.id): candidates(d, sc) for d, sc in items}
    every = [c for cs in by.values() for c in cs]
    print(f"{len(items)} scenarios ({args.half}), {len(every)} candidates, "
          f"{sum(c.reference for c in every)} said by the reference, {sum(c.ours for c in every)} by the caller")  # fmt: skip
    table: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    fams: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for c in every:
        if c.ours:
            k = (c.domain, c.cell[0], c.cell[2])
            table[k].update(said=1, agreed=c.reference)
            if c.reference:
                fams[k].add(family(c.domain, c.scenario))
    print(f"{'domain':11} {'mechanism':14} {'':5} {'said':>5} {'agreed':>7} {'precision':>9} {'families':>8}")
    for k in sorted(table):
        t = table[k]
        print(f"{k[0]:11} {k[1]:14} {k[2]:5} {t['said']:5} {t['agreed']:7} {100 * t['agreed'] / t['said']:8.1f}% "
              f"{len(fams[k]):8}")  # fmt: skip
    rules: dict[str, Score] = defaultdict(Score)
    for c in every:
        rules[c.domain].add(c.ours, c.reference)
        rules["all"].add(c.ours, c.reference)
    by_family: dict[str, list[Item]] = defaultdict(list)
    for d, sc in items:
        by_family[family(d, sc.id)].append((d, sc))
    print(f"\nmechanism table (threshold {args.threshold}): cells {sorted(fit(every, args.threshold))}")
    print(_line("caller's rules", rules))
    print(_line("table, k-fold (5)", graded(kfold(items, 5, 0), by, args.threshold)))
    print(_line("table, by family", graded(list(by_family.values()), by, args.threshold)))
    print(_line("table, LODO", graded(domain_folds(items), by, args.threshold)))
    if args.misses:
        miss = Counter((c.domain, c.act, c.cell[1], c.cell[2]) for c in every if c.reference and not c.ours)
        for cls, count in miss.most_common():
            print(f"  missed {'/'.join(cls):50} {count}")


if __name__ == "__main__":
    main()
