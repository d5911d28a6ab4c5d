"""Which facts does an agent turn ask for? The goal caller's rules against the fitted fact model,
cross-validated by scenario (k-fold) and leave-one-domain-out, on EVA's reference conversations.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_fact_model.py --data ../shared/eva-data [--k 5] [--seed 0]

Every reference agent turn that asks something (:func:`voxbench.bench.reference.asks`) is an
example; its label is the set of goal facts the reference caller disclosed in reply, by the
bench's own matcher. Three readers predict that set: the rules (``classify(...).asked``, with the
facts the reference caller had given so far), the fitted model alone (``pick_facts``, fitted on
the other folds only) at a few thresholds, the two together as ``classify`` uses them (the model
only where the rules name no fact) and the union of the two (``rules|model``). Printed per split: turns whose set is predicted exactly (among
turns where the reference disclosed something), fact precision and recall, and turns where the
reader names a fact the reference did not disclose while disclosing nothing (false alarms).
The rules were written on these scenarios, so their figure is in-sample whatever the split.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from voxbench.bench.caller_check import expected_pairs, resolved_scenarios
from voxbench.bench.callers import training_examples
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.reference import asks
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.learned import Example, FactModel

THRESHOLDS = (0.5, 0.7, 0.85)


class Score:
    def __init__(self) -> None:
        self.exact = self.with_facts = self.tp = self.fp = self.fn = self.alarms = 0

    def add(self, pred: set[str], gold: set[str]) -> None:
        self.tp += len(pred & gold)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)
        if gold:
            self.with_facts += 1
            self.exact += pred == gold
        elif pred:
            self.alarms += 1

    def line(self) -> str:
        p = 100.0 * self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = 100.0 * self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        ex = 100.0 * self.exact / self.with_facts if self.with_facts else 0.0
        return f"exact {ex:5.1f} %  precision {p:5.1f} %  recall {r:5.1f} %  false alarms {self.alarms:4d}"


def turns(item):  # type: ignore[no-untyped-def]
    _, sc = item
    book = goal_facts(sc.user_goal.information_required, sc.seed_data)
    given: set[str] = set()
    for agent, _ref, disclosed in expected_pairs(sc):
        if asks(agent):
            yield agent, book, set(given), set(disclosed)
        given |= set(disclosed)


def stacked_examples(train):  # type: ignore[no-untyped-def]
    out = []
    for it in train:
        for agent, book, given, gold in turns(it):
            out.append(Example(agent, book, given, gold, dict(_rules(agent, book, given))))
    return out


def _rules(agent, book, given):  # type: ignore[no-untyped-def]
    h = classify(agent, book, given)
    return {r.split(":")[1]: r.split(":", 2)[2] for r in h.rules if r.startswith("ask:")}


def evaluate(folds, items, scores, split: str) -> None:  # type: ignore[no-untyped-def]
    for fold in folds:
        model = FactModel().fit(training_examples(rest(items, fold)))
        stacked = FactModel().fit(stacked_examples(rest(items, fold)))
        for it in fold:
            for agent, book, given, gold in turns(it):
                rules = set(classify(agent, book, given).asked)
                scores[(split, "rules")].add(rules, gold)
                probs = model.probs(agent, book, given)
                for th in THRESHOLDS:
                    alone = {
                        k for k, p in sorted(probs.items(), key=lambda kv: -kv[1])[: model.top] if p >= th
                    }
                    scores[(split, f"model {th}")].add(alone, gold)
                    scores[(split, f"rules|model {th}")].add(rules | alone, gold)
                sp = stacked.probs(agent, book, given, _rules(agent, book, given))
                for th in (0.3, 0.4, 0.5):
                    pick = {k for k, p in sorted(sp.items(), key=lambda kv: -kv[1])[:3] if p >= th}
                    scores[(split, f"stacked {th}")].add(pick, gold)
                model.threshold = 0.5
                both = set(classify(agent, book, given, hook=model).asked)
                scores[(split, "rules, else model 0.5")].add(both, gold)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/eva-data")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    items = resolved_scenarios(args.data)
    scores: dict[tuple[str, str], Score] = defaultdict(Score)
    evaluate(kfold(items, args.k, args.seed), items, scores, f"{args.k}-fold")
    evaluate(domain_folds(items), items, scores, "LODO")
    for (split, reader), s in scores.items():
        print(f"{split:7s} {reader:18s} {s.line()}")


if __name__ == "__main__":
    main()
