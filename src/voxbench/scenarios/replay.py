"""Replay conformance: run every scenario's reference tool calls through our executor.

For each scenario we check (a) that every recorded tool response is reproduced and
(b) that the final database passes task completion against the expected one. This is
how we know our tools behave like EVA's without having EVA's code.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, Field

from voxbench.scenarios.domains import generated_id_pattern
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.hashing import format_diff
from voxbench.scenarios.loader import Dataset, DomainData
from voxbench.scenarios.task_completion import check_task_completion
from voxbench.scenarios.trace_evidence import (
    Difference,
    StaleRecords,
    differences,
    explain,
    explain_by_stale_record,
    explain_count,
    explain_response,
    same_scalar,
    stale_records,
)


class ScenarioReplay(BaseModel):
    """Replay outcome of one scenario."""

    domain: str
    scenario_id: str
    tool_calls: int
    # Per recorded response (byte-for-byte as JSON: 75 and 75.0 differ, as the agent reads them).
    responses_identical: int = 0
    responses_differing: int = 0
    responses_match: bool
    hash_match: bool
    first_difference: str | None = None
    # Response differences explained by a stale reference trace (each with its evidence);
    # `responses_match` is then False but `stale_trace` True.
    stale_trace: bool = False
    trace_evidence: list[str] = Field(default_factory=list)


class DomainReplay(BaseModel):
    domain: str
    scenarios: int
    responses_ok: int
    hash_ok: int
    tool_calls: int
    responses_identical: int = 0
    responses_differing: int = 0
    stale_traces: int = 0
    failures: list[ScenarioReplay] = Field(default_factory=list)


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """The JSON path of the first place two values differ, with both values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k in sorted(set(expected) | set(actual), key=str):
            if k not in actual:
                return f"{path}.{k}: missing (expected {_short(expected[k])})"
            if k not in expected:
                return f"{path}.{k}: unexpected {_short(actual[k])}"
            d = first_difference(expected[k], actual[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            d = first_difference(e, a, f"{path}[{i}]")
            if d:
                return d
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    if not same_scalar(expected, actual):
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(v: Any, n: int = 120) -> str:
    s = json.dumps(v, ensure_ascii=False, default=str)
    return s if len(s) <= n else s[: n - 3] + "..."


def collect_id_changes(want: Any, got: Any, id_re: re.Pattern[str], ids: dict[str, str]) -> None:
    """Where the reference and our response differ only in generated ids, remember the pair."""
    if isinstance(want, dict) and isinstance(got, dict):
        for k in want.keys() & got.keys():
            collect_id_changes(want[k], got[k], id_re, ids)
    elif isinstance(want, list) and isinstance(got, list):
        for x, y in zip(want, got, strict=False):
            collect_id_changes(x, y, id_re, ids)
    elif isinstance(want, str) and isinstance(got, str) and want != got:
        old, new = id_re.findall(want), id_re.findall(got)
        if len(old) == len(new):
            ids.update({a: b for a, b in zip(old, new, strict=True) if a != b})


def substitute_ids(obj: Any, ids: dict[str, str]) -> Any:
    """Replace carried-forward ids (whole tokens only) in a JSON-like value."""
    if not ids:
        return obj
    if isinstance(obj, str):
        for k in sorted(ids, key=len, reverse=True):
            if k in obj:
                obj = re.sub(re.escape(k) + r"(?![0-9a-zA-Z])", ids[k], obj)
        return obj
    if isinstance(obj, dict):
        return {k: substitute_ids(v, ids) for k, v in obj.items()}
    if isinstance(obj, list):
        return [substitute_ids(v, ids) for v in obj]
    return obj


def _lists(d: Difference) -> bool:
    return isinstance(d[1], list) and isinstance(d[2], list) and len(d[1]) != len(d[2])


Pair = tuple[int, str, dict[str, Any], dict[str, Any]]  # (call number, tool, recorded, ours)


def _compare(
    pairs: list[Pair], ids: dict[str, str], values: dict[str, str], initial: dict[str, Any]
) -> tuple[int, str | None, list[str]]:
    """Identical responses, the first unexplained difference, and every explanation.

    Two passes: the first explains differences one by one and notes the records the
    trace shows stale; the second explains what follows from those records.
    """
    identical, diff, evidence = 0, None, []
    found: list[tuple[int, str, str, list[tuple[Difference, str | None]]]] = []
    stale: StaleRecords = {}
    for n, name, want, got in pairs:
        want, got = substitute_ids(want, ids), json.loads(json.dumps(got))
        d = first_difference(want, got)
        if not d:
            identical += 1
            continue
        whole = explain_response(name, want)
        notes = [(x, whole or explain(name, x, values, initial)) for x in differences(want, got)]
        found.append((n, name, d, notes))
        stale.update(stale_records(f"call #{n} {name}", want, [x[0] for x, e in notes if e]))
    for n, name, d, notes in found:
        texts = [e or explain_by_stale_record(x, stale) for x, e in notes]
        lists = [
            (x[0], len(x[1]), len(x[2])) for (x, _), t in zip(notes, texts, strict=True) if t and _lists(x)
        ]
        texts = [t or explain_count(x, lists) for (x, _), t in zip(notes, texts, strict=True)]
        evidence += [f"call #{n} {name}: {e}" for e in dict.fromkeys(texts) if e]
        if not all(texts) and diff is None:
            diff = f"call #{n} {name}: {d}"
    return identical, diff, evidence


def replay_scenario(dd: DomainData, scenario_id: str, lang: str = "en") -> ScenarioReplay:
    sc = dd.scenarios[scenario_id]
    resolver = dd.resolver(sc, lang)
    ex = ToolExecutor(dd.domain, dd.initial_db(scenario_id, lang), sc.current_date_time, dd.agent)
    trace = sc.ground_truth.expected_trace.trace if sc.ground_truth.expected_trace else []
    calls = 0
    id_re = generated_id_pattern(dd.domain)
    ids: dict[str, str] = {}  # reference-trace id -> id our tools created
    # EVA logs a tool response when the conversation ends, and some responses share
    # objects with the database (rebooking options point at live seat counts), so we
    # compare after the whole trace has run, as EVA's recorded responses were taken.
    pairs: list[Pair] = []
    pending: tuple[str, dict[str, Any]] | None = None
    for ev in trace:
        if ev.event_type == "tool_call":
            calls += 1
            params = substitute_ids(resolver.resolve(ev.params or {}), ids)
            pending = (ev.tool_name or "", ex.execute(ev.tool_name or "", params))
        elif ev.event_type == "tool_response" and pending is not None:
            want = resolver.resolve(ev.response or {})
            if id_re is not None:
                collect_id_changes(substitute_ids(want, ids), json.loads(json.dumps(pending[1])), id_re, ids)
            pairs.append((calls, pending[0], want, pending[1]))
            pending = None
    identical, diff, evidence = _compare(pairs, ids, resolver.values, dd.initial_db(scenario_id, lang))
    tc = check_task_completion(dd.expected_db(scenario_id, lang), ex.db)
    hash_diff = None
    if not tc.success:
        hash_diff = "final db: " + (
            "; ".join(
                f"session.{m['key']} expected {m['expected']!r} got {m['actual']!r}"
                for m in tc.auth_mismatches
            )
            or format_diff(tc.diff or {}, limit=3).replace("\n", "; ")
        )
    return ScenarioReplay(
        domain=dd.domain,
        scenario_id=scenario_id,
        tool_calls=calls,
        responses_identical=identical,
        responses_differing=len(pairs) - identical,
        responses_match=diff is None and not evidence,
        hash_match=tc.success,
        first_difference=diff or hash_diff or (evidence[0] if evidence else None),
        stale_trace=diff is None and bool(evidence),
        # Also kept for an unexplained difference: other places where the same trace
        # contradicts its database are evidence for the reader.
        trace_evidence=evidence,
    )


def replay_dataset(ds: Dataset, lang: str = "en") -> list[DomainReplay]:
    """Replay every scenario of every domain in the dataset."""
    out = []
    for dom, dd in ds.domains.items():
        results = [replay_scenario(dd, sid, lang) for sid in dd.scenarios]
        out.append(
            DomainReplay(
                domain=dom,
                scenarios=len(results),
                responses_ok=sum(r.responses_match for r in results),
                hash_ok=sum(r.hash_match for r in results),
                tool_calls=sum(r.tool_calls for r in results),
                responses_identical=sum(r.responses_identical for r in results),
                responses_differing=sum(r.responses_differing for r in results),
                stale_traces=sum(r.stale_trace for r in results),
                failures=[r for r in results if not (r.responses_match and r.hash_match)],
            )
        )
    return out
