"""Check an EVA-format dataset folder and report *every* problem, each with its location.

The loader stops at the first problem (nothing may half-load into a run); an author
fixing a folder wants the whole list at once, each naming the file, the record and the
field, so `voxbench scenarios validate DIR` goes through everything it can reach:

- layout: `data/<domain>_dataset.json`, `configs/agents/<domain>_agent.yaml`, one
  starting database per scenario;
- every record against the scenario model (all pydantic errors, not the first), ids unique;
- the reference conversation: tools it calls exist in the agent YAML, parameters are
  declared and required ones present;
- placeholders (`<FIRST_NAME>` ...) that the record's culture overrides cannot resolve;
- warnings (not errors): leftover `TODO` text from `voxbench scenarios new`, a reference
  conversation without tool calls.

Replay (do the calls reproduce the expected database?) is `voxbench tools replay`;
`validate --replay` runs it too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from voxbench.scenarios.agent_spec import AgentSpec, load_agent_spec
from voxbench.scenarios.culture import placeholder_values
from voxbench.scenarios.errors import ScenarioError
from voxbench.scenarios.loader import DOMAINS
from voxbench.scenarios.models import Scenario

_TOKEN_RE = re.compile(r"<[A-Z_]+>")
TODO_MARK = "TODO"


class Issue(BaseModel):
    """One located problem: file, record id and field (when known)."""

    severity: Literal["error", "warning"] = "error"
    path: str
    record_id: str | None = None
    field: str | None = None
    message: str

    def __str__(self) -> str:
        where = self.path
        if self.record_id is not None:
            where += f" [record {self.record_id}]"
        if self.field:
            where += f" field '{self.field}'"
        return f"{self.severity}: {where}: {self.message}"


class ValidationReport(BaseModel):
    root: str
    domains: dict[str, int]
    issues: list[Issue]

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "warning"]


def _read(path: Path, issues: list[Issue], record_id: str | None = None) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        issues.append(Issue(path=str(path), record_id=record_id, message="file not found"))
    except json.JSONDecodeError as exc:
        issues.append(
            Issue(
                path=str(path),
                record_id=record_id,
                message=f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            )
        )
    return None


def _pydantic_issues(path: str, rid: str, exc: ValidationError) -> list[Issue]:
    return [
        Issue(path=path, record_id=rid, field=".".join(str(p) for p in e["loc"]), message=e["msg"])
        for e in exc.errors()
    ]


def _strings(obj: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every (field path, string) in a JSON value."""
    if isinstance(obj, str):
        return [(prefix, obj)]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in _strings(v, f"{prefix}.{k}" if prefix else str(k))]
    if isinstance(obj, list):
        return [x for i, v in enumerate(obj) for x in _strings(v, f"{prefix}[{i}]")]
    return []


def _trace_issues(path: str, sc: Scenario, agent: AgentSpec | None) -> list[Issue]:
    out: list[Issue] = []
    trace = sc.ground_truth.expected_trace.trace if sc.ground_truth.expected_trace else []
    calls = [(i, ev) for i, ev in enumerate(trace) if ev.event_type == "tool_call"]
    if not calls:
        out.append(
            Issue(
                severity="warning",
                path=path,
                record_id=sc.id,
                field="ground_truth.expected_trace.trace",
                message="reference conversation has no tool calls: replay cannot check the expected database",
            )
        )
    if agent is None:
        return out
    for i, ev in calls:
        fld = f"ground_truth.expected_trace.trace[{i}]"
        spec = agent.tool(ev.tool_name or "")
        if spec is None:
            out.append(
                Issue(
                    path=path,
                    record_id=sc.id,
                    field=f"{fld}.tool_name",
                    message=f"unknown tool {ev.tool_name!r}",
                )
            )
            continue
        params = ev.params or {}
        for name in sorted(set(params) - set(spec.params)):
            out.append(
                Issue(
                    path=path,
                    record_id=sc.id,
                    field=f"{fld}.params.{name}",
                    message=f"{spec.name} has no parameter {name!r} (has {sorted(spec.params)})",
                )
            )
        for p in spec.required_parameters:
            if params.get(p.name) is None:
                out.append(
                    Issue(
                        path=path,
                        record_id=sc.id,
                        field=f"{fld}.params.{p.name}",
                        message=f"required parameter of {spec.name} missing",
                    )
                )
    return out


def _text_issues(path: str, rid: str, raw: dict[str, Any], sc: Scenario) -> list[Issue]:
    """Unresolvable placeholders (errors) and scaffold TODOs left in (warnings)."""
    known = set(placeholder_values(sc))
    out: list[Issue] = []
    for field, text in _strings(raw):
        unknown = sorted({t for t in _TOKEN_RE.findall(text) if t not in known})
        if unknown:
            out.append(
                Issue(
                    path=path,
                    record_id=rid,
                    field=field,
                    message=f"placeholder(s) {', '.join(unknown)} not set by culture_overrides",
                )
            )
        if TODO_MARK in text:
            out.append(
                Issue(severity="warning", path=path, record_id=rid, field=field, message="still says TODO")
            )
    return out


def _check_record(
    path: Path, i: int, rec: Any, agent: AgentSpec | None, db_dir: Path, seen: set[str]
) -> list[Issue]:
    rid = str(rec.get("id")) if isinstance(rec, dict) and "id" in rec else f"#{i}"
    if not isinstance(rec, dict):
        return [Issue(path=str(path), record_id=rid, message="scenario must be a JSON object")]
    try:
        sc = Scenario.model_validate(rec)
    except ValidationError as exc:
        return _pydantic_issues(str(path), rid, exc)
    issues: list[Issue] = []
    if sc.id in seen:
        issues.append(Issue(path=str(path), record_id=sc.id, field="id", message="duplicate scenario id"))
    seen.add(sc.id)
    if not sc.ground_truth.expected_scenario_db:
        issues.append(
            Issue(
                path=str(path),
                record_id=sc.id,
                field="ground_truth.expected_scenario_db",
                message="expected database is empty",
            )
        )
    db = _read(db_dir / f"{sc.id}.json", issues, sc.id)
    if db is not None and not isinstance(db, dict):
        issues.append(
            Issue(path=str(db_dir / f"{sc.id}.json"), record_id=sc.id, message="must be a JSON object")
        )
    issues += _trace_issues(str(path), sc, agent)
    issues += _text_issues(str(path), sc.id, rec, sc)
    return issues


def validate_domain(root: Path, domain: str) -> tuple[int, list[Issue]]:
    """All issues of one domain; returns (records seen, issues)."""
    issues: list[Issue] = []
    agent: AgentSpec | None = None
    agent_path = root / "configs" / "agents" / f"{domain}_agent.yaml"
    try:
        agent = load_agent_spec(agent_path)
    except ScenarioError as exc:
        issues.append(
            Issue(
                path=exc.path, record_id=exc.record_id, field=exc.field, message=str(exc).split(": ", 1)[-1]
            )
        )
    path = root / "data" / f"{domain}_dataset.json"
    data = _read(path, issues)
    if data is None:
        return 0, issues
    if not isinstance(data, list):
        return 0, [*issues, Issue(path=str(path), message="dataset must be a JSON array of scenarios")]
    seen: set[str] = set()
    db_dir = root / "data" / f"{domain}_scenarios"
    for i, rec in enumerate(data):
        issues += _check_record(path, i, rec, agent, db_dir, seen)
    return len(data), issues


def validate_dir(root: str | Path) -> ValidationReport:
    """Validate every domain found in an EVA-format folder."""
    root = Path(root)
    if not root.is_dir():
        return ValidationReport(
            root=str(root), domains={}, issues=[Issue(path=str(root), message="not a folder")]
        )
    found = [d for d in DOMAINS if (root / "data" / f"{d}_dataset.json").is_file()]
    extra = sorted(
        p.name.removesuffix("_dataset.json")
        for p in (root / "data").glob("*_dataset.json")
        if p.name.removesuffix("_dataset.json") not in DOMAINS
    )
    issues = [
        Issue(
            path=str(root / "data" / f"{d}_dataset.json"),
            message=f"unknown domain {d!r}: voxbench has tools for {', '.join(DOMAINS)}",
        )
        for d in extra
    ]
    if not found and not extra:
        issues.append(Issue(path=str(root / "data"), message="no data/<domain>_dataset.json found"))
    counts: dict[str, int] = {}
    for d in found:
        counts[d], dom_issues = validate_domain(root, d)
        issues += dom_issues
    return ValidationReport(root=str(root), domains=counts, issues=issues)
