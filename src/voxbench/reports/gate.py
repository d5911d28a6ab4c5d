"""The report's validation-gate section: how many attempts each conversation used, why each
discarded attempt was regenerated (the validators that failed it, with their evidence), and a
link to each discarded attempt's record. Read from the run folder only: every kept
`<conv>_failed_attempt_<n>` folder's record.json (its error) and attempt.json (the gate's
details, written by the orchestrator)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.reports.html import e, table

_FAILED = re.compile(r"^(?P<conv>.+)_failed_attempt_(?P<n>\d+)$")


@dataclass
class AttemptView:
    """One discarded attempt of a conversation."""

    conversation_id: str
    attempt: int
    status: str
    reason: str
    path: Path
    failed_validators: list[str] = field(default_factory=list)
    evidence: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    fault: str = ""  # the orchestrator's class and source of the fault ("infrastructure: crash")

    @property
    def status_text(self) -> str:
        return f"{self.status} ({self.fault})" if self.fault else self.status


def _json(p: Path) -> dict[str, Any]:
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_attempts(records: Path) -> list[AttemptView]:
    """Every discarded attempt kept under a run's records folder, in conversation order."""
    out = []
    for d in sorted(p for p in records.iterdir() if p.is_dir()) if records.is_dir() else []:
        m = _FAILED.match(d.name)
        if not m:
            continue
        rec, att = _json(d / "record.json"), _json(d / "attempt.json")
        raw = att.get("validation")
        gate: dict[str, Any] = raw if isinstance(raw, dict) else {}
        raw_fault = att.get("fault")
        fault: dict[str, Any] = raw_fault if isinstance(raw_fault, dict) else {}
        out.append(
            AttemptView(
                conversation_id=m["conv"], attempt=int(m["n"]), status=str(rec.get("status") or "infra_failure"),
                reason=str(rec.get("error") or att.get("cause") or ""), path=d,
                failed_validators=list(gate.get("failed_metrics") or []), evidence=dict(gate.get("evidence") or {}),
                fault=f"{fault['class']}: {fault.get('source')}" if fault.get("class") else "",
            )
        )  # fmt: skip
    return sorted(out, key=lambda a: (a.conversation_id, a.attempt))


def _evidence_html(a: AttemptView) -> str:
    items = [
        f"<li><b>{e(v)}</b>: {e(x.get('rule', ''))}"
        + (f" (turn {e(x['turn'])})" if x.get("turn") is not None else "")
        + (f"<div class='sub'>{e(x.get('claim', ''))}</div>" if x.get("claim") else "")
        + "</li>"
        for v, xs in a.evidence.items()
        for x in xs[:5]
    ]
    return (
        f"<ul class='evidence'>{''.join(items)}</ul>" if items else "<span class='muted'>none recorded</span>"
    )


def gate_section(run_attempts: list[tuple[str, dict[str, int], list[AttemptView]]]) -> str:
    """`run_attempts`: per run, (name, attempts used per conversation, discarded attempts)."""
    rows = []
    for run, used, attempts in run_attempts:
        for a in attempts:
            link = (a.path / "record.json").resolve().as_uri()
            rows.append(
                f"<tr><td>{e(run)}</td><td>{e(a.conversation_id)}</td>"
                f"<td>{a.attempt + 1} of {used.get(a.conversation_id, a.attempt + 2)}</td>"
                f"<td>{e(a.status_text)}</td><td>{e(a.reason)}</td><td>{_evidence_html(a)}</td>"
                f"<td><a href='{e(link)}'>record</a></td></tr>"
            )
    total = sum(len(u) for _, u, _ in run_attempts)
    extra = sum(n - 1 for _, u, _ in run_attempts for n in u.values())
    intro = (
        f"<p class='muted'>{total} conversations used {total + extra} attempts; {extra} attempt(s) were "
        "discarded and regenerated. The gate discards a conversation only on evidence about the "
        "caller (docs/judges.md, 'The validation gate'); each discarded attempt's record is kept.</p>"
    )
    head = ["Run", "Conversation", "Attempt", "Status", "Why", "Evidence", "Record"]
    body = table(head, rows, "gate") if rows else "<p>No attempt was discarded.</p>"
    return "<section id='gate'><h2>Validation gate</h2>" + intro + body + "</section>"
