"""Regenerate the calibration shipped with the offline judges (`src/voxbench/eval/offline/calibration.json`).

Runs exactly what `voxbench judges calibrate --judge offline --dataset DIR` runs (the
registered metrics in offline mode, k-fold cross-validation for methods fitted on labels)
over EVA's visible human labels, and keeps the agreement figures without the per-item rows.
Every metric with an offline method present now is included; a validation set whose metric
has no offline method is listed under `no_offline_method`. Refit first if the features or
labels changed: `scripts/fit_offline_judges.py`.

    PYTHONPATH=src .venv/bin/python scripts/calibrate_offline_judges.py [--dataset DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from voxbench.cli.judges import agent_info, find_agent_config
from voxbench.eval.calibration import CALIBRATION_SCHEMA, calibrate_dataset
from voxbench.eval.offline import load_all
from voxbench.eval.offline._shipped import CALIBRATION_FILE
from voxbench.eval.types import EvalConfig

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"
KEEP = (
    "metric", "metric_version", "method", "method_version", "fitted_on_labels", "low_confidence", "unit",
    "items", "available_items", "excluded_invalid_rows", "judge_errors", "agreement", "cross_validation",
    "conversation_score_mae", "human_labelled_turns", "entity_extraction", "turn_score_mae",
    "turn_all_correct_agreement", "split", "dimensions",
)  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    ap.add_argument("--out", type=Path, default=CALIBRATION_FILE)
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    methods = load_all()
    agent = find_agent_config(args.dataset)
    ds = calibrate_dataset(
        args.dataset, EvalConfig(judge_mode="offline"), agent=agent_info(agent), cv_folds=args.folds
    )
    metrics: dict[str, Any] = {}
    missing = []
    for m, r in ds["metrics"].items():
        if m not in methods:
            missing.append(m)
            continue
        metrics[m] = {k: r[k] for k in KEEP if k in r}
    out = {
        "schema_version": CALIBRATION_SCHEMA,
        "judge": "offline",
        "command": "voxbench judges calibrate --judge offline --dataset <EVA>/docs/metrics/judge_validation_datasets",
        "dataset_files_sha256": ds["files"],
        "agent_config": agent.name if agent else None,
        "cv_folds": args.folds,
        "metrics": metrics,
        "no_offline_method": sorted(missing),
        "no_human_labels": sorted(set(methods) - set(ds["metrics"])),
        "skipped": ds["skipped"],
    }
    args.out.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    for m, r in metrics.items():
        a, cv = r["agreement"], (r.get("cross_validation") or {}).get("agreement") or {}
        print(
            f"{m:38} n={a.get('n')} acc={a.get('accuracy')} kappa={a.get('cohen_kappa')} "
            f"qwk={a.get('weighted_kappa_quadratic')} f1={a.get('macro_f1')} | cv acc={cv.get('accuracy')} "
            f"kappa={cv.get('cohen_kappa')} qwk={cv.get('weighted_kappa_quadratic')} f1={cv.get('macro_f1')}"
            + ("  LOW-CONFIDENCE" if r.get("low_confidence") else "")
        )
        for h in ("dev", "test"):
            s = ((r.get("split") or {}).get(h) or {}).get("agreement") or {}
            print(
                f"  {h} half ({((r.get('split') or {}).get('fitted_on') and 'fitted on dev') or 'rules'}) "
                f"n={s.get('n')} acc={s.get('accuracy')} kappa={s.get('cohen_kappa')} "
                f"qwk={s.get('weighted_kappa_quadratic')} f1={s.get('macro_f1')}"
            )
    print(f"no offline method: {missing}\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
