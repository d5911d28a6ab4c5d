"""What `voxbench scenarios list` and `show` print: a scenario at a glance, from the data alone."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from voxbench.scenarios.hashing import db_diff, format_diff
from voxbench.scenarios.loader import Dataset, DomainData

_ARROW_RE = re.compile(r": expected (.*), got (.*)$", re.MULTILINE)


class ScenarioRow(BaseModel):
    """One line of `scenarios list`."""

    domain: str
    id: str
    goal: str
    tool_calls: int
    tools: list[str] = Field(default_factory=list)
    writes: int = Field(description="reference calls to write tools (what changes the database)")


class ScenarioDetail(ScenarioRow):
    """Everything `scenarios show` prints."""

    current_date_time: str
    persona: str
    must_have: list[str]
    negotiation: list[str]
    resolution: str
    facts: dict[str, Any]
    starting_utterance: str
    trace: list[str]
    expected_change: str


def _calls(dd: DomainData, sid: str) -> list[str]:
    sc = dd.scenarios[sid]
    trace = sc.ground_truth.expected_trace.trace if sc.ground_truth.expected_trace else []
    return [ev.tool_name or "" for ev in trace if ev.event_type == "tool_call"]


def scenario_row(dd: DomainData, sid: str) -> ScenarioRow:
    sc = dd.scenarios[sid]
    calls = _calls(dd, sid)
    writes = sum(1 for c in calls if (t := dd.agent.tool(c)) is not None and t.tool_type == "write")
    return ScenarioRow(
        domain=dd.domain,
        id=sid,
        goal=dd.resolver(sc).text(sc.user_goal.high_level_user_goal),
        tool_calls=len(calls),
        tools=sorted(set(calls)),
        writes=writes,
    )


def list_scenarios(ds: Dataset) -> list[ScenarioRow]:
    return [scenario_row(dd, sid) for dd in ds.domains.values() for sid in dd.scenarios]


def _trace_lines(dd: DomainData, sid: str) -> list[str]:
    sc = dd.scenarios[sid]
    res = dd.resolver(sc)
    out = []
    for ev in sc.ground_truth.expected_trace.trace if sc.ground_truth.expected_trace else []:
        if ev.event_type == "user_utterance":
            out.append(f"caller: {res.text(ev.utterance or '')}")
        elif ev.event_type == "agent_utterance":
            out.append(f"agent:  {res.text(ev.utterance or '')}")
        elif ev.event_type == "tool_call":
            args = ", ".join(f"{k}={v!r}" for k, v in res.resolve(ev.params or {}).items())
            out.append(f"  -> {ev.tool_name}({args})")
        elif ev.event_type == "tool_response":
            out.append(f"  <- {ev.status or (ev.response or {}).get('status')}")
    return out


def scenario_detail(dd: DomainData, sid: str) -> ScenarioDetail:
    sc = dd.scenarios[sid]
    res = dd.resolver(sc)
    tree = sc.user_goal.decision_tree
    diff = format_diff(db_diff(dd.initial_db(sid), dd.expected_db(sid)))
    # db_diff speaks of expected/actual; here it is starting -> expected
    change = _ARROW_RE.sub(r": \1 -> \2", diff) or "(no database change)"
    return ScenarioDetail(
        **scenario_row(dd, sid).model_dump(),
        current_date_time=sc.current_date_time,
        persona=sc.user_config.user_persona,
        must_have=[res.text(x) for x in tree.must_have_criteria],
        negotiation=[res.text(x) for x in tree.negotiation_behavior],
        resolution=res.text(tree.resolution_condition),
        facts=res.resolve(sc.user_goal.information_required),
        starting_utterance=res.text(sc.starting_utterance()),
        trace=_trace_lines(dd, sid),
        expected_change=change,
    )


def find_scenario(ds: Dataset, ref: str) -> tuple[DomainData, str]:
    """`ID` or `domain/ID`; an id in several domains must name its domain."""
    domain, _, sid = ref.rpartition("/")
    hits = [dd for d, dd in ds.domains.items() if (not domain or d == domain) and sid in dd.scenarios]
    if not hits:
        raise ValueError(f"no scenario {ref!r} in {ds.root}")
    if len(hits) > 1:
        raise ValueError(f"scenario {sid} is in {', '.join(h.domain for h in hits)}: write domain/{sid}")
    return hits[0], sid
