"""`voxbench judges calibrate-gate`: the validation gate measured on labelled faults.

Generates (seeded) a labelled set from an EVA-format dataset's reference conversations, or
reads one generated before (`--set DIR` with its labels.jsonl), scores every record with the
gate's validators offline, and reports per validator and per domain: caller faults caught
per kind (recall), precision, and the false-invalid rate on clean and on agent-fault records.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def add_parser(jsub: Any) -> None:
    g = jsub.add_parser(
        "calibrate-gate",
        help="measure the validation gate on a seeded, labelled set of injected caller and agent faults",
    )
    g.add_argument(
        "--dataset",
        default=None,
        help="EVA-format dataset folder to generate the set from ('builtin' = the shipped scenarios); "
        "omit to score an existing --set",
    )
    g.add_argument("--set", dest="set_dir", default=None, help="folder of the labelled set (written or read)")
    g.add_argument("--domains", default=None, help="comma-separated domains (default: every domain present)")
    g.add_argument("--seed", type=int, default=0, help="seed of the injections (place and wording)")
    g.add_argument("--out", default="gate_calibration.json", help="where to write the figures")
    g.add_argument("--misses", action="store_true", help="also list every record the gate got wrong")
    g.set_defaults(func=run_calibrate_gate)


def run_calibrate_gate(args: argparse.Namespace) -> int:
    from voxbench.eval.gateset import generate, read_labels
    from voxbench.eval.gateset.measure import misses, report, score_set

    if args.dataset is None and args.set_dir is None:
        raise ValueError("pass --dataset DIR|builtin (generate a set) and/or --set DIR (score a set)")
    domains = [d.strip() for d in args.domains.split(",") if d.strip()] if args.domains else None
    with tempfile.TemporaryDirectory(prefix="gateset_") as tmp:
        folder = Path(args.set_dir) if args.set_dir else Path(tmp)
        skipped: dict[str, int] = {}
        if args.dataset is not None:
            dataset = None if args.dataset == "builtin" else Path(args.dataset)
            if dataset is not None and not dataset.is_dir():
                raise FileNotFoundError(f"dataset folder not found: {dataset}")
            labels, skipped = generate(folder, dataset, args.seed, domains)
        else:
            labels = [lab for lab in read_labels(folder) if not domains or lab.domain in domains]
        rows = score_set(folder, labels)
    result: dict[str, Any] = {
        "created_at": datetime.now(UTC).isoformat(),
        "command": sys.argv[1:],
        "dataset": args.dataset,
        "seed": args.seed,
        "records": len(rows),
        "not_applicable": skipped,
        "figures": report(rows),
    }
    if args.misses:
        result["misses"] = misses(rows)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    _print(result, out)
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _print(result: dict[str, Any], out: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 140))
    for group, per in result["figures"].items():
        t = Table(title=f"validation gate on labelled faults: {group} ({per['gate']['n']} records)")
        for col in (
            "validator",
            "caller recall",
            "precision",
            "false-invalid clean",
            "false-invalid agent",
            "unrated",
        ):
            t.add_column(col, justify="left" if col == "validator" else "right")
        for v, f in per.items():
            t.add_row(
                v, _pct(f["caller_recall"]), _pct(f["precision"]), _pct(f["false_invalid_clean"]),
                _pct(f["false_invalid_agent"]), str(f["unrated"]),
            )  # fmt: skip
        console.print(t)
        kinds = per["gate"]["caller_recall_by_kind"]
        console.print(
            "  caught per caller-fault kind (gate): "
            + ", ".join(f"{k} {x['caught']}/{x['n']}" for k, x in kinds.items()),
            highlight=False,
        )
    if result["not_applicable"]:
        console.print(f"not applicable (scenario has no place for the fault): {result['not_applicable']}")
    console.print(f"wrote {out}")
