"""Plain-text lines for eval's analyses (printed by `voxbench eval` after its table)."""

from __future__ import annotations

from typing import Any


def _n(v: float | None, d: int = 1) -> str:
    return "-" if v is None else f"{v:.{d}f}"


def completion_lines(summary: dict[str, Any]) -> list[str]:
    comp = summary.get("completion") or {}
    out = []
    for dom, b in (comp.get("per_domain") or {}).items():
        s, t = b["seconds"], b["turns"]
        tc = (
            "not scored"
            if b["task_completion"] is None
            else f"{100 * b['task_completion']:.0f}% ({b['tasks_completed']}/{b['conversations']})"
        )
        out.append(
            f"  {dom or '?'}: task completion {tc}; "
            f"time to completion p50 {_n(s['median'])} s, p90 {_n(s['p90'])} s; "
            f"turns p50 {_n(t['median'])}, p90 {_n(t['p90'])} ({b['timed']} timed)"
        )
    return ["time and turns to completion:", *out] if out else []


def cause_lines(summary: dict[str, Any]) -> list[str]:
    fc = summary.get("failure_causes") or {}
    if not fc.get("failed"):
        return []
    counts = ", ".join(f"{k} {v}" for k, v in (fc.get("counts") or {}).items() if v)
    stages = fc.get("infrastructure_stages") or {}
    st = f" (infrastructure: {', '.join(f'{k} {v}' for k, v in stages.items())})" if stages else ""
    return [f"why conversations failed ({fc['failed']}): {counts}{st}"]


def variance_lines(summary: dict[str, Any]) -> list[str]:
    v = summary.get("variance") or {}
    per = v.get("per_metric") or {}
    if not per:
        return [f"variance split: {v['note']}"] if v.get("note") else []
    out = [f"variance split (k = {v.get('k')}; share of variance: scenario / trial / judge):"]
    for name, b in per.items():
        sh = b["share"]
        parts = [
            f"{100 * sh[p]:.0f}%" if sh.get(p) is not None else "-" for p in ("scenario", "trial", "judge")
        ]
        if "judge" not in sh:
            parts[2] = "n/a"
        out.append(
            f"  {name}: mean {b['mean']:.3f}; {' / '.join(parts)} (total var {b['total_variance']:.4f})"
        )
    for name, t in (v.get("pass_at_1_trials_needed") or {}).items():
        if t.get("trials_needed") is not None:
            need = f"{t['trials_needed']} trials"
        elif t.get("scenarios_needed_at_k") is None:
            need = t.get("note") or "not estimable"
        else:
            need = f"not reachable by trials (about {t.get('scenarios_needed_at_k')} scenarios needed)"
        out.append(
            f"  {name} pass@1 CI width {t['model_width_now']:.3f} -> under {t['target_width']:.2f}: {need}"
        )
    return out


def analysis_lines(summary: dict[str, Any]) -> list[str]:
    return completion_lines(summary) + cause_lines(summary) + variance_lines(summary)
