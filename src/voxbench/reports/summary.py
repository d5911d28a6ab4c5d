"""Terminal and Markdown summaries (for CI logs): the leaderboard in a few lines."""

from __future__ import annotations

from voxbench.reports.model import Conversation, RunData
from voxbench.reports.stats import Estimate, percentiles
from voxbench.reports.summary_analysis import analysis_lines, cause_lines, completion_lines
from voxbench.reports.tables import latencies, leaderboard, perturbation_rows
from voxbench.reports.tau_panel import panel_section


def _p(est: Estimate) -> str:
    return "-" if est.value is None else f"{100 * est.value:.0f}%"


def _rows(convs: list[Conversation]) -> tuple[list[str], list[list[str]], int]:
    groups = leaderboard(convs)
    k = max((g.composites["EVA-A_pass"].k for g in groups), default=1)
    per_comp = ["p@1", f"p@{k}", f"p^{k}"] if k > 1 else ["p@1"]  # k = 1: p@k = p^k = p@1
    head = [
        "system",
        "conv",
        *(f"EVA-A {h}" for h in per_comp),
        *(f"EVA-X {h}" for h in per_comp),
        "failing",
        "latency p50",
    ]
    lat = {g.name: percentiles([x for part in latencies(g.convs) for x in part], (50,))[0] for g in groups}
    rows = []
    for g in groups:
        a, x = g.composites["EVA-A_pass"], g.composites["EVA-X_pass"]
        failing = sum(1 for c in g.convs if c.failing or c.status != "completed")
        p50 = lat.get(g.name)
        rows.append(
            [
                g.name,
                str(len(g.convs)),
                *[_p(a.pass1), _p(a.pass_k), _p(a.pass_pow_k)][: len(per_comp)],
                *[_p(x.pass1), _p(x.pass_k), _p(x.pass_pow_k)][: len(per_comp)],
                str(failing),
                "-" if p50 is None else f"{p50:.2f}s",
            ]
        )
    return head, rows, k


def terminal_summary(runs: list[RunData], convs: list[Conversation]) -> str:
    head, rows, _ = _rows(convs)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    out = [
        f"voxbench report: {len(runs)} run(s), {len(convs)} conversation(s)",
        line(head),
        line(["-" * w for w in widths]),
    ]
    out += [line(r) for r in rows]
    for r in perturbation_rows(convs):
        d = r.deltas["EVA-A_pass"]
        if d.value is not None:
            out.append(
                f"  {r.system} under {r.condition}: EVA-A pass@1 {100 * d.value:+.0f} pp{' *' if d.significant else ''}"
            )
    out += [f"  {x}" for x in panel_section(convs)]
    for run in runs:
        bad = {s: n for s, n in run.failed_attempts.items()}
        unscored = sum(1 for c in run.conversations if not c.scored)
        if bad or unscored:
            out.append(
                f"  {run.name}: earlier failed attempts {bad or 'none'}, unscored conversations {unscored}"
            )
        for a in run.attempts:  # the gate in the open: why each discarded attempt was regenerated
            why = "; ".join(f"{v}: {x.get('rule', '')}" for v, xs in a.evidence.items() for x in xs[:1])
            out.append(f"  {run.name}: {a.conversation_id} attempt {a.attempt + 1} discarded: {a.reason}"
                       + (f" ({why})" if why else ""))  # fmt: skip
        if run.summary:
            out += [
                f"  {run.name}: {x.strip()}"
                for x in completion_lines(run.summary)[1:] + cause_lines(run.summary)
            ]
    return "\n".join(out)


def markdown_summary(runs: list[RunData], convs: list[Conversation]) -> str:
    head, rows, k = _rows(convs)
    out = [
        "## voxbench report",
        "",
        f"{len(runs)} run(s), {len(convs)} conversation(s). "
        + (
            f"pass^{k}: all {k} trials pass."
            if k > 1
            else "One trial per scenario: pass@k and pass^k need k >= 2."
        ),
        "",
    ]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(["---", *["---:"] * (len(head) - 1)]) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    pert = perturbation_rows(convs)
    if pert:
        out += ["", "| system | condition | Δ EVA-A pass@1 | Δ EVA-X pass@1 |", "|---|---|---:|---:|"]
        for r in pert:
            cells = []
            for comp in ("EVA-A_pass", "EVA-X_pass"):
                d = r.deltas[comp]
                cells.append(
                    "-" if d.value is None else f"{100 * d.value:+.0f} pp{' *' if d.significant else ''}"
                )
            out.append(f"| {r.system} | {r.condition} | {cells[0]} | {cells[1]} |")
        out.append("")
        out.append("\\* 95% bootstrap CI over scenarios excludes zero.")
    tau = panel_section(convs)
    if tau:
        out += ["", "### τ-voice interaction panel", "", "```", *tau, "```"]
    for run in runs:
        lines = analysis_lines(run.summary) if run.summary else []
        if lines:
            out += ["", f"### {run.name}", "", "```", *lines, "```"]
    return "\n".join(out) + "\n"
