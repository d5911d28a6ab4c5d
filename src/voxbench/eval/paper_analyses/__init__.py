"""The EVA-Bench paper's analyses (sections 4-5) for your own runs: pure functions of the
`metrics.json` files, read into `rows.Row` records.

One module per analysis: `passk_gap` (pass@1 against pass^k), `trial_count` (CI width by
trials), `thresholds` (threshold sensitivity), `key_entities` (key-entity transcription
against task completion), `faithfulness` (faithfulness against task completion) and `facets`
(components and latency by architecture). `paper_analyses(rows)` runs all six.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.paper_analyses.facets import facets
from voxbench.eval.paper_analyses.faithfulness import faithfulness_vs_completion
from voxbench.eval.paper_analyses.key_entities import key_entities
from voxbench.eval.paper_analyses.passk_gap import passk_gap
from voxbench.eval.paper_analyses.rows import Row, load_rows, usable
from voxbench.eval.paper_analyses.thresholds import DEFAULT_METRIC, threshold_sweep
from voxbench.eval.paper_analyses.trial_count import trial_count

__all__ = ["Row", "load_rows", "paper_analyses", "usable"]


def paper_analyses(rows: list[Row], sweep_metric: str = DEFAULT_METRIC) -> dict[str, Any]:
    """All six blocks over the completed clean conversations of `rows`."""
    use = usable(rows)
    sweeps = [threshold_sweep(use)]
    if sweep_metric != DEFAULT_METRIC:
        sweeps.append(threshold_sweep(use, sweep_metric))
    return {
        "conversations": len(use),
        "systems": sorted({r.system for r in use}),
        "passk_gap": passk_gap(use),
        "trial_count": trial_count(use),
        "thresholds": sweeps,
        "key_entities": key_entities(use),
        "faithfulness": faithfulness_vs_completion(use),
        "facets": facets(use),
    }
