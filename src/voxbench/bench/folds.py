"""How the bench splits scenarios to grade a fitted caller on scenarios it was not fitted on.

* **k-fold by scenario**: the scenarios, in a seeded shuffle, dealt round-robin into ``k`` folds
  (every domain spread over all folds); each fold is graded by a caller fitted on the others.
* **leave one domain out**: each domain graded by a caller fitted on the other domains only, the
  nearest the visible data comes to a domain nobody tuned the caller to.

Folds are a function of the scenario ids and the seed, never of the order files were read in.
"""

from __future__ import annotations

import random
from typing import TypeVar

from voxbench.scenarios import Scenario

Item = tuple[str, Scenario]
T = TypeVar("T")


def kfold(items: list[Item], k: int = 5, seed: int = 0) -> list[list[Item]]:
    """``k`` disjoint folds covering ``items`` (see the module docstring)."""
    if k < 2:
        raise ValueError(f"k-fold needs k >= 2, got {k}")
    order = sorted(items, key=lambda it: (it[0], it[1].id))
    random.Random(seed).shuffle(order)
    folds: list[list[Item]] = [[] for _ in range(min(k, len(order)) or 1)]
    for i, it in enumerate(order):
        folds[i % len(folds)].append(it)
    return folds


def domain_folds(items: list[Item]) -> list[list[Item]]:
    """One fold per domain, in the order domains first appear."""
    by: dict[str, list[Item]] = {}
    for it in items:
        by.setdefault(it[0], []).append(it)
    return list(by.values())


def rest(items: list[Item], fold: list[Item]) -> list[Item]:
    """The training set of a fold: every item not in it."""
    held = {(d, s.id) for d, s in fold}
    return [it for it in items if (it[0], it[1].id) not in held]
