"""Run summary from the run folder, eval scoring hand-off, and ``--fail-under`` gating.

Counts are recomputed from disk, not from in-memory counters, so a run killed and
resumed three times still counts every kept attempt exactly once.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from voxbench.orchestrator.classify import fault_class
from voxbench.orchestrator.config import JudgesConfig
from voxbench.orchestrator.jobs import ConversationSpec
from voxbench.orchestrator.layout import RunLayout


def _record(p: Path) -> dict[str, Any]:
    try:
        data = json.loads((p / "record.json").read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _pacing(p: Path) -> tuple[int, int, float]:
    ev = p / "events.jsonl"
    under = late = 0
    worst = 0.0
    if not ev.is_file():
        return 0, 0, 0.0
    for line in ev.read_text(encoding="utf-8").splitlines():
        if '"pacing"' not in line:
            continue
        e = json.loads(line)
        if e.get("type") == "pacing":
            under += int(e.get("underruns", 0))
            late += int(e.get("late_chunks", 0))
            worst = max(worst, float(e.get("max_lateness_ms", 0.0)))
    return under, late, worst


def build_summary(layout: RunLayout, specs: Iterable[ConversationSpec]) -> dict[str, Any]:
    """Count final outcomes and kept failed attempts for the planned conversations."""
    planned = [s.conversation_id for s in specs]
    states = layout.scan()
    final: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    infra_details: list[dict[str, Any]] = []
    regenerated_convs = 0
    under = late = late_convs = 0
    worst = 0.0
    for cid in planned:
        st = states.get(cid)
        if st is None:
            continue
        if st.final_status:
            final[st.final_status] += 1
            fdir = layout.final_dir(cid)
            u, lt, w = _pacing(fdir)
            under, late, worst = under + u, late + lt, max(worst, w)
            late_convs += lt > 0
            if st.final_status == "infra_failure":
                rec = _record(fdir)
                causes[rec.get("error_source") or "no_source"] += 1
                infra_details.append(_detail(cid, rec))
        regenerated_convs += st.count("invalid") > 0
        for n, status in sorted(st.failed.items()):
            failed[status] += 1
            if status == "infra_failure":
                rec = _record(layout.failed_dir(cid, n))
                causes[rec.get("error_source") or "no_source"] += 1
                infra_details.append(_detail(cid, rec, n))
    finished = sum(final.values())
    n = len(planned)
    return {
        "planned": n,
        "finished": finished,
        "not_run": n - finished,
        "completed": final["completed"],
        "validation_failed": final["invalid"],
        "infra_failed": final["infra_failure"],
        "regenerated": failed["invalid"],
        "conversations_regenerated": regenerated_convs,
        "validation_failures": failed["invalid"] + final["invalid"],
        "infra_retried": failed["infra_failure"],
        "infra_failures": failed["infra_failure"] + final["infra_failure"],
        "attempts": finished + sum(failed.values()),
        "completed_rate": final["completed"] / n if n else 0.0,
        "infra_failure_causes": dict(causes),
        "infra_failure_details": infra_details,
        "gate": gate_summary(layout, planned, states),
        **fault_summary(layout, planned, states),
        "pacing": {
            "underruns": under,
            "late_chunks": late,
            "max_lateness_ms": round(worst, 2),
            "conversations_with_late_chunks": late_convs,
            "healthy": late_convs == 0,
        },
    }


def attempt_fault(p: Path) -> dict[str, Any] | None:
    """The fault one kept attempt met (class, meaning, cause, source), from its record's
    status and error source, or, for a completed call, the agent errors its attempt.json names."""
    rec = _record(p)
    status = rec.get("status")
    if status in ("infra_failure", "invalid"):
        src = rec.get("error_source") or ("validation" if status == "invalid" else None)
        cls, meaning = fault_class(src)
        return {"class": cls, "meaning": meaning, "cause": rec.get("error"), "source": src}
    fault = _attempt_json(p).get("fault")
    return fault if isinstance(fault, dict) else None


def fault_summary(layout: RunLayout, planned: list[str], states: Mapping[str, Any]) -> dict[str, Any]:
    """Every fault the run met, one entry per attempt, each with its class and cause, and
    the counts per class (the report's "faults" table)."""
    faults: list[dict[str, Any]] = []
    for cid in planned:
        st = states.get(cid)
        if st is None:
            continue
        dirs = [(n, layout.failed_dir(cid, n), False) for n in sorted(st.failed)]
        if st.final_status:
            dirs.append((None, layout.final_dir(cid), True))
        for n, d, final in dirs:
            fault = attempt_fault(d)
            if fault is not None:
                attempt = _record(d).get("attempt", n)
                faults.append({"conversation_id": cid, "attempt": attempt, "final": final, **fault})
    return {"fault_classes": dict(Counter(f["class"] for f in faults)), "faults": faults}


def _attempt_json(p: Path) -> dict[str, Any]:
    try:
        data = json.loads((p / "attempt.json").read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def gate_summary(layout: RunLayout, planned: list[str], states: Mapping[str, Any]) -> dict[str, Any]:
    """The validation gate in the open: attempts each conversation used and, for every
    discarded attempt, why (the validators that failed it and their evidence) and where its
    record is kept."""
    attempts: dict[str, int] = {}
    discarded: list[dict[str, Any]] = []
    for cid in planned:
        st = states.get(cid)
        if st is None:
            continue
        attempts[cid] = len(st.failed) + (1 if st.final_status else 0)
        for n, status in sorted(st.failed.items()):
            d = layout.failed_dir(cid, n)
            rec, att = _record(d), _attempt_json(d)
            gate = att.get("validation") or {}
            discarded.append(
                {
                    "conversation_id": cid,
                    "attempt": n,
                    "status": status,
                    "reason": rec.get("error") or att.get("cause"),
                    "failed_validators": gate.get("failed_metrics") or [],
                    "evidence": gate.get("evidence") or {},
                    "record": str(d.relative_to(layout.root)),
                }
            )
    return {
        "attempts_by_conversation": attempts,
        "regenerated_by_validator": dict(
            Counter(v for x in discarded if x["status"] == "invalid" for v in x["failed_validators"])
        ),
        "discarded_attempts": discarded,
    }


def _detail(cid: str, rec: dict[str, Any], attempt: int | None = None) -> dict[str, Any]:
    return {
        "conversation_id": cid,
        "attempt": rec.get("attempt", attempt),
        "error_source": rec.get("error_source"),
        "error": rec.get("error"),
    }


def score_with_eval(
    run_dir: Path, judges: JudgesConfig, progress: Any = None
) -> tuple[dict[str, Any] | None, str]:
    """Hand the run folder to voxbench.eval (it writes metrics_summary.json).

    Returns (metrics summary, note). Records can be re-scored later with ``voxbench eval``.
    """
    from voxbench.orchestrator.eval_bridge import score_run_dir

    return score_run_dir(run_dir, judges, progress), "voxbench.eval.runner.score_run"


def flatten(d: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _lookup(flat: Mapping[str, Any], key: str) -> tuple[Any, str]:
    """The value ``key`` names in a flattened summary, or why none: an exact path, else a unique
    dotted suffix (``EVA-A_pass.mean``), else a unique object with a ``mean`` (``EVA-A_pass``,
    the pass@1 estimate with its CI beside it), so a user need not know the summary's nesting."""
    if key in flat:
        return flat[key], ""
    for probe in (key, f"{key}.mean"):
        hits = [k for k in flat if k == probe or k.endswith("." + probe)]
        if len(hits) == 1:
            return flat[hits[0]], ""
        if len(hits) > 1:
            return None, f"ambiguous key (matches {', '.join(sorted(hits)[:3])})"
    return None, "not in the summary"


def check_fail_under(values: Mapping[str, Any], thresholds: Mapping[str, float]) -> list[str]:
    """Return one message per threshold not met; a key that is missing fails too (a typo must not pass CI).

    Keys match a flattened path exactly (``pacing.late_chunks``), a unique dotted suffix of one
    (``EVA-A_pass@1`` inside the metrics summary, ``EVA-A_pass.mean``), or an object's ``mean``.
    """
    flat = flatten(values)
    problems = []
    for key, minimum in thresholds.items():
        value, missing = _lookup(flat, key)
        if missing:
            problems.append(f"{key}: {missing}")
        elif not isinstance(value, int | float):
            problems.append(f"{key}: {value!r} is not a number")
        elif value < minimum:
            problems.append(f"{key}={value:g} < {minimum:g}")
    return problems
