"""Analysis 5 (EVA-Bench §5.5): faithfulness against task completion.

A faithfulness deviation is a conversation whose normalised faithfulness is below 1.0 (the
judge found at least one ungrounded claim, policy breach or misleading statement). Two
shares say how far the two accuracy components are apart: of the conversations whose task
was completed, how many still deviated (paper: 72.2 %), and of the deviations, how many came
with a failed task (paper: 50.5 %).
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.paper_analyses.rows import Row, by_system, too_few

FAITH = "faithfulness"
TC = "task_completion"


def shares(rows: list[Row]) -> dict[str, Any]:
    pairs = [(f, t) for r in rows if (f := r.value(FAITH)) is not None and (t := r.value(TC)) is not None]
    done = [f for f, t in pairs if t >= 1.0 - 1e-9]
    dev = [t for f, t in pairs if f < 1.0 - 1e-9]
    done_dev = sum(1 for f in done if f < 1.0 - 1e-9)
    dev_failed = sum(1 for t in dev if t < 1.0 - 1e-9)
    return {
        "n": len(pairs),
        "completed": len(done),
        "completed_with_deviation": done_dev,
        "share_completed_with_deviation": round(done_dev / len(done), 4) if done else None,
        "deviations": len(dev),
        "deviations_in_failed_tasks": dev_failed,
        "share_deviations_in_failed_tasks": round(dev_failed / len(dev), 4) if dev else None,
    }


def faithfulness_vs_completion(rows: list[Row]) -> dict[str, Any]:
    """The analysis block: the two shares per system and over all systems."""
    note = too_few(rows)
    if note:
        return {"note": note}
    out: dict[str, Any] = {
        "per_system": {s: shares(rs) for s, rs in by_system(rows).items()},
        "all": shares(rows),
    }
    if not out["all"]["n"]:
        out["note"] = f"no conversation has both {FAITH} and {TC}"
    return out
