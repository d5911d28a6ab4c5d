"""`voxbench eval DIR` on a τ-voice run: the interaction panel per domain, with counts.

Writes `interaction_metrics.json` (τ-voice's field names, its `counts` block, the windows
used) into DIR, or into the working directory when DIR is read-only (a published fixture).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from voxbench.eval.tau_voice.panel import FIELDS, SUPPORT, shown
from voxbench.eval.tau_voice.runs import score_tau_voice
from voxbench.records.io import atomic_write_json


def output_path(run_dir: Path, name: str = "interaction_metrics.json") -> Path:
    """DIR's own file, unless DIR is marked read-only (mode bits, not access(): root may
    write anywhere, and a published fixture must stay as published)."""
    if run_dir.stat().st_mode & 0o222 and os.access(run_dir, os.W_OK):
        return run_dir / name
    return Path.cwd() / f"{run_dir.resolve().name}_{name}"


def run_tau_voice_eval(run_dir: Path) -> int:
    from rich.console import Console

    doc = score_tau_voice(run_dir)
    out = output_path(run_dir)
    atomic_write_json(out, doc)
    console = Console()
    block = doc["interaction_metrics"]
    for line in panel_lines(block):
        console.print(line, highlight=False)
    console.print(f"written: {out}", highlight=False)
    return 0


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.4f}"


def panel_lines(block: dict[str, Any]) -> list[str]:
    """One row per domain (value, its supporting count; `*` marks a rate the leaderboard hides,
    backed by fewer than 10 events), then the counts and windows."""
    lines = [f"τ-voice interaction panel ({block['version']})"]
    head = f"{'field':<26} {'':<5}" + "".join(f"{d:>18}" for d in block["domains"])
    lines.append(head)
    for field, sym, direction in FIELDS:
        row = f"{field:<26} {sym:<5}"
        for p in block["domains"].values():
            cell = f"{_fmt(p[field])} n={p['counts'][SUPPORT[field]]}{'' if shown(p, field) else '*'}"
            row += f"{cell:>18}"
        lines.append(row + ("  (lower is better)" if direction == "down" else ""))
    for dom, p in block["domains"].items():
        reward = "not recorded" if p["task_reward_mean"] is None else f"{p['task_reward_mean']:.4f}"
        lines.append(f"{dom}: {p['num_simulations']} simulations, task reward {reward}")
        lines.append("  counts: " + ", ".join(f"{k}={v}" for k, v in p["counts"].items()))
    lines.append("windows: " + ", ".join(f"{k}={v}" for k, v in block["config"].items()))
    lines.append("* fewer than 10 events: τ-voice's leaderboard hides this rate")
    return lines
