"""One row per scored conversation, read from its `metrics.json`: what the paper's analyses use.

The analyses are pure functions of these rows, so they run the same on one run folder
(`voxbench eval --analyses`) and on the report's several runs. A row keeps, per metric, its
normalised value and whether it counts for a composite (`state`): `ok` (a value), `skipped`
(not applicable: ignored by a pass composite, as EVA does) or `missing` (errored, unscored or
absent: the composite is unknown).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from voxbench.eval.compare_load import as_number

State = Literal["ok", "skipped", "missing"]
CLEAN = "clean"
_ARCHIVED = re.compile(r"_(failed_attempt|attempt|unvalidated)_\d+$")


class MetricCell(BaseModel):
    value: float | None = None
    state: State = "missing"


class Row(BaseModel):
    """One conversation as the analyses see it."""

    record_id: str
    system: str
    pipeline: str = Field(description="cascade | hybrid | s2s | external | scripted")
    domain: str
    scenario_id: str
    trial: int
    condition: str = CLEAN
    status: str
    metrics: dict[str, MetricCell] = Field(default_factory=dict)
    aggregates: dict[str, float | None] = Field(default_factory=dict)
    tool_latencies: list[float] = Field(default_factory=list)
    plain_latencies: list[float] = Field(default_factory=list)

    def value(self, name: str) -> float | None:
        """A metric's normalised value when it has one, else the composite's, else None."""
        cell = self.metrics.get(name)
        if cell is not None and cell.state == "ok":
            return cell.value
        return self.aggregates.get(name)


def _obj(d: dict[str, Any], key: str) -> dict[str, Any]:
    """`d[key]` when it is an object, else an empty one."""
    v = d.get(key)
    return v if isinstance(v, dict) else {}


def _cell(raw: dict[str, Any]) -> MetricCell:
    details = _obj(raw, "details")
    norm, score = as_number(raw.get("normalized_score")), as_number(raw.get("score"))
    value = norm if norm is not None else score
    if raw.get("error") or details.get("unscored"):
        return MetricCell(value=None, state="missing")
    if raw.get("skipped"):
        return MetricCell(value=None, state="skipped")
    return MetricCell(value=value, state="ok" if value is not None else "missing")


def _latencies(doc: dict[str, Any]) -> tuple[list[float], list[float]]:
    """(tool-call turns, other turns) per-turn latencies from response_speed and the tool calls."""
    per = _obj(_obj(_obj(_obj(doc, "metrics"), "response_speed"), "details"), "per_turn_latency_s")
    calls = _obj(doc, "context").get("tool_calls") or []
    tool_turns = {str(c.get("turn_id")) for c in calls if isinstance(c, dict)}
    tool = [float(v) for t, v in per.items() if as_number(v) is not None and str(t) in tool_turns]
    plain = [float(v) for t, v in per.items() if as_number(v) is not None and str(t) not in tool_turns]
    return tool, plain


def row_from_metrics(doc: dict[str, Any], system: str, where: str = "metrics.json") -> Row:
    """A row from one parsed `metrics.json`; `where` names the file in errors."""
    if not isinstance(doc, dict) or not isinstance(doc.get("record_id"), str):
        raise ValueError(f"{where}: not a metrics.json (no string field 'record_id')")
    rid = doc["record_id"]
    metrics = doc.get("metrics")
    if not isinstance(metrics, dict):
        raise ValueError(f"{where}: record {rid}: field 'metrics' must be an object")
    ctx = _obj(doc, "context")
    extra = _obj(ctx, "extra")
    trial = doc.get("trial", ctx.get("trial", 0))
    if not isinstance(trial, int):
        raise ValueError(f"{where}: record {rid}: field 'trial' must be an integer, got {trial!r}")
    agg = _obj(doc, "aggregate_metrics")
    tool, plain = _latencies(doc)
    analysis = _obj(doc, "analysis")
    return Row(
        record_id=rid,
        system=system,
        pipeline=str(ctx.get("pipeline_type") or "cascade"),
        domain=str(ctx.get("domain") or analysis.get("domain") or ""),
        scenario_id=str(doc.get("scenario_id") or ctx.get("scenario_id") or rid),
        trial=trial,
        condition=str(extra.get("condition") or CLEAN),
        status=str(doc.get("status") or "completed"),
        metrics={n: _cell(m) for n, m in metrics.items() if isinstance(m, dict)},
        aggregates={k: as_number(v) for k, v in agg.items()},
        tool_latencies=tool,
        plain_latencies=plain,
    )


def _system_of(record_json: Path, fallback: str) -> str:
    try:
        agent = json.loads(record_json.read_text(encoding="utf-8")).get("agent") or {}
    except (OSError, ValueError):
        return fallback
    name = agent.get("name") if isinstance(agent, dict) else None
    return name if isinstance(name, str) and name and name != "unknown" else fallback


def load_row(path: Path, system: str | None = None, run_name: str = "run") -> Row:
    """The row of one `metrics.json`; the system is the record's agent name unless given."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc
    return row_from_metrics(doc, system or _system_of(path.parent / "record.json", run_name), str(path))


def load_rows(run_dirs: Iterable[str | Path]) -> list[Row]:
    """Every scored conversation of these run folders (archived attempts left out)."""
    rows: list[Row] = []
    for d in run_dirs:
        root = Path(d)
        if not root.is_dir():
            raise FileNotFoundError(f"run folder not found: {root}")
        for p in sorted(root.rglob("metrics.json")):
            if not _ARCHIVED.search(p.parent.name):
                rows.append(load_row(p, run_name=root.resolve().name))
    return rows


def usable(rows: Iterable[Row]) -> list[Row]:
    """Completed conversations of the clean condition: what the paper's analyses read."""
    return [r for r in rows if r.status == "completed" and r.condition == CLEAN]


def by_system(rows: Iterable[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for r in rows:
        out.setdefault(r.system, []).append(r)
    return dict(sorted(out.items()))


def per_scenario(rows: Iterable[Row], get: Any) -> dict[str, list[float]]:
    """scenario -> the non-None values of `get(row)`, in trial order."""
    out: dict[str, list[float]] = {}
    for r in sorted(rows, key=lambda r: (r.scenario_id, r.trial)):
        v = get(r)
        if v is not None:
            out.setdefault(r.scenario_id, []).append(float(v))
    return out


MIN_CONVERSATIONS = 10


def too_few(rows: list[Row], *, need_k: bool = False, need_systems: int = 1) -> str | None:
    """Why these rows cannot carry an analysis (None: they can). The issue's floor: under 10
    conversations, one system where systems are compared, one trial where trials are."""
    if len(rows) < MIN_CONVERSATIONS:
        return f"needs at least {MIN_CONVERSATIONS} scored clean conversations (has {len(rows)})"
    n_sys = len({r.system for r in rows})
    if n_sys < need_systems:
        return f"needs at least {need_systems} systems (has {n_sys})"
    if need_k and max_trials(rows) < 2:
        return "needs k >= 2 trials per scenario (voxbench run --trials k)"
    return None


def max_trials(rows: Iterable[Row]) -> int:
    """The largest number of trials any (system, scenario) has."""
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        counts[(r.system, r.scenario_id)] = counts.get((r.system, r.scenario_id), 0) + 1
    return max(counts.values(), default=0)
