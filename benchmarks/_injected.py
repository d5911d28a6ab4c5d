"""What the injected-fault benches of the offline judges share.

`offline_faith_independent.py`, `offline_progression_independent.py` and
`offline_conciseness_independent.py` rate every variant (clean,
and one injected fault per kind) of every EVA reference conversation with one offline method and
compare the rating with the label the variant was built with. The loop over the dataset, the
agreement per domain, the command line and the JSON output are the same for both; what differs
(the variants, their labels, the method) is passed in.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from voxbench.cli.judges import agent_info
from voxbench.eval.calibration_items import context_of, trace_from_events
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import ConversationContext
from voxbench.eval.gateset.conversation import Line, RefConversation, from_scenario
from voxbench.eval.gateset.faults import reference_fault
from voxbench.eval.types import MetricResult
from voxbench.scenarios.loader import load_dataset

ROOT = Path(__file__).resolve().parents[1]

Variants = Callable[[RefConversation, int, str, str], list[tuple[str, RefConversation, str]]]
Events = Callable[[RefConversation], list[dict[str, Any]]]
Method = Callable[[ConversationContext], MetricResult]


def events(conv: RefConversation) -> list[dict[str, Any]]:
    """The conversation as EVA's trace events, each tool call with the response the reference
    recorded (not re-executed: the executor mints new ids, which the reference's lines do not
    say)."""
    out: list[dict[str, Any]] = []
    for s in conv.steps:
        if isinstance(s, Line):
            out.append({"event_type": f"{s.who}_utterance", "utterance": s.text})
        else:
            out.append({"event_type": "tool_call", "tool_name": s.name, "params": s.params})
            resp = s.expected or {}
            out.append({"event_type": "tool_response", "tool_name": s.name,
                        "status": str(resp.get("status", "success")), "response": resp})  # fmt: skip
    return out


def references(eva: Path, domains: list[str]) -> Iterator[tuple[str, str, RefConversation, Any, str]]:
    """(domain, scenario id, reference conversation, the domain's agent, the call's date) for every
    scenario whose reference trace keeps to its own goal (``reference_fault`` is None)."""
    ds = load_dataset(eva, domains)
    for dom, dd in ds.domains.items():
        agent = agent_info(eva / "configs" / "agents" / f"{dom}_agent.yaml")
        for sid in sorted(dd.scenarios):
            ref = from_scenario(dd, sid)
            if ref is not None and reference_fault(ref) is None:
                yield dom, sid, ref, agent, dd.scenarios[sid].current_date_time


def rated_as(sel: list[dict[str, Any]], expected: int) -> dict[str, Any]:
    """How the rows of one kind were rated against their label ``expected``."""
    return {
        "n": len(sel),
        "expected": expected,
        "ratings_3_2_1": [sum(r["rating"] == k for r in sel) for k in (3, 2, 1)],
        "exact": round(sum(r["rating"] == expected for r in sel) / len(sel), 3),
    }


def per_kind(
    rows: list[dict[str, Any]],
    expected: Mapping[str, tuple[int, Any]],
    extra: Callable[[list[dict[str, Any]], Any], dict[str, Any]],
) -> dict[str, Any]:
    """Per kind of ``expected`` (kind -> (label, what else the bench checks)): how its rows were
    rated (:func:`rated_as`) and the bench's own figures for them (``extra(rows, what)``)."""
    out: dict[str, Any] = {}
    for kind, (label, what) in expected.items():
        sel = [r for r in rows if r["kind"] == kind]
        if sel:
            out[kind] = {**rated_as(sel, label), **extra(sel, what)}
    return out


def rate_variants(
    eva: Path,
    seed: int,
    domains: list[str],
    variants: Variants,
    events: Events,
    method: Method,
    expected: Mapping[str, tuple[int, Any]],
    verbose: bool,
    turn_rules_only: bool = False,
) -> dict[str, Any]:
    """One row per variant: its label (``expected[kind][0]``), the method's rating, the dimensions
    it flagged, the rules that fired (only those tied to a turn when ``turn_rules_only``) and their
    claims; and the method's seconds per conversation."""
    rows: list[dict[str, Any]] = []
    times: list[float] = []
    for dom, sid, ref, agent, when in references(eva, domains):
        for kind, conv, what in variants(ref, seed, dom, sid):
            ctx = context_of(f"{dom}/{sid}/{kind}", trace_from_events(events(conv)), agent, when)
            t0 = time.perf_counter()
            res = method(ctx)
            times.append(time.perf_counter() - t0)
            dims = res.details.get("dimensions", {})
            ev = res.details.get("evidence", [])
            rating = round(res.score or 0)
            rows.append({"domain": dom, "scenario": sid, "kind": kind, "what": what,
                         "expected": expected[kind][0], "rating": rating,
                         "flagged": sorted(d for d, v in dims.items() if v.get("flagged")),
                         "rules": [e["rule"] for e in ev if not turn_rules_only or e.get("turn") is not None],
                         "claims": [f"t{e['turn']} {e['claim']}"[:160] for e in ev]})  # fmt: skip
            if verbose and rating != expected[kind][0]:
                print(f"  XX {dom} {sid} {kind} ({what}) -> {rating} {rows[-1]['claims'][:3]}")
    return {"rows": rows, "seconds": {"mean": sum(times) / len(times), "max": max(times)}}


def by_domain(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Ordinal agreement per domain and over all, and issue (below 3) against none."""
    out: dict[str, Any] = {}
    for dom in [*sorted({r["domain"] for r in rows}), "all"]:
        sel = [r for r in rows if dom in ("all", r["domain"])]
        out[dom] = agreement([(r["expected"], r["rating"]) for r in sel], [1, 2, 3], ordinal=True)
        out[dom]["issue_vs_none"] = agreement(
            [(r["expected"] < 3, r["rating"] < 3) for r in sel], [True, False]
        )
    return out


def print_domains(summary: dict[str, Any], domains: list[str]) -> None:
    """One line per domain of :func:`by_domain`."""
    for dom in domains:
        a = summary[dom]
        print(f"{dom:10} n={a['n']} acc={a['accuracy']} kappa={a['cohen_kappa']} "
              f"qwk={a.get('weighted_kappa_quadratic')} | issue-vs-none acc={a['issue_vs_none']['accuracy']} "
              f"kappa={a['issue_vs_none']['cohen_kappa']} | confusion (rows expected 1-3, cols offline 1-3) "
              f"{a.get('confusion')}")  # fmt: skip


def arguments(doc: str | None) -> argparse.Namespace:
    """The benches' common command line: ``--eva``, ``--seed``, ``--domains``, ``-v``, ``--json``."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    ap.add_argument("--eva", type=Path, default=ROOT.parent / "shared" / "eva-data")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--domains", default="airline,itsm,medical_hr")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--json", type=Path)
    return ap.parse_args()


def write_json(path: Path | None, payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically (nothing when no path was given)."""
    if path is None:
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=1, default=str) + "\n", encoding="utf-8")
    tmp.replace(path)
