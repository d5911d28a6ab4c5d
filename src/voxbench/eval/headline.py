"""The headline a person reads first: EVA-A and EVA-X pass@1 (and pass@k), saying who judged.

Shared by `voxbench eval` and `voxbench run` so both print the same lines from a
`metrics_summary.json`. When the judge metrics were rated by the offline methods the line
says "offline-judged" and, per judged component, the method's measured agreement with
human labels (from the shipped calibration), so nobody mistakes it for a frontier judge.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.aggregate import COMPOSITES
from voxbench.eval.offline._shipped import honest_figure

JUDGED = {
    "EVA-A": ("faithfulness",),
    "EVA-X": ("conversation_progression", "conciseness"),
}


def _fmt(x: Any) -> str:
    return "-" if x is None else f"{x:.3f}"


def judged_by(summary: dict[str, Any], metrics: tuple[str, ...]) -> str:
    """'offline-judged (conciseness: listening-load-logit, acc 0.902 κ 0.766 test half)',
    'LLM-judged (model)', or 'unjudged' for the judge components of a composite. The figure is
    the split's test half (else CV, else marked in-sample): never the flattering one."""
    prov = summary.get("provenance") or {}
    mode = prov.get("judge_mode")
    if mode == "offline":
        offline = prov.get("offline_judges") or {}
        parts = []
        for m in metrics:
            o = offline.get(m)
            if o is None:
                parts.append(f"{m}: no offline method")
                continue
            a = o.get("agreement") or {}
            src, how = honest_figure(a)
            agree = (
                f", acc {_fmt(src.get('accuracy'))} κ {_fmt(src.get('cohen_kappa'))} {how}"
                if src.get("accuracy") is not None
                else ", agreement not measured"
            )
            low = " LOW-CONFIDENCE" if a.get("low_confidence") else ""
            parts.append(f"{m}: {o['method'].removeprefix('offline:')}{agree}{low}")
        return "offline-judged (" + "; ".join(parts) + ")"
    if mode == "llm":
        models = ", ".join(str(v) for v in (prov.get("judges") or {}).values())
        return f"LLM-judged ({models or 'judge'})"
    return "unjudged (judge metrics unscored)"


def headline_lines(summary: dict[str, Any]) -> list[str]:
    """One line per EVA pass composite: pass@1 (the mean of the per-record pass), pass@k
    when there are several trials, the record count, and who judged."""
    overall = summary.get("overall_scores") or {}
    pk = overall.get("pass_k") or {}
    lines = []
    for comp in COMPOSITES:
        if comp.kind != "pass" or comp.name.split("_")[0] not in JUDGED:
            continue
        short = comp.name.split("_")[0]
        b = overall.get(comp.name) or {}
        k_block = pk.get(comp.name) or {}
        at1 = k_block.get("pass_at_1", b.get("mean"))
        s = f"{short} pass@1 {_fmt(at1)}"
        if k_block.get("k", 1) > 1:
            s += f"  pass@{k_block['k']} {_fmt(k_block.get('pass_at_k'))}"
        s += f"  ({b.get('count', 0)}/{b.get('total_records', 0)} records)  {judged_by(summary, JUDGED[short])}"
        lines.append(s)
    return lines
