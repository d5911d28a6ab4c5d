"""The "Run comparison" section of the index page when the report is given exactly two runs.

The same comparison as ``voxbench compare RUN_A RUN_B`` (``voxbench.eval.compare``), with the
first run as A (the baseline) and the second as B, so the page and the command never disagree.
"""

from __future__ import annotations

from voxbench.eval.compare import Comparison, MetricDelta, compare_runs
from voxbench.reports.html import chip, e, table
from voxbench.reports.model import RunData


def _v(v: float | None, signed: bool = False) -> str:
    if v is None:
        return "–"
    digits = 3 if abs(v) < 10 else 1
    if signed and round(v, digits) == 0:
        return "±0"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def _p(p: float | None) -> str:
    return "–" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def _tr(r: MetricDelta) -> str:
    mark = {
        "regression": chip("regression", "fail"),
        "improvement": chip("improved", "pass"),
        "no_change": chip("not significant", "na"),
    }[r.verdict]
    cls = {"regression": "neg", "improvement": "pos", "no_change": ""}[r.verdict]
    ci = ""
    if r.ci_lower is not None and r.ci_upper is not None:
        ci = f"<span class='ci'>95% CI {_v(r.ci_lower, True)}…{_v(r.ci_upper, True)}</span>"
    direction = "lower is better" if r.lower_is_better else "higher is better"
    return (
        f"<tr data-metric='{e(r.metric)}' data-verdict='{r.verdict}'>"
        f"<td class='txt mname' title='{direction}'>{e(r.metric)}</td><td>{r.n_pairs}</td>"
        f"<td><span class='v'>{_v(r.mean_a)}</span></td><td><span class='v'>{_v(r.mean_b)}</span></td>"
        f"<td class='{cls} delta'><span class='v'>{_v(r.delta, True)}</span>{ci}</td>"
        f"<td class='p'>{_p(r.p_value)}</td><td class='p'>{_p(r.p_holm)}</td><td class='txt mark'>{mark}</td></tr>"
    )


def comparison_html(comp: Comparison, name_a: str, name_b: str) -> str:
    lead = (
        f"<p class='muted'>A = <b>{e(name_a)}</b>, B = <b>{e(name_b)}</b>: {comp.shared} conversation pair(s) "
        f"over {len(comp.shared_scenarios)} scenario(s) (same scenario, condition and trial, same "
        "scenario data, both completed). Δ = B − A, averaged per scenario first; CI: bootstrap over "
        "scenarios; p: paired sign-flip permutation test over the pairs; verdict: Holm-adjusted "
        f"p ≤ {comp.alpha:g}. <b>{len(comp.regressions)}</b> regression(s), listed first. "
        f"The same table in a terminal: <code>voxbench compare {e(comp.run_a)} {e(comp.run_b)}</code>.</p>"
    )
    notes = "".join(f"<p class='muted'>{e(n)}</p>" for n in comp.notes)
    if comp.not_completed:
        notes += (
            f"<p class='muted'>Left out, not completed on a side: {e(', '.join(comp.not_completed[:20]))}"
            f"{' …' if len(comp.not_completed) > 20 else ''}</p>"
        )
    if not comp.rows:
        return lead + notes + "<p class='muted'>No metric was scored in both runs.</p>"
    head = [
        "<span class='txt'>Metric</span>",
        "Pairs",
        "A mean",
        "B mean",
        "Δ (B − A)",
        "p",
        "p (Holm)",
        "<span class='txt'>Verdict</span>",
    ]
    return lead + notes + table(head, [_tr(r) for r in comp.rows], "lb compare")


def compare_section(runs: list[RunData]) -> str:
    """The section for exactly two runs ("" otherwise); a comparison that cannot be made says why."""
    if len(runs) != 2:
        return ""
    a, b = runs
    try:
        body = comparison_html(compare_runs(a.path, b.path), a.name, b.name)
    except ValueError as exc:
        body = f"<p class='muted'>These two runs cannot be compared: {e(exc)}</p>"
    return f"<section id='compare'><h2>Run comparison</h2>{body}</section>"
