"""Refit the offline judge methods that learn from human labels; write their constants.

Reads EVA's judge-validation sets (EVA format, any file of that name), fits every method
declared with `voxbench.eval.offline.fitted_method` on all the labelled items it finds, and
writes `src/voxbench/eval/offline/params.json` (feature names, standardisation, weights, cut
points, the dataset files' SHA-256). Nothing is tuned to items: the model family and its
features are fixed in code; only the constants come from the labels. Cross-validated
agreement is measured separately by `scripts/calibrate_offline_judges.py`.

    PYTHONPATH=src .venv/bin/python scripts/fit_offline_judges.py [--dataset DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from voxbench.eval.calibration_items import DATASET_METRICS, load_items
from voxbench.eval.offline import FITTERS, load_all
from voxbench.eval.offline._ordinal import PARAMS_FILE

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    ap.add_argument("--out", type=Path, default=PARAMS_FILE)
    args = ap.parse_args()
    load_all()
    out: dict[str, Any] = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    for stem, metric in DATASET_METRICS.items():
        f = args.dataset / f"{stem}.jsonl"
        if metric not in FITTERS or not f.is_file():
            continue
        _, items, _ = load_items(f)
        model = FITTERS[metric].fit([(it.ctx, it.human) for it in items])
        out[metric] = {
            "dataset_file": f.name,
            "dataset_sha256": hashlib.sha256(f.read_bytes()).hexdigest(),
            "items": len(items),
            "model": model.to_json() if hasattr(model, "to_json") else model,
        }
        print(f"{metric}: fitted on {len(items)} items -> {out[metric]['model']}")
    args.out.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
