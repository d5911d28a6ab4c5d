"""The report's front page (leaderboard, plots, perturbations, experiment, latency) and the
conversation browser with failure filters."""

from __future__ import annotations

import json
from collections import Counter

from voxbench.eval.types import REGISTRY
from voxbench.reports.gate import gate_section
from voxbench.reports.html import chip, e, est_cell, num, pct, table, verdict
from voxbench.reports.judged_by import composites_note, conversations_note
from voxbench.reports.model import EVA_A, EVA_X, VALIDATION_METRICS, Conversation, RunData
from voxbench.reports.pages_analysis import analysis_sections, cause_cell
from voxbench.reports.pages_compare import compare_section
from voxbench.reports.pages_experiment import experiment_section
from voxbench.reports.pages_paper import paper_section
from voxbench.reports.stats import Delta, pareto_front, percentiles
from voxbench.reports.svg import Point, color, gap_chart, latency_chart, scatter
from voxbench.reports.tables import (
    BASE_CONDITION,
    GroupStats,
    by_key,
    latencies,
    leaderboard,
    metric_order,
    perturbation_rows,
)
from voxbench.reports.tau_panel import panel_html

LABEL = {"EVA-A_pass": "EVA-A", "EVA-X_pass": "EVA-X", "EVA-overall_pass": "Overall"}


def _runs_section(runs: list[RunData]) -> str:
    rows = []
    for r in runs:
        m = r.manifest
        statuses = Counter(c.status for c in r.conversations)
        st = " ".join(
            chip(f"{n} {s}", "pass" if s == "completed" else "fail") for s, n in sorted(statuses.items())
        )
        failed = ", ".join(f"{n} {s}" for s, n in sorted(r.failed_attempts.items())) or "none"
        unscored = sum(1 for c in r.conversations if not c.scored)
        systems = ", ".join(sorted({c.system for c in r.conversations}))
        errs = sum(1 for c in r.conversations for mv in c.metrics.values() if mv.error)
        rows.append(
            f"<tr><td><b>{e(r.name)}</b><div class='sub'>{e(r.path)}</div></td><td>{e(systems)}</td>"
            f"<td>{len(r.conversations)}</td><td>{st}</td><td>{e(failed)}</td>"
            f"<td class='{'warn' if unscored else ''}'>{unscored}</td><td class='{'warn' if errs else ''}'>{errs}</td>"
            f"<td>{e(m.created_at if m else '')}<div class='sub'>{e((m.git_commit or '')[:10] if m else '')}</div></td></tr>"
        )
    head = [
        "Run",
        "Systems",
        "Conversations",
        "Final status",
        "Earlier failed attempts",
        "Unscored",
        "Metric errors",
        "Created",
    ]
    return "<section id='runs'><h2>Runs</h2>" + table(head, rows, "runs") + "</section>"


def _gate_section(runs: list[RunData]) -> str:
    """Attempts per conversation and every discarded attempt, with why and a link."""
    data = []
    for r in runs:
        used = {c.id: c.record.attempt + 1 for c in r.conversations}
        data.append((r.name, used, r.attempts))
    return gate_section(data)


def _composite_table(groups: list[GroupStats]) -> str:
    if not groups:
        return "<p class='muted'>No conversations.</p>"
    k = max(g.composites["EVA-A_pass"].k for g in groups)
    # with one trial per scenario pass@k and pass^k are pass@1 again: show it once
    attrs = ("pass1", "pass_k", "pass_pow_k") if k > 1 else ("pass1",)
    head = ["System", "Conv."]
    for comp in ("EVA-A_pass", "EVA-X_pass", "EVA-overall_pass"):
        lab = LABEL[comp]
        head += [f"{lab} pass@1", f"{lab} pass@{k}", f"{lab} pass^{k}"][: len(attrs)]
    best: dict[str, float] = {}
    for comp in LABEL:
        for attr in attrs:
            vals = [getattr(g.composites[comp], attr).value for g in groups]
            best[comp + attr] = max([v for v in vals if v is not None], default=-1)
    rows = []
    for i, g in enumerate(groups):
        cells = [
            f"<td class='sys'><span class='swatch' style='background:{color(i)}'></span>{e(g.name)}</td>",
            f"<td>{len(g.convs)}</td>",
        ]
        for comp in LABEL:
            ps = g.composites[comp]
            for attr in attrs:
                est = getattr(ps, attr)
                cells.append(est_cell(est, best=len(groups) > 1 and est.value == best[comp + attr]))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    note = (
        ""
        if k > 1
        else "<p class='muted'>One trial per scenario: pass@k and pass^k need k ≥ 2 trials "
        "(<code>voxbench run --trials k</code>).</p>"
    )
    return table(head, rows, "lb") + note


def _metric_table(groups: list[GroupStats], units: dict[str, str]) -> str:
    """Metrics as rows (grouped EVA-A, EVA-X, diagnostics, validation), systems as columns."""
    names = metric_order({m for g in groups for m in g.metric_means})
    if not names:
        return "<p class='muted'>No metric scores yet: run <code>voxbench eval</code> on the run folder.</p>"
    head = ["Metric", *[e(g.name) for g in groups], "<span class='txt'>What it measures</span>"]
    rows = []
    group_of = {**dict.fromkeys(EVA_A, "EVA-A (accuracy)"), **dict.fromkeys(EVA_X, "EVA-X (experience)")}
    current = None
    for n in names:
        spec = REGISTRY.get(n)
        grp = group_of.get(n) or (
            "Validation (simulation quality)" if n in VALIDATION_METRICS else "Diagnostics"
        )
        if grp != current:
            rows.append(f"<tr class='grp'><td colspan='{len(groups) + 2}'>{grp}</td></tr>")
            current = grp
        unit = units.get(n)
        hint = f" <span class='muted'>({e(unit)}, lower is better)</span>" if unit else ""
        note = conversations_note(n, [c for g in groups for c in g.convs])
        cells = [f"<td class='mname'>{e(n)}{note}</td>"]
        for g in groups:
            est = g.metric_means.get(n)
            ps = g.metric_pass.get(n)
            if est is None or est.value is None:
                cells.append("<td class='na'>–</td>")
                continue
            rate = ps.pass1.value if ps is not None and ps.records else None
            rate_s = f"<span class='ci'>{pct(rate)} pass</span>" if rate is not None else ""
            ci = f", 95% CI {est.ci[0]:.3f}–{est.ci[1]:.3f}" if est.ci else ""
            cells.append(
                f"<td title='mean over {est.n} scenarios{ci}'><span class='v'>{num(est.value)}</span>{rate_s}</td>"
            )
        desc = spec.description if spec is not None else ""
        cells.append(f"<td class='desc'>{e(desc)}{hint}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return table(head, rows, "lb metrics")


def _leaderboard_section(convs: list[Conversation]) -> str:
    domains = sorted({c.record.domain for c in convs})
    tabs = ["all", *domains] if len(domains) > 1 else ["all"]
    buttons = "".join(
        f"<button class='tab{' active' if i == 0 else ''}' data-tab='{e(t)}'>{'All domains' if t == 'all' else e(t)}</button>"
        for i, t in enumerate(tabs)
    )
    units = {  # raw-valued metrics (no normalised score) say their unit, e.g. seconds
        n: str(m.raw["params"]["unit"])
        for c in convs
        for n, m in c.metrics.items()
        if m.normalized is None and isinstance(m.raw.get("params"), dict) and m.raw["params"].get("unit")
    }
    panes = []
    for i, t in enumerate(tabs):
        groups = leaderboard(convs, None if t == "all" else t)
        panes.append(
            f"<div class='pane' data-pane='{e(t)}'{'' if i == 0 else ' hidden'}>"
            f"<h3>Composite pass rates</h3>{_composite_table(groups)}{composites_note(convs)}"
            "<h3>Every metric <span class='muted'>(mean normalised score over scenarios; below it, the share of conversations at or above the metric's pass threshold)</span></h3>"
            f"{_metric_table(groups, units)}</div>"
        )
    conds = sorted({c.record.condition for c in convs})
    note = (
        f"<p class='muted'>Rows use each system's <b>{BASE_CONDITION}</b> conversations; other conditions are in Perturbations.</p>"
        if len(conds) > 1
        else ""
    )
    return (
        "<section id='leaderboard'><h2>Leaderboard</h2>"
        "<p class='muted'>pass@1: share of trials that pass; pass@k: a scenario passes in at least one of k trials; "
        "pass^k: it passes in all k. Averaged over scenarios; small grey ranges are 95% bootstrap CIs over scenarios. "
        "Bold: best in column.</p>"
        f"{note}<div class='tabs'>{buttons}</div>{''.join(panes)}</section>"
    )


def _plots_section(groups: list[GroupStats]) -> str:
    svgs = []
    k_max = max((g.composites["EVA-A_pass"].k for g in groups), default=1)
    views = (("pass1", "pass@1"), ("pass_pow_k", "pass^k")) if k_max > 1 else (("pass1", "pass@1"),)
    for attr, label in views:
        pts = []
        for i, g in enumerate(groups):
            a, x = getattr(g.composites["EVA-A_pass"], attr), getattr(g.composites["EVA-X_pass"], attr)
            if a.value is not None and x.value is not None:
                pts.append(Point(g.name, x.value, a.value, color(i), x.ci, a.ci))
        k = max((g.composites["EVA-A_pass"].k for g in groups), default=1)
        lab = label.replace("k", str(k)) if attr == "pass_pow_k" else label
        front = pareto_front((p.name, p.x, p.y) for p in pts)
        svgs.append(
            scatter(
                pts,
                front,
                f"EVA-X {lab} (experience)",
                f"EVA-A {lab} (accuracy)",
                f"Accuracy vs experience, {lab}",
            )
        )
    gaps = []
    for comp in ("EVA-A_pass", "EVA-X_pass") if k_max > 1 else ():
        k = max((g.composites[comp].k for g in groups), default=1)
        rows = [
            (
                g.name,
                g.composites[comp].pass_pow_k.value,
                g.composites[comp].pass1.value,
                g.composites[comp].pass_k.value,
                color(i),
            )
            for i, g in enumerate(groups)
        ]
        gaps.append(gap_chart(rows, f"{LABEL[comp]}: spread between pass^{k} and pass@{k}", k))
    return (
        "<section id='plots'><h2>Accuracy vs experience</h2>"
        "<p class='muted'>Up and right is better. The dashed staircase is the Pareto frontier: systems on it are not beaten on both axes by any other. Whiskers: 95% CIs.</p>"
        f"<div class='grid2'>{''.join(svgs)}</div>"
        "<h3>Consistency gap: pass@k − pass^k</h3>"
        + (
            "<p class='muted'>A long bar means a system can do the task but does not do it every time.</p>"
            f"<div class='grid2'>{''.join(gaps)}</div>"
            if gaps
            else "<p class='muted'>Needs k ≥ 2 trials per scenario.</p>"
        )
        + "</section>"
    )


def _delta_cell(d: Delta) -> str:
    if d.value is None:
        return "<td class='na'>–</td>"
    v = 0.0 if abs(d.value) < 0.005 else d.value
    cls = "neg" if v < 0 else "pos" if v > 0 else ""
    mark = "<sup class='sig' title='95% CI excludes 0'>*</sup>" if d.significant else ""
    ci = f"<span class='ci'>{100 * d.ci[0]:+.0f}…{100 * d.ci[1]:+.0f} pp</span>" if d.ci else ""
    val = "±0" if v == 0 else f"{100 * v:+.0f}"
    return f"<td class='{cls}' title='paired over {d.n} scenarios'><span class='v'>{val} pp{mark}</span>{ci}</td>"


def _perturbation_section(convs: list[Conversation]) -> str:
    rows = perturbation_rows(convs)
    if not rows:
        body = "<p class='muted'>No perturbed conditions in these runs (every conversation is <b>clean</b>, or no system has a clean baseline).</p>"
    else:
        head = [
            "System",
            "Condition",
            "Conv.",
            "EVA-A pass@1",
            "Δ EVA-A",
            "EVA-X pass@1",
            "Δ EVA-X",
            "Δ Overall",
        ]
        trs = [
            f"<tr><td class='sys'>{e(r.system)}</td><td>{e(r.condition)}</td><td>{r.n}</td>"
            f"<td>{pct(r.values['EVA-A_pass'])}</td>{_delta_cell(r.deltas['EVA-A_pass'])}"
            f"<td>{pct(r.values['EVA-X_pass'])}</td>{_delta_cell(r.deltas['EVA-X_pass'])}"
            f"{_delta_cell(r.deltas['EVA-overall_pass'])}</tr>"
            for r in rows
        ]
        body = (
            "<p class='muted'>Change in pass@1 against the same system's clean conversations, paired by scenario, in percentage points. "
            "* marks a 95% bootstrap CI that excludes zero.</p>" + table(head, trs, "lb")
        )
    return f"<section id='perturbations'><h2>Perturbations</h2>{body}</section>"


def _latency_section(convs: list[Conversation]) -> str:
    rows = []
    trs = []
    for i, (system, cs) in enumerate(by_key(convs, "system").items()):
        plain, tool = latencies([c for c in cs if c.record.condition == BASE_CONDITION] or cs)
        rows.append((system, plain, tool, color(i)))
        for kind, vals in (("no tool", plain), ("tool", tool)):
            p = percentiles(vals)
            trs.append(
                f"<tr><td class='sys'>{e(system)}</td><td class='txt'>{kind}</td><td>{len(vals)}</td>"
                + "".join(f"<td>{num(v)}{' s' if v is not None else ''}</td>" for v in p)
                + "</tr>"
            )
    chart = latency_chart(rows, "Agent response latency (caller stops → agent starts)")
    tbl = table(["System", "<span class='txt'>Turns</span>", "n", "p50", "p90", "p95"], trs, "lb narrow")
    return (
        "<section id='latency'><h2>Latency</h2>"
        "<p class='muted'>From the end of the caller's speech to the start of the agent's reply, per agent turn "
        "(eval's response_speed; measured from the recorded speech onsets for unscored records). "
        "Tool turns are turns in which the agent called a tool. Each system's clean conversations.</p>"
        f"<div class='grid2'>{chart}{tbl}</div></section>"
    )


def index_body(runs: list[RunData], convs: list[Conversation]) -> str:
    groups = leaderboard(convs)
    return (
        "<h1>Voice agent benchmark</h1>"
        + _runs_section(runs)
        + _gate_section(runs)
        + _leaderboard_section(convs)
        + compare_section(runs)
        + _plots_section(groups)
        + _perturbation_section(convs)
        + experiment_section(runs, convs)
        + _latency_section(convs)
        + panel_html(convs)
        + analysis_sections(runs, convs)
        + paper_section(convs)
        + "<section><h2>Conversations</h2><p><a class='button' href='conversations.html'>Browse all conversations</a> "
        + "<a class='button' href='conversations.html#only=fail'>Only failed ones</a></p></section>"
    )


def conversations_body(convs: list[Conversation]) -> str:
    def opts(values: list[str], label: str) -> str:
        return f"<option value=''>{label}</option>" + "".join(f"<option>{e(v)}</option>" for v in values)

    metrics = metric_order({m for c in convs for m in c.metrics})
    causes = sorted({c.failure_cause for c in convs if c.failure_cause})
    filters = (
        "<div class='filters'>"
        f"<label>Failing metric <select data-filter='metric'>{opts(metrics, 'any')}</select></label>"
        f"<label>Domain <select data-filter='domain'>{opts(sorted({c.record.domain for c in convs}), 'all')}</select></label>"
        f"<label>Condition <select data-filter='condition'>{opts(sorted({c.record.condition for c in convs}), 'all')}</select></label>"
        f"<label>Agent <select data-filter='system'>{opts(sorted({c.system for c in convs}), 'all')}</select></label>"
        f"<label>Status <select data-filter='status'>{opts(sorted({c.status for c in convs}), 'all')}</select></label>"
        f"<label>Failure cause <select data-filter='cause'>{opts(causes, 'any')}</select></label>"
        "<label class='check'><input type='checkbox' data-filter='only' value='fail'> only conversations that fail something</label>"
        "<span class='count' id='count'></span></div>"
    )
    rows = []
    for c in sorted(
        convs,
        key=lambda c: (c.system, c.record.domain, c.record.scenario_id, c.record.condition, c.record.trial),
    ):
        r = c.record
        fails = c.failing
        chips = " ".join(chip(m, "fail") for m in fails) or (
            "<span class='muted'>none</span>" if c.scored else chip("unscored", "na")
        )
        data = {
            "metric": " ".join(fails),
            "domain": r.domain,
            "condition": r.condition,
            "system": c.system,
            "status": c.status,
            "cause": c.failure_cause or "",
            "fail": "1" if fails or c.status != "completed" or c.failure_cause else "0",
        }
        attrs = " ".join(f"data-{k}='{e(v)}'" for k, v in data.items())
        rows.append(
            f"<tr class='conv' {attrs}><td><a href='conv/{e(c.uid)}.html'>{e(r.conversation_id)}</a></td>"
            f"<td>{e(c.system)}</td><td>{e(r.domain)}</td><td>{e(r.scenario_id)}</td><td>{r.trial}</td><td>{e(r.condition)}</td>"
            f"<td>{chip(c.status, 'pass' if c.status == 'completed' else 'fail')}</td>"
            f"<td>{verdict(c.aggregates.get('EVA-A_pass'), 'A')} {verdict(c.aggregates.get('EVA-X_pass'), 'X')}</td>"
            f"<td class='chips'>{chips}</td><td>{cause_cell(c)}</td><td>{num(r.duration_s, 1)} s</td></tr>"
        )
    head = [
        "Conversation",
        "Agent",
        "Domain",
        "Scenario",
        "Trial",
        "Condition",
        "Status",
        "EVA",
        "Failing metrics",
        "Failure cause",
        "Length",
    ]
    data_js = json.dumps({"n": len(convs)})
    return (
        "<h1>Conversations</h1>"
        "<p class='muted'>Filter by what failed; click a conversation to hear it and see where it went wrong.</p>"
        + filters
        + table(head, rows, "convs")
        + f"<p id='empty' class='muted' hidden>No conversation matches these filters.</p><script>window.VB={data_js};</script>"
    )
