"""Measure a fitted offline judge method on the development half only (for developing it).

The development/test split (`src/voxbench/eval/offline/label_split.json`) says: write and tune
on the dev half, read the test half only through calibration, once per candidate one would
ship. This script is the development side: it keeps the dev half's items (the test half's are
dropped before anything is rated), fits each fitted method on the whole dev half and rates it
(the "dev half, fitted on it" figure), and runs k-fold cross-validation inside the dev half
over several fold seeds (the halves are small, 25-35 conversations, so one seed's figure moves
by a conversation's worth with the fold deal). Nothing is written.

    PYTHONPATH=src .venv/bin/python scripts/dev_cv_offline_judges.py [--metric conversation_progression] \
        [--dataset DIR] [--folds 5] [--seeds 8]
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import Any

from voxbench.cli.judges import agent_info, find_agent_config
from voxbench.eval.calibration_items import DATASET_METRICS, CalibItem, load_items
from voxbench.eval.calibration_offline import cross_validate
from voxbench.eval.calibration_score import score_items
from voxbench.eval.label_split import halves_of, load_split
from voxbench.eval.offline import FITTERS, load_all
from voxbench.eval.types import EvalConfig

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"


def _fmt(a: dict[str, Any]) -> str:
    return f"acc {a.get('accuracy')} κ {a.get('cohen_kappa')} qwk {a.get('weighted_kappa_quadratic')}"


def _fitted_on_dev(metric: str, dev: list[CalibItem]) -> dict[str, Any]:
    """Agreement of the method fitted on the whole dev half, rating that half."""
    fitter = FITTERS[metric]
    model = fitter.fit([(it.ctx, it.human) for it in dev])
    res = score_items(
        metric, dev, EvalConfig(judge_mode="offline"), rater=lambda it: fitter.rate_with(it.ctx, model)
    )
    agreement: dict[str, Any] = res["agreement"]
    return agreement


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    ap.add_argument("--metric", action="append", help="a fitted metric (default: every fitted one)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=8, help="fold seeds 0..N-1")
    args = ap.parse_args()
    load_all()
    agent = agent_info(find_agent_config(args.dataset))
    split = load_split()
    for stem, metric in DATASET_METRICS.items():
        f = args.dataset / f"{stem}.jsonl"
        if metric not in FITTERS or (args.metric and metric not in args.metric) or not f.is_file():
            continue
        _, items, _ = load_items(f, agent)
        halves = halves_of(stem, items, split, hashlib.sha256(f.read_bytes()).hexdigest())
        if halves is None:
            print(f"{metric}: the shipped split does not cover {f.name} (another file): nothing to do")
            continue
        dev = halves["dev"]
        ins = _fitted_on_dev(metric, dev)
        print(f"{metric}: dev half {len(dev)} items; fitted on it: {_fmt(ins)}")
        accs, kappas = [], []
        for seed in range(args.seeds):
            cv = cross_validate(metric, dev, args.folds, seed) or {}
            a = cv.get("agreement") or {}
            accs.append(float(a.get("accuracy") or 0.0))
            kappas.append(float(a.get("cohen_kappa") or 0.0))
            print(f"  dev {args.folds}-fold CV, fold seed {seed}: {_fmt(a)}")
        n = max(len(accs), 1)
        print(f"  dev CV mean over {len(accs)} fold seeds: acc {sum(accs) / n:.3f} κ {sum(kappas) / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
