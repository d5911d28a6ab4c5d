"""Conciseness candidate `listening-load-logit` 3, measured and not kept: three changes from
EVA's rubric and the model, each measurable alone, on the split's dev half.

- `unasked`: an explanation cue counts only when the caller's turn asked nothing (a "?"), in
  place of every cue (EVA: "explanation beyond what the context requires").
- `cut`: the cut on P(rating <= 2) chosen by 5-fold CV inside the training rows (0.5, 0.45 ...
  0.3; ties to the highest): the middle rating is the rarest and the L2-penalised step pulls
  its probability toward the base rate.
- `wrap`: the last agent turn, when it asks nothing but "anything else?", is never rated 1
  (EVA's allowed exception 3, the end-of-call wrap-up).

Default: dev half only, 5-fold CV by conversation over fold seeds 0..N-1 (the figure
`scripts/dev_cv_offline_judges.py` prints for the shipped method). `--test` rates the test half
with each candidate fitted on the dev half (aggregate figures only; docs/judges.md, the
honesty rule: read once per candidate one would ship).

    PYTHONPATH=src .venv/bin/python benchmarks/conciseness_cut_wrapup.py [--seeds 8] [--test]
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np
from label_halves import split_halves

from voxbench.eval.calibration_items import CalibItem
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import strip_tags
from voxbench.eval.offline import conciseness as C
from voxbench.eval.offline._ordinal import TwoStepModel, assign_folds, fit_two_step

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"
V3 = tuple("unasked_explanations" if f == "explanations" else f for f in C.FEATURES)
CUTS = (0.5, 0.45, 0.4, 0.35, 0.3)
QUESTION = re.compile(r"[^.!?]*\?")
CLOSING_OFFER = re.compile(r"\b(?:anything else|is there anything|what else)\b[^.!?]*\?\s*$", re.I)


class Row(NamedTuple):
    feats: dict[str, float]
    label: int
    conv: str
    wrap_up: bool  # the conversation's last agent turn, asking nothing but "anything else?"


class Candidate(NamedTuple):
    features: tuple[str, ...]
    cv_cut: bool
    wrap_floor: bool


CANDIDATES = {
    "shipped v2": Candidate(C.FEATURES, False, False),
    "unasked": Candidate(V3, False, False),
    "cut": Candidate(C.FEATURES, True, False),
    "unasked+cut": Candidate(V3, True, False),
    "unasked+cut+wrap": Candidate(V3, True, True),
}


def is_wrap_up(text: str) -> bool:
    t = strip_tags(text).strip()
    asked = QUESTION.findall(t)
    return not asked or (len(asked) == 1 and bool(CLOSING_OFFER.search(t)))


def rows_of(items: list[CalibItem]) -> list[Row]:
    out: list[Row] = []
    for it in items:
        turns = C.agent_turns(it.ctx)
        for t, (agent, caller) in turns.items():
            if it.human.get(t) in (1, 2, 3):
                f = C.turn_features(agent, caller)
                f["unasked_explanations"] = 0.0 if "?" in strip_tags(caller) else f["explanations"]
                out.append(Row(f, int(it.human[t]), it.item_id, t == max(turns) and is_wrap_up(agent)))
    return out


def probs(m: TwoStepModel, f: dict[str, float]) -> tuple[float, float]:
    z = [(f[k] - mu) / sd for k, mu, sd in zip(m.features, m.mean, m.scale, strict=True)]
    p = [
        1 / (1 + math.exp(-(sum(a * b for a, b in zip(w[:-1], z, strict=True)) + w[-1])))
        for w in (m.low, m.mid)
    ]
    return p[0], p[1]


def rating(p: tuple[float, float], cut: float, wrap_floor: bool = False, wrap_up: bool = False) -> int:
    r = 1 if p[0] > 0.5 else 2 if p[1] > cut else 3
    return 2 if r == 1 and wrap_floor and wrap_up else r


def chosen_cut(rows: list[Row], features: tuple[str, ...], k: int = 5) -> float:
    fold = assign_folds([r.conv for r in rows], k, 0)
    pairs: list[tuple[tuple[float, float], int]] = []
    for f in range(k):
        train = [r for r in rows if fold[r.conv] != f]
        m = fit_two_step([r.feats for r in train], [r.label for r in train], features)
        pairs += [(probs(m, r.feats), r.label) for r in rows if fold[r.conv] == f]
    hits = {c: sum(rating(p, c) == y for p, y in pairs) for c in CUTS}
    return max(CUTS, key=lambda c: (hits[c], c))


def fitted(rows: list[Row], cand: Candidate) -> tuple[TwoStepModel, float]:
    m = fit_two_step([r.feats for r in rows], [r.label for r in rows], cand.features)
    return m, chosen_cut(rows, cand.features) if cand.cv_cut else 0.5


def rate_rows(model: tuple[TwoStepModel, float], rows: list[Row], cand: Candidate) -> list[int]:
    return [rating(probs(model[0], r.feats), model[1], cand.wrap_floor, r.wrap_up) for r in rows]


def cv_accuracy(rows: list[Row], cand: Candidate, seed: int, k: int = 5) -> float:
    fold = assign_folds([r.conv for r in rows], k, seed)
    hits = 0
    for f in range(k):
        held = [r for r in rows if fold[r.conv] == f]
        model = fitted([r for r in rows if fold[r.conv] != f], cand)
        hits += sum(p == r.label for p, r in zip(rate_rows(model, held, cand), held, strict=True))
    return hits / len(rows)


def figures(rows: list[Row], pred: list[int]) -> str:
    a = agreement([(r.label, p) for r, p in zip(rows, pred, strict=True)], (1, 2, 3), ordinal=True)
    return f"acc {a['accuracy']:.3f} κ {a['cohen_kappa']:.3f} qwk {a['weighted_kappa_quadratic']:.3f} (n {a['n']})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--test", action="store_true", help="also rate the test half (aggregates)")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conciseness", with_agent=False)
    dev = rows_of(halves.dev)
    test = rows_of(halves.test) if args.test else []
    print(f"dev half {len(dev)} turns; 5-fold CV by conversation, fold seeds 0-{args.seeds - 1}")
    for name, cand in CANDIDATES.items():
        accs = [cv_accuracy(dev, cand, s) for s in range(args.seeds)]
        model = fitted(dev, cand)
        line = f"{name:18} dev CV {np.mean(accs):.3f} (seeds {min(accs):.3f}-{max(accs):.3f}); cut {model[1]}"
        if test:
            line += f"; test half (fitted on dev) {figures(test, rate_rows(model, test, cand))}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
