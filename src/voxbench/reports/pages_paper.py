"""The report's section "What the paper asks of these runs": EVA-Bench's six analyses
(`voxbench.eval.paper_analyses`), each with a sentence saying how to read it."""

from __future__ import annotations

from typing import Any

from voxbench.eval.paper_analyses import paper_analyses
from voxbench.eval.paper_analyses.facets import COMPONENTS
from voxbench.eval.paper_analyses.rows import Row, load_row, usable
from voxbench.eval.paper_analyses.thresholds import threshold_sweep
from voxbench.reports.html import e, num, pct, table
from voxbench.reports.model import Conversation
from voxbench.reports.svg import color
from voxbench.reports.svg_lines import Series, line_chart

LABEL = {"EVA-A_pass": "EVA-A", "EVA-X_pass": "EVA-X"}
SHORT = {
    "task_completion": "Task compl.",
    "faithfulness": "Faithful.",
    "agent_speech_fidelity": "Speech fid.",
    "conversation_progression": "Progression",
    "conciseness": "Concise",
    "turn_taking": "Turn-taking",
}


def rows_of(convs: list[Conversation]) -> list[Row]:
    """The analyses' rows, read from each scored conversation's metrics.json."""
    return [load_row(c.path / "metrics.json", system=c.system) for c in convs if c.scored]


def _how(text: str) -> str:
    return f"<p class='how'><b>How to read it:</b> {text}</p>"


def _note(block: dict[str, Any]) -> str:
    return f"<p class='muted'>{e(block['note'])}.</p>" if block.get("note") else ""


def _ci(lo: float | None, hi: float | None) -> str:
    return "" if lo is None or hi is None else f"<span class='ci'>{num(lo)}–{num(hi)}</span>"


def _gap_part(b: dict[str, Any]) -> str:
    if "per_system" not in b:
        return _note(b)
    head = ["System", "k"]
    for lab in LABEL.values():
        head += [f"{lab} pass@1", f"{lab} pass^k", f"{lab} gap pass@k − pass^k"]
    rows = []
    for s, per in b["per_system"].items():
        k = max((v["k"] for v in per.values()), default=None)
        cells = f"<td class='sys'>{e(s)}</td><td>{e(k or '–')}</td>"
        for comp in LABEL:
            g = per.get(comp)
            if g is None:
                cells += "<td class='na'>–</td>" * 3
                continue
            cells += (
                f"<td><span class='v'>{num(g['pass_at_1'])}</span>{_ci(*g['pass_at_1_ci'])}</td>"
                f"<td><span class='v'>{num(g['pass_power_k'])}</span>{_ci(*g['pass_power_k_ci'])}</td>"
                f"<td><span class='v'>{num(g['gap'])}</span>{_ci(*g['gap_ci'])}</td>"
            )
        rows.append(f"<tr>{cells}</tr>")
    med = ", ".join(f"{LABEL[c]} {num(v)}" for c, v in b["median_gap"].items())
    fr = b["frontier"]
    return (
        table(head, rows, "lb")
        + f"<p>Median gap over systems: {med} (paper, 12 systems: EVA-A 0.44, EVA-X 0.24). "
        f"Pareto frontier at pass@1: {e(', '.join(fr['pass_at_1']) or '–')}; "
        f"at pass^k: {e(', '.join(fr['pass_power_k']) or '–')} "
        "(the two plots are in <a href='#plots'>Accuracy vs experience</a>).</p>" + _note(b)
    )


def _trial_part(b: dict[str, Any]) -> str:
    if "per_system" not in b:
        return _note(b)
    series, rows = [], []
    for i, (s, per) in enumerate(b["per_system"].items()):
        for comp, blk in per.items():
            pts = [(float(c["k"]), c["median_ci_width"]) for c in blk["curve"]]
            series.append(Series(f"{s} · {LABEL[comp]}", color(i), pts, dashed=comp == "EVA-X_pass"))
            shares = " · ".join(f"k={c['k']}: {pct(c['share_within_tol'])}" for c in blk["curve"])
            widths = " · ".join(f"k={c['k']}: {num(c['median_ci_width'], 3)}" for c in blk["curve"])
            rows.append(
                f"<tr><td class='sys'>{e(s)}</td><td>{LABEL[comp]}</td><td>{blk['K']}</td>"
                f"<td>{blk['n_scenarios']}</td><td class='txt'>{widths}</td><td class='txt'>{shares}</td></tr>"
            )
    chart = line_chart(
        series, "trials per scenario k", "median 95% CI width", "pass@1 CI width by trial count"
    )
    tol = num(b["tolerance"])
    head = ["System", "Composite", "K", "Scenarios", "Median CI width", f"Within ±{tol} of full K"]
    return f"<div class='grid2'>{chart}{table(head, rows, 'lb')}</div>" + _note(b)


def _sweep_part(b: dict[str, Any]) -> str:
    if "per_system" not in b:
        return _note(b)
    grid = b["grid"]
    series = [
        Series(s, color(i), list(zip(grid, per["pass_at_1"], strict=True)))
        for i, (s, per) in enumerate(b["per_system"].items())
    ]
    lab = f"{b['moves']} pass@1"
    chart = line_chart(
        series,
        f"{b['metric']} threshold",
        lab,
        f"{lab} as the {b['metric']} threshold moves",
        ymax=1.0,
        mark_x=b["chosen"],
        mark_label=f"chosen {b['chosen']:g}",
    )
    head = ["System", *[f"{t:g}" for t in grid]]
    rows = [
        f"<tr><td class='sys'>{e(s)}</td>"
        + "".join(
            f"<td class='{'best' if t == b['chosen'] else ''}'>{num(v)}</td>"
            for t, v in zip(grid, per["pass_at_1"], strict=True)
        )
        + "</tr>"
        for s, per in b["per_system"].items()
    ]
    return f"<div class='grid2'>{chart}{table(head, rows, 'lb narrow')}</div>" + _note(b)


def _r(blk: dict[str, Any]) -> str:
    if blk.get("r") is None:
        return f"<td class='na' title='{e(blk.get('note', ''))}'>– <span class='ci'>{e(blk.get('note', ''))}</span></td>"
    return f"<td><span class='v'>{num(blk['r'])}</span><span class='ci'>p = {num(blk['p'], 3)}, n = {blk['n']}</span></td>"


def _ke_part(b: dict[str, Any]) -> str:
    if not b.get("per_system"):
        return _note(b)
    cut = pct(b["cut"])
    head = ["Group", "Pearson r", f"Completion, key entities ≥ {cut}", f"below {cut}", "Relative change"]

    def line(label: str, blk: dict[str, Any]) -> str:
        return (
            f"<tr><td class='sys'>{label}</td>{_r(blk)}"
            f"<td>{pct(blk['completion_above'])} <span class='ci'>n = {blk['n_above']}</span></td>"
            f"<td>{pct(blk['completion_below'])} <span class='ci'>n = {blk['n_below']}</span></td>"
            f"<td>{pct(blk['relative_change'])}</td></tr>"
        )

    rows = [line(e(s), blk) for s, blk in b["per_system"].items()]
    rows += [line(f"domain {e(d)}", blk) for d, blk in b["per_domain"].items()]
    ac = b["across_systems"]
    across = (
        f"r = {num(ac['r'])} (p = {num(ac['p'], 3)}, {ac['n']} systems)"
        if ac.get("r") is not None
        else f"not computed ({e(ac.get('note'))})"
    )
    return table(head, rows, "lb") + f"<p>Across systems (system means): {across}.</p>" + _note(b)


def _faith_part(b: dict[str, Any]) -> str:
    if "per_system" not in b:
        return _note(b)
    head = ["System", "Conv.", "Completed tasks with a deviation", "Deviations in failed tasks"]

    def line(label: str, s: dict[str, Any]) -> str:
        return (
            f"<tr><td class='sys'>{label}</td><td>{s['n']}</td>"
            f"<td>{pct(s['share_completed_with_deviation'])} <span class='ci'>{s['completed_with_deviation']} of {s['completed']}</span></td>"
            f"<td>{pct(s['share_deviations_in_failed_tasks'])} <span class='ci'>{s['deviations_in_failed_tasks']} of {s['deviations']}</span></td></tr>"
        )

    rows = [line(e(s), blk) for s, blk in b["per_system"].items()] + [line("<b>all</b>", b["all"])]
    return table(head, rows, "lb") + _note(b)


def _facets_part(b: dict[str, Any]) -> str:
    if "per_type" not in b:
        return _note(b)
    head = [
        "Pipeline",
        "Systems",
        "Conv.",
        *[f"<span title='{m}'>{SHORT[m]}</span>" for m in COMPONENTS],
        "Tool turns, median s",
        "Other turns, median s",
    ]
    rows = []
    for t, blk in b["per_type"].items():
        cells = f"<td class='sys'>{e(t)}</td><td class='txt'>{e(', '.join(blk['systems']))}</td><td>{blk['conversations']}</td>"
        for m in COMPONENTS:
            c = blk["components"][m]
            cells += f"<td><span class='v'>{num(c['mean'])}</span>{_ci(*(c['ci'] or (None, None)))}</td>"
        for kind in ("tool", "no_tool"):
            lat = blk["latency"][kind]
            cells += f"<td>{num(lat['median'])} <span class='ci'>{lat['turns']} turns</span></td>"
        rows.append(f"<tr>{cells}</tr>")
    sys_rows = [
        f"<tr><td class='sys'>{e(s)}</td><td>{e(blk['pipeline'])}</td>"
        + "".join(
            f"<td>{num(blk['latency'][k]['median'])} <span class='ci'>{blk['latency'][k]['turns']} turns</span></td>"
            for k in ("tool", "no_tool")
        )
        + "</tr>"
        for s, blk in b["per_system"].items()
    ]
    return (
        table(head, rows, "lb metrics")
        + table(
            ["System", "Pipeline", "Tool turns, median s", "Other turns, median s"],
            sys_rows,
            "lb narrow",
        )
        + _note(b)
    )


PARTS = (
    (
        "passk",
        "pass@1 against pass^k (paper §5.1, §5.3)",
        "pass@1 is how often a random call succeeds, pass^k how often a scenario succeeds on all k trials; the gap "
        "pass@k − pass^k is what a system can do but does not do every time. A wide gap means a single run overstates "
        "reliability; a system that leaves the Pareto frontier at pass^k leads only on good days.",
        _gap_part,
        "passk_gap",
    ),
    (
        "trials",
        "Trial count against CI width (paper §5.3, figure 4)",
        "each line is the median 95% CI width of pass@1 re-estimated from every subsample of k of the K trials; it "
        "should fall roughly as 1/√k. The share within ±0.02 says how often stopping at k trials would have given the "
        "same answer as all K: near 100% at some k means more trials buy little.",
        _trial_part,
        "trial_count",
    ),
    (
        "thresholds",
        "Threshold sensitivity (paper §5.6, figure 9)",
        "each line is a system's pass@1 recomputed with the swept metric's threshold at each value, everything else "
        "unchanged; the dashed line is the chosen threshold. Lines that cross mean the ranking depends on the "
        "threshold; a steep drop just right of the mark means many conversations sit on the edge.",
        _sweep_part,
        "thresholds",
    ),
    (
        "key-entities",
        "Key-entity transcription against task completion (paper §5.5, figure 7)",
        "a large positive r says tasks fail when the agent's STT gets names, codes and dates wrong; compare task "
        "completion above and below 70% key-entity accuracy for the size of that effect (paper: 0.60 against 0.37, "
        "−39%). Over conversations r is point-biserial, since completion is 0 or 1.",
        _ke_part,
        "key_entities",
    ),
    (
        "faithfulness",
        "Faithfulness against task completion (paper §5.5)",
        "a deviation is faithfulness below 1 (an ungrounded claim, a policy breach, a misleading statement). A high "
        "first share means a correct database does not prove the agent behaved (paper: 72.2%); the second share is "
        "how many deviations also broke the task (paper: 50.5%).",
        _faith_part,
        "faithfulness",
    ),
    (
        "facets",
        "Facets by architecture (paper §5.2, figure 3)",
        "each row averages one pipeline type's conversations (95% CIs over scenarios); compare a column across rows "
        "to see where an architecture is strong. Tool-call turns wait for a tool, so their latency is the one the "
        "paper finds above 5 s for the most accurate cascades.",
        _facets_part,
        "facets",
    ),
)


def paper_section(convs: list[Conversation], sweep_metrics: tuple[str, ...] = ()) -> str:
    """The section: six subsections, each analysis with how to read it (or why it is absent)."""
    rows = rows_of(convs)
    out = paper_analyses(rows)
    extra = [threshold_sweep(usable(rows), m) for m in sweep_metrics]
    parts = []
    for anchor, title, how, render, key in PARTS:
        blocks = out[key] if key != "thresholds" else out[key] + extra
        body = "".join(render(b) for b in blocks) if isinstance(blocks, list) else render(blocks)
        parts.append(f"<h3 id='paper-{anchor}'>{title}</h3>{_how(how)}{body}")
    return (
        "<section id='paper'><h2>What the EVA-Bench paper asks of these runs</h2>"
        f"<p class='muted'>The paper's analyses (sections 4–5) on these runs' {out['conversations']} completed clean "
        f"conversations of {len(out['systems'])} system(s). An analysis that needs more than the runs have "
        "(k ≥ 2 trials, 10 conversations) says so instead of drawing.</p>" + "".join(parts) + "</section>"
    )
