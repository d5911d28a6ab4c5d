"""Synthetic rows for the paper analyses' tests: every metric value set by hand."""

from __future__ import annotations

from voxbench.eval.aggregate import record_aggregates
from voxbench.eval.paper_analyses.rows import MetricCell, Row
from voxbench.eval.types import MetricResult

PASSING = {
    "task_completion": 1.0,
    "faithfulness": 1.0,
    "agent_speech_fidelity": 1.0,
    "conversation_progression": 1.0,
    "conciseness": 1.0,
    "turn_taking": 1.0,
}


def row(
    system: str,
    scenario: str,
    trial: int = 0,
    *,
    pipeline: str = "cascade",
    domain: str = "airline",
    a: bool | None = None,
    x: bool | None = None,
    tool: list[float] | None = None,
    plain: list[float] | None = None,
    extra: dict[str, float | str] | None = None,
    **values: float | str,
) -> Row:
    """A completed clean conversation. Metric values default to passing; a value "skipped" or
    "missing" sets that state. `a` / `x` force the EVA-A / EVA-X composites (else computed
    from the values by `aggregate.record_aggregates`, eval's own rule)."""
    vals: dict[str, float | str] = {**PASSING, **values, **(extra or {})}
    cells = {
        n: MetricCell(state=v) if isinstance(v, str) else MetricCell(value=float(v), state="ok")
        for n, v in vals.items()
    }
    results = {}
    for n, v in vals.items():
        if v == "skipped":
            results[n] = MetricResult.skip(n, "n/a")
        elif v == "missing":
            results[n] = MetricResult.fail(n, "boom")
        else:
            results[n] = MetricResult(name=n, score=float(v), normalized_score=float(v))
    agg = record_aggregates(results)
    if a is not None:
        agg["EVA-A_pass"] = float(a)
    if x is not None:
        agg["EVA-X_pass"] = float(x)
    return Row(
        record_id=f"{system}/{scenario}/{trial}",
        system=system,
        pipeline=pipeline,
        domain=domain,
        scenario_id=scenario,
        trial=trial,
        status="completed",
        metrics=cells,
        aggregates=agg,
        tool_latencies=tool or [],
        plain_latencies=plain or [],
    )


def trials(system: str, outcomes: list[list[bool]], comp: str = "a", **kw: object) -> list[Row]:
    """One row per (scenario, trial) with the composite `comp` ("a" or "x") set as given."""
    return [
        row(system, f"s{i}", j, **{comp: o}, **kw)  # type: ignore[arg-type]
        for i, per in enumerate(outcomes)
        for j, o in enumerate(per)
    ]
