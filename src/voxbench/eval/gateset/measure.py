"""The validation gate measured on a labelled set: per validator and for the whole gate.

A validator *flags* a record when it would make the gate discard it: user_behavioral_fidelity
or user_pacing_fidelity below 1, conversation_valid_end not 1, user_speech_fidelity with a
caller turn rated 1 (or any of them failing to rate). "Unscored" (no method, no audio) flags nothing and is counted.
Figures, per group of records (a domain, or all):

* recall per caller-fault kind and overall: flagged caller-fault records / caller-fault records;
* precision: flagged caller-fault records / all flagged records;
* false-invalid rate on clean records (overall and per kind: "clean", and controls such as
  "harness_pause_waited"), and on agent-fault records (overall and per kind).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from voxbench.eval.gateset.build import GateLabel
from voxbench.eval.metrics.validation import validation_gate
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult

VALIDATORS = (
    "user_behavioral_fidelity",
    "conversation_valid_end",
    "user_speech_fidelity",
    "user_pacing_fidelity",
)
GATE = "gate"


def flags(name: str, res: MetricResult) -> bool | None:
    """True: this validator fails the record; False: passes; None: it did not rate it."""
    if res.skipped:
        return None
    if not res.ok:
        return True
    if name == "user_speech_fidelity":
        return bool(res.details.get("any_turn_rated_1"))
    return (res.value or 0.0) < 1.0


def score_set(
    folder: Path,
    labels: Iterable[GateLabel],
    config: EvalConfig | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Each labelled record's verdict per validator and for the gate, with the evidence."""
    from voxbench.eval.from_record import load_context
    from voxbench.eval.types import run_metric

    config = config or EvalConfig(judge_mode="offline")
    rows = []
    for n, lab in enumerate(labels):
        ctx = load_context(folder / lab.record)
        results = {v: run_metric(REGISTRY[v], ctx, config) for v in VALIDATORS}
        gate = validation_gate(results)
        verdict: dict[str, bool | None] = {v: flags(v, r) for v, r in results.items()}
        verdict[GATE] = not gate["valid"]
        rows.append(
            {
                "label": lab.model_dump(),
                "flags": verdict,
                "evidence": gate.get("evidence", {}),
                "detected": results["user_behavioral_fidelity"].details.get("detected", []),
            }
        )
        if progress:
            progress(n + 1)
    return rows


def _rate(hit: int, n: int) -> float | None:
    return round(hit / n, 4) if n else None


def figures(rows: list[dict[str, Any]], validator: str) -> dict[str, Any]:
    """One validator's figures over `rows` (see the module docstring)."""
    by_kind: dict[str, list[bool | None]] = defaultdict(list)
    at_fault: dict[str, list[bool | None]] = defaultdict(list)
    for r in rows:
        lab = r["label"]
        f = r["flags"][validator]
        by_kind[lab["kind"]].append(f)
        at_fault[lab["at_fault"]].append(f)
    caller, agent, clean = at_fault["caller"], at_fault["agent"], at_fault["none"]
    flagged = sum(bool(f) for fs in at_fault.values() for f in fs)
    kinds = sorted(by_kind)
    return {
        "n": len(rows),
        "unrated": sum(f is None for fs in at_fault.values() for f in fs),
        "caller_recall": _rate(sum(bool(f) for f in caller), len(caller)),
        "caller_recall_by_kind": {
            k: {"caught": sum(bool(f) for f in by_kind[k]), "n": len(by_kind[k]),
                "recall": _rate(sum(bool(f) for f in by_kind[k]), len(by_kind[k]))}
            for k in kinds if _party(rows, k) == "caller"
        },
        "precision": _rate(sum(bool(f) for f in caller), flagged),
        "false_invalid_clean": _rate(sum(bool(f) for f in clean), len(clean)),
        "false_invalid_clean_by_kind": {
            k: {"flagged": sum(bool(f) for f in by_kind[k]), "n": len(by_kind[k])}
            for k in kinds if _party(rows, k) == "none"
        },
        "false_invalid_agent": _rate(sum(bool(f) for f in agent), len(agent)),
        "false_invalid_agent_by_kind": {
            k: {"flagged": sum(bool(f) for f in by_kind[k]), "n": len(by_kind[k])}
            for k in kinds if _party(rows, k) == "agent"
        },
        "n_clean": len(clean), "n_caller": len(caller), "n_agent": len(agent),
    }  # fmt: skip


def _party(rows: list[dict[str, Any]], kind: str) -> str:
    return next(r["label"]["at_fault"] for r in rows if r["label"]["kind"] == kind)


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures per validator and the gate, over all records and per domain."""
    groups: dict[str, list[dict[str, Any]]] = {"all": rows}
    for r in rows:
        groups.setdefault(r["label"]["domain"], []).append(r)
    return {g: {v: figures(rs, v) for v in (*VALIDATORS, GATE)} for g, rs in groups.items()}


def misses(rows: list[dict[str, Any]], validator: str = GATE) -> list[dict[str, Any]]:
    """The records the validator got wrong (a caller fault passed, a clean or agent-fault record
    failed), with the injection and the evidence: what to read before changing a rule."""
    out = []
    for r in rows:
        lab, f = r["label"], r["flags"][validator]
        wrong = (lab["at_fault"] == "caller" and not f) or (lab["at_fault"] != "caller" and bool(f))
        if wrong:
            out.append({"record": lab["record"], "kind": lab["kind"], "injected": lab["injected"],
                        "flagged": f, "evidence": r["evidence"]})  # fmt: skip
    return out
