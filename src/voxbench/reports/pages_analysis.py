"""Report sections from eval's analyses: time to completion, why conversations failed,
and where the variance of the scores comes from."""

from __future__ import annotations

import json
from typing import Any

from voxbench.eval.completion import completion_stats
from voxbench.eval.failure_cause import CAUSES, cause_counts
from voxbench.reports.html import chip, e, num, pct, table
from voxbench.reports.model import Conversation, RunData
from voxbench.reports.tables import BASE_CONDITION, by_key

CAUSE_TEXT = {
    "infrastructure": "the harness could not run the call (stage in brackets)",
    "simulator_invalid": "the validation gate rejected the simulated caller or the call's end",
    "misheard_entity": "the agent's STT lost a key fact the caller said, and it never reached a tool",
    "agent_reasoning": "correct input, wrong or missing tool call",
    "agent_speech": "what the agent said differs from what it meant (entities lost in speech)",
    "turn_taking": "silence or talking over the caller",
    "policy": "faithfulness failed: the agent broke its policy or invented facts",
}


def cause_cell(c: Conversation) -> str:
    fc = c.analysis.get("failure_cause")
    if not isinstance(fc, dict) or not fc.get("cause"):
        return "<span class='muted'>–</span>"
    label = str(fc["cause"]) + (f" ({fc['stage']})" if fc.get("stage") else "")
    return chip(label, "warn", str(fc.get("summary") or ""))


def cause_block(c: Conversation) -> str:
    """The conversation page's line: primary failure cause, its summary and evidence."""
    fc = c.analysis.get("failure_cause")
    comp = c.analysis.get("completion")
    out = ""
    if isinstance(comp, dict) and comp.get("seconds") is not None:
        out += (
            f"<p>Task completed <b>{num(comp['seconds'], 1)} s</b> into the call, turn {e(comp.get('turns'))}, "
            f"by <code>{e(comp.get('tool'))}</code>.</p>"
        )
    if isinstance(fc, dict) and fc.get("cause"):
        ev = json.dumps(fc.get("evidence") or {}, indent=1, ensure_ascii=False, default=str)
        out += (
            f"<div class='cause'><p>Why it failed: {cause_cell(c)} {e(fc.get('summary') or '')}</p>"
            f"<details><summary class='sub'>evidence</summary><pre>{e(ev[:4000])}</pre></details></div>"
        )
    return out


def _secs(v: float | None) -> str:
    return "–" if v is None else f"{v:.1f} s"


def _completion_section(convs: list[Conversation]) -> str:
    rows = []
    for system, cs in by_key(convs, "system").items():
        scored = [
            c for c in cs if c.scored and c.status == "completed" and c.record.condition == BASE_CONDITION
        ]
        tc = [
            (c.record.domain, c.analysis.get("completion"), c.metrics["task_completion"].value)
            if "task_completion" in c.metrics
            else (c.record.domain, c.analysis.get("completion"), None)
            for c in scored
        ]
        stats = completion_stats(tc)
        blocks = list(stats["per_domain"].items())
        if len(blocks) > 1:
            blocks.append(("all domains", stats["overall"]))
        for dom, b in blocks:
            s, t = b["seconds"], b["turns"]
            rows.append(
                f"<tr><td class='sys'>{e(system)}</td><td class='txt'>{e(dom)}</td><td>{b['conversations']}</td>"
                f"<td>{pct(b['task_completion'])}</td><td>{b['tasks_completed']}</td><td>{b['timed']}</td>"
                f"<td>{_secs(s['median'])}</td><td>{_secs(s['p90'])}</td>"
                f"<td>{num(t['median'], 1)}</td><td>{num(t['p90'], 1)}</td></tr>"
            )
    if not rows:
        body = "<p class='muted'>No scored conversations yet: run <code>voxbench eval</code> on the run folder.</p>"
    else:
        head = [
            "System",
            "<span class='txt'>Domain</span>",
            "Conv.",
            "Task completion",
            "Completed",
            "Timed",
            "Seconds p50",
            "Seconds p90",
            "Turns p50",
            "Turns p90",
        ]
        body = table(head, rows, "lb")
    return (
        "<section id='completion'><h2>Time and turns to completion</h2>"
        "<p class='muted'>Per completed task: from the start of the call to the tool call that brought the database "
        "to its expected state (found by replaying the call's own tool calls), and the turn it happened in. "
        "Timed: completed tasks whose completing call was found. Each system's clean conversations.</p>"
        f"{body}</section>"
    )


def _cause_section(convs: list[Conversation]) -> str:
    groups = by_key(convs, "system")
    counts = {s: cause_counts([c.analysis.get("failure_cause") for c in cs]) for s, cs in groups.items()}
    if not any(b["failed"] for b in counts.values()):
        scored = any(c.scored for c in convs)
        msg = "No failed conversations." if scored else "Not scored yet: run <code>voxbench eval</code>."
        return f"<section id='causes'><h2>Why conversations failed</h2><p class='muted'>{msg}</p></section>"
    head = ["System", "Failed", *[f"<a href='conversations.html#cause={c}'>{e(c)}</a>" for c in CAUSES]]
    rows = []
    for s, b in counts.items():
        cells = [f"<td class='sys'>{e(s)}</td><td>{b['failed']} / {len(groups[s])}</td>"]
        for cause in CAUSES:
            n = b["counts"].get(cause, 0)
            extra = ""
            if cause == "infrastructure" and b["infrastructure_stages"]:
                extra = (
                    "<span class='ci'>"
                    + ", ".join(f"{e(k)} {v}" for k, v in sorted(b["infrastructure_stages"].items()))
                    + "</span>"
                )
            cells.append(f"<td class='{'na' if not n else ''}'><span class='v'>{n}</span>{extra}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    legend = "".join(f"<li><b>{e(k)}</b>: {e(v)}</li>" for k, v in CAUSE_TEXT.items())
    return (
        "<section id='causes'><h2>Why conversations failed</h2>"
        "<p class='muted'>One primary cause per failed or invalid conversation, the first that applies in this order; "
        "each conversation's evidence is on its page, and a column header lists those conversations.</p>"
        f"{table(head, rows, 'lb')}<ul class='sub'>{legend}</ul></section>"
    )


def _share(block: dict[str, Any], part: str) -> str:
    sh = (block.get("share") or {}).get(part)
    ci = (
        ((block.get("ci95") or {}).get(part))
        if part != "scenario"
        else (block.get("ci95") or {}).get("scenario")
    )
    var = (block.get("variance") or {}).get(part)
    if sh is None and var is None:
        return "<td class='na'>–</td>"
    ci_s = (
        f"<span class='ci'>var {num(var, 4)}"
        + (f" [{num(ci[0], 4)}, {num(ci[1], 4)}]" if ci else "")
        + "</span>"
    )
    return f"<td><span class='v'>{pct(sh)}</span>{ci_s}</td>"


def _variance_run(run: RunData) -> str:
    v = (run.summary or {}).get("variance") or {}
    per = v.get("per_metric") or {}
    if not per:
        note = v.get("note") or "no metric with two or more trials per scenario"
        return f"<h3>{e(run.name)}</h3><p class='muted'>{e(note)}.</p>"
    judged = any(b.get("judge_repeats") for b in per.values())
    head = ["Metric", "Scenarios", "Trials", "Mean", "Scenario", "Trial"] + (["Judge"] if judged else [])
    rows = []
    for name, b in per.items():
        cells = (
            f"<td class='mname'>{e(name)}</td><td>{b['n_scenarios']}</td><td>{num(b['trials_per_scenario'], 1)}</td>"
            f"<td>{num(b['mean'], 3)}</td>{_share(b, 'scenario')}{_share(b, 'trial')}"
            + (_share(b, "judge") if judged else "")
        )
        rows.append(f"<tr>{cells}</tr>")
    need = []
    for name, t in (v.get("pass_at_1_trials_needed") or {}).items():
        if t.get("trials_needed") is None and t.get("scenarios_needed_at_k") is None:
            what = t.get("note") or "not estimable"
        elif t.get("trials_needed") is None:
            what = f"not reachable with more trials; about {t.get('scenarios_needed_at_k')} scenarios at k={t['k_now']}"
        else:
            what = f"k = {t['trials_needed']} trials per scenario"
        need.append(
            f"<li><b>{e(name)}</b> pass@1: 95% CI width now {num(t['model_width_now'], 3)} (model), "
            f"floor from scenario variance {num(t['width_floor_from_scenarios'], 3)}; "
            f"under {num(t['target_width'], 2)}: {e(what)}</li>"
        )
    return (
        f"<h3>{e(run.name)} <span class='muted'>(k = {v.get('k')})</span></h3>"
        + table(head, rows, "lb metrics")
        + (f"<ul class='sub'>{''.join(need)}</ul>" if need else "")
    )


def _variance_section(runs: list[RunData]) -> str:
    parts = [_variance_run(r) for r in runs if r.summary is not None]
    body = "".join(parts) or "<p class='muted'>No metrics summary: run <code>voxbench eval</code>.</p>"
    return (
        "<section id='variance'><h2>Where the variance comes from</h2>"
        "<p class='muted'>Each metric's variance split into scenario-to-scenario, trial-to-trial (same scenario) and, "
        "when the judge rated every conversation more than once (<code>voxbench eval --judge-repeats R</code>), judge "
        "components; shares of the total, with variances and 95% bootstrap CIs over scenarios. A large trial share means "
        "more trials sharpen the estimate; a large scenario share means only more scenarios do.</p>"
        f"{body}</section>"
    )


def analysis_sections(runs: list[RunData], convs: list[Conversation]) -> str:
    return _completion_section(convs) + _cause_section(convs) + _variance_section(runs)
