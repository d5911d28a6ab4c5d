"""`voxbench export --format tau-voice RUN_DIR`: a run in another benchmark's format."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("export", help="write a run in another benchmark's format (tau-voice)")
    p.add_argument("run_dir", help="voxbench run directory (conversations/**/record.json)")
    p.add_argument("--format", required=True, choices=["tau-voice"], help="target format")
    p.add_argument("--out", default=None, help="output folder (default RUN_DIR/export-tau-voice)")
    p.set_defaults(func=run_export)


def run_export(args: argparse.Namespace) -> int:
    from voxbench.eval.discover import discover
    from voxbench.eval.tau_voice.export import export_run

    run_dir = Path(args.run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"run directory not found: {run_dir}")
    found = [f.path for f in discover(run_dir) if f.kind == "voxbench"]
    if not found:
        raise ValueError(f"{run_dir}: no voxbench record (record.json) to export")
    out = Path(args.out) if args.out else run_dir / "export-tau-voice"
    counts = export_run(found, out)
    for dom, n in sorted(counts.items()):
        print(f"{dom}: {n} simulation(s) -> {out / dom}")
    print(f"score with τ-voice: tau2 submit interaction-metrics {out}; or: voxbench eval {out}")
    return 0
