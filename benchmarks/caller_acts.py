"""The act of the reply an agent turn calls for: the goal caller's rules against a fitted naive Bayes,
by k-fold (by scenario) and leave-one-domain-out, on EVA's reference conversations.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_acts.py --data ../shared/eva-data [--k 5] [--seed 0]

See :mod:`voxbench.bench.acts` for the labels and the two readers. Printed per split: accuracy,
and per act its share of turns, the rules' and the model's recall and precision. The rules were
written on these scenarios, so their figures are in-sample whatever the split.
"""

from __future__ import annotations

import argparse
from collections import Counter

from voxbench.bench.acts import ACTS, ActModel, reply_act
from voxbench.bench.caller_check import check_scenario, resolved_scenarios
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.matcher import goal_facts
from voxbench.bench.reference import reference_turns


def labelled(items):  # type: ignore[no-untyped-def]
    """(scenario id, agent turn, reference act, the goal caller's act) for every answered turn."""
    out = []
    for d, sc in items:
        facts = goal_facts(sc.user_goal.information_required)
        rows = check_scenario(d, sc, GoalTextCaller(sc)).rows
        for (agent, ref), row in zip(reference_turns(sc)[1], rows, strict=True):
            if ref:
                out.append(
                    (sc.id, d, agent, reply_act(ref, agent, facts), reply_act(row.reply, agent, facts))
                )
    return out


def report(name: str, rows: list[tuple[str, str, str]]) -> None:
    """rows: (gold, rules, model)."""
    n = len(rows)
    acc_r = sum(g == r for g, r, _ in rows) / n
    acc_m = sum(g == m for g, _, m in rows) / n
    print(f"{name}: {n} turns, accuracy rules {100 * acc_r:.1f} %, model {100 * acc_m:.1f} %")
    gold = Counter(g for g, _, _ in rows)
    for a in ACTS:
        print(f"  {a:7s} {100 * gold[a] / n:5.1f} %   rules {_pr(rows, a, 0)}   model {_pr(rows, a, 1)}")


def _pr(rows: list[tuple[str, str, str]], act: str, i: int) -> str:
    """Recall and precision of reader ``i`` (0 rules, 1 model) on ``act``."""
    gold = sum(g == act for g, _, _ in rows)
    tp = sum(g == act and x[i] == act for g, *x in rows)
    said = sum(x[i] == act for _, *x in rows)
    rec = 100 * tp / gold if gold else 0.0
    prec = 100 * tp / said if said else 0.0
    return f"R {rec:5.1f} P {prec:5.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/eva-data")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    items = resolved_scenarios(args.data)
    table = labelled(items)
    for name, folds in ((f"{args.k}-fold", kfold(items, args.k, args.seed)), ("LODO", domain_folds(items))):
        rows = []
        for fold in folds:
            held = {s.id for _, s in fold}
            train_ids = {s.id for _, s in rest(items, fold)}
            model = ActModel().fit([(a, g) for sid, _, a, g, _ in table if sid in train_ids])
            rows += [(g, r, model.predict(a)) for sid, _, a, g, r in table if sid in held]
        report(name, rows)


if __name__ == "__main__":
    main()
