"""JUnit XML for CI: one test case per conversation of a run, failing on a chosen threshold.

A CI system (GitHub Actions, GitLab, Jenkins) shows each conversation as a test: passed, failed
(the task or a threshold was missed, or the simulation was invalid) or errored (the harness
could not run or score the call). Thresholds are ``KEY=VALUE`` pairs read by the same
:func:`~voxbench.orchestrator.summary.check_fail_under` as ``voxbench run --fail-under``, applied to
the conversation's own scores (any metric of its ``metrics.json``, normalised when it has a
normalised score, or an EVA composite such as ``EVA-A_pass``). A failure carries eval's failure
cause (``voxbench.eval.failure_cause``) and the path to the record, so the CI page says what went
wrong and where to look.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voxbench.eval.compare_load import FAILED_ATTEMPT_RE, metric_values, read_json_object
from voxbench.orchestrator.summary import check_fail_under
from voxbench.records import atomic_write_bytes

DEFAULT_THRESHOLDS: dict[str, float] = {"EVA-A_pass": 1.0}
"""A conversation passes when it passes EVA-A: task done, faithful, said what it meant to say."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass
class Outcome:
    """One conversation's test result: kind is passed, failure or error."""

    kind: str
    type: str = ""
    message: str = ""
    detail: str = ""


@dataclass
class JunitCounts:
    tests: int = 0
    failures: int = 0
    errors: int = 0


def _clean(text: str) -> str:
    """XML 1.0 cannot hold most control characters (a transcript may): drop them."""
    return _CONTROL.sub("", text)


def conversation_outcome(
    record: Mapping[str, Any], metrics: Mapping[str, Any] | None, thresholds: Mapping[str, float]
) -> Outcome:
    """Passed, failed or errored, and why (pure: the parsed record.json and metrics.json)."""
    status = str((metrics or {}).get("status") or record.get("status") or "unknown")
    cause = ((metrics or {}).get("analysis") or {}).get("failure_cause") or {}
    why = f"{cause.get('cause')}: {cause.get('summary')}" if cause.get("cause") else ""
    if status == "infra_failure":
        err = record.get("error") or (metrics or {}).get("error") or "the harness could not run the call"
        return Outcome("error", "infrastructure", f"infrastructure failure: {err}", why)
    if metrics is None:
        return Outcome(
            "error", "not_scored", "not scored: no metrics.json (score it with `voxbench eval RUN`)"
        )
    if status != "completed":
        failed = ", ".join((metrics.get("validation") or {}).get("failed_metrics") or []) or "validation gate"
        return Outcome("failure", "simulator_invalid", f"invalid simulation ({status}): {failed}", why)
    values, _ = metric_values(dict(metrics))
    problems = [
        p.replace(": None is not a number", ": not computed (a component missing, skipped or errored)")
        for p in check_fail_under(values, thresholds)
    ]
    if not problems:
        return Outcome("passed")
    return Outcome("failure", str(cause.get("cause") or "threshold"), "; ".join(problems), why)


def _testcase(conv_dir: Path, thresholds: Mapping[str, float], counts: JunitCounts) -> ET.Element:
    rec = read_json_object(conv_dir / "record.json")
    m_path = conv_dir / "metrics.json"
    outcome = conversation_outcome(rec, read_json_object(m_path) if m_path.is_file() else None, thresholds)
    case = ET.Element(
        "testcase",
        {
            # the domain only: scenario ids hold dots ("1.1.2"), which parsers read as packages
            "classname": f"voxbench.{rec.get('domain', '?')}",
            "name": str(rec.get("conversation_id") or conv_dir.name),
            "time": f"{float(rec.get('duration_s') or 0.0):.3f}",
            "file": str(conv_dir / "record.json"),
        },
    )
    where = f"record: {conv_dir.resolve()}"
    counts.tests += 1
    if outcome.kind != "passed":
        counts.failures += outcome.kind == "failure"
        counts.errors += outcome.kind == "error"
        el = ET.SubElement(case, outcome.kind, {"type": outcome.type, "message": _clean(outcome.message)})
        el.text = _clean("\n".join(x for x in (outcome.message, outcome.detail, where) if x))
    ET.SubElement(case, "system-out").text = where
    return case


def _suite(run_dir: Path, thresholds: Mapping[str, float], total: JunitCounts) -> ET.Element:
    base = run_dir / "records" if (run_dir / "records").is_dir() else run_dir
    dirs = sorted(
        d for d in base.iterdir() if (d / "record.json").is_file() and not FAILED_ATTEMPT_RE.match(d.name)
    )
    if not dirs:
        raise ValueError(f"{run_dir}: no conversation records found (expected records/<id>/record.json)")
    counts = JunitCounts()
    cases = [_testcase(d, thresholds, counts) for d in dirs]
    suite = ET.Element(
        "testsuite",
        {
            "name": f"voxbench {run_dir.resolve().name}",
            "tests": str(counts.tests),
            "failures": str(counts.failures),
            "errors": str(counts.errors),
            "skipped": "0",
            "time": f"{sum(float(c.get('time', '0')) for c in cases):.3f}",
        },
    )
    props = ET.SubElement(suite, "properties")
    for key, value in thresholds.items():
        ET.SubElement(props, "property", {"name": f"threshold {key}", "value": f">= {value:g}"})
    suite.extend(cases)
    total.tests += counts.tests
    total.failures += counts.failures
    total.errors += counts.errors
    return suite


def write_junit(
    run_dirs: Sequence[str | Path], path: str | Path, thresholds: Mapping[str, float] | None = None
) -> JunitCounts:
    """Write ``<testsuites>`` (one ``<testsuite>`` per run) to ``path`` atomically."""
    limits = dict(thresholds) if thresholds else dict(DEFAULT_THRESHOLDS)
    total = JunitCounts()
    root = ET.Element("testsuites", {"name": "voxbench"})
    for run_dir in run_dirs:
        p = Path(run_dir)
        if not p.is_dir():
            raise FileNotFoundError(f"run folder not found: {p}")
        root.append(_suite(p, limits, total))
    root.set("tests", str(total.tests))
    root.set("failures", str(total.failures))
    root.set("errors", str(total.errors))
    ET.indent(root)
    atomic_write_bytes(path, ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n")
    return total
