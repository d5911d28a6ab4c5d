"""The "Perturbation experiment" section of the index page, from ``experiment.json``.

The other perturbation table recomputes pass@1 deltas from the records; this one shows what
``voxbench experiment`` concluded (every metric, permutation p-values, Holm correction), so
the report and the terminal table of that command never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from voxbench.eval.types import REGISTRY
from voxbench.reports.experiment import ComparisonRow, Experiment
from voxbench.reports.html import chip, e, table
from voxbench.reports.model import Conversation, RunData


@dataclass(frozen=True)
class _Row:
    condition: str
    row: ComparisonRow
    lower_is_better: bool

    @property
    def harm(self) -> float:
        """How much worse the condition is, in the metric's own units (negative: better)."""
        return self.row.delta if self.lower_is_better else -self.row.delta

    @property
    def rank(self) -> tuple[int, float]:
        # Significant degradations first (largest first), then significant gains, then the rest.
        sig = self.row.significant
        return (0 if sig and self.harm > 0 else 1 if sig else 2, -self.harm)


def raw_lower_is_better(convs: Iterable[Conversation]) -> set[str]:
    """Metrics whose experiment values are raw scores where lower is better.

    The writer uses the normalised score when a metric has one (always higher-is-better) and
    the raw score otherwise, so direction follows the registry only for metrics that were
    never normalised in these conversations (e.g. response_speed in seconds).
    """
    normalised = {n for c in convs for n, m in c.metrics.items() if m.normalized is not None}
    return {n for n, s in REGISTRY.items() if not s.higher_is_better and n not in normalised}


def _val(v: float, signed: bool = False) -> str:
    """Three decimals for scores in [0, 1]; two for larger raw values (seconds, counts)."""
    digits = 3 if abs(v) < 10 else 1 if abs(v) >= 100 else 2
    if signed and round(v, digits) == 0:
        return "±0"  # no "-0.000": a rounding sign reads as a finding
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def _p(p: float | None) -> str:
    if p is None:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _mark(r: _Row) -> str:
    if not r.row.significant:
        return chip("not significant", "na")
    if r.harm > 0:
        return chip("significant · worse", "fail")
    return chip("significant · better", "pass") if r.harm < 0 else chip("significant", "warn")


def _tr(r: _Row, units: dict[str, str]) -> str:
    row = r.row
    unit = f" <span class='muted'>({e(units[row.metric])})</span>" if row.metric in units else ""
    direction = "lower is better" if r.lower_is_better else "higher is better"
    # Colour only significant changes, so noise does not look like a finding.
    cls = ("neg" if r.harm > 0 else "pos" if r.harm < 0 else "") if row.significant else ""
    ci = ""
    if row.delta_ci is not None:
        ci = f"<span class='ci'>95% CI {_val(row.delta_ci[0], True)}…{_val(row.delta_ci[1], True)}</span>"
    return (
        f"<tr data-condition='{e(r.condition)}' data-metric='{e(row.metric)}'>"
        f"<td class='txt'>{e(r.condition)}</td>"
        f"<td class='txt mname' title='{direction}'>{e(row.metric)}{unit}</td>"
        f"<td>{row.n_pairs}</td>"
        f"<td><span class='v'>{_val(row.baseline_mean)}</span></td>"
        f"<td><span class='v'>{_val(row.condition_mean)}</span></td>"
        f"<td class='{cls} delta'><span class='v'>{_val(row.delta, True)}</span>{ci}</td>"
        f"<td class='p'>{_p(row.p_value)}</td><td class='p'>{_p(row.p_holm)}</td>"
        f"<td class='txt mark'>{_mark(r)}</td></tr>"
    )


def _one(name: str, exp: Experiment, lower: set[str], units: dict[str, str], many: bool) -> str:
    rows = sorted(
        (_Row(cond, row, row.metric in lower) for cond, tbl in exp.comparisons.items() for row in tbl),
        key=lambda r: r.rank,
    )
    empty = [c for c, tbl in exp.comparisons.items() if not tbl]
    title = f"<h3>{e(name)}</h3>" if many else ""
    n_sig = sum(1 for r in rows if r.rank[0] == 0)
    lead = (
        f"<p class='muted'>Baseline <b>{e(exp.baseline)}</b> vs {', '.join(e(c) for c in exp.comparisons) or 'nothing'}; "
        f"{len(exp.scenarios)} scenario(s). Each value is a mean over per-scenario means "
        f"({e(exp.value) or 'normalised score when present, else raw score'}). "
        f"p: {e(exp.test) or 'paired permutation test'}. Significant: Holm-adjusted p ≤ {exp.alpha:g}. "
        f"<b>{n_sig}</b> significant degradation(s). Rows: significant degradations first, largest first "
        "(in each metric's own units), then significant gains, then the rest.</p>"
    )
    most = max((r.row.n_pairs for r in rows), default=0)
    if rows and 2 / 2**most > exp.alpha:
        # An exact two-sided sign-flip test over n pairs cannot go below 2 / 2^n.
        lead += (
            f"<p class='muted'><b>Too few scenarios to find anything:</b> with {most} scenario pair(s) "
            f"the smallest possible p is {2 / 2**most:.3f} &gt; {exp.alpha:g}, so no row can be significant. "
            "Run more scenarios.</p>"
        )
    if not rows:
        return (
            f"{title}{lead}<p class='muted'>No metric was scored under both the baseline and a condition.</p>"
        )
    head = [
        "<span class='txt'>Condition</span>",
        "<span class='txt'>Metric</span>",
        "Pairs",
        f"{e(exp.baseline)} mean",
        "Condition mean",
        "Δ (cond − base)",
        "p",
        "p (Holm)",
        "<span class='txt'>Verdict</span>",
    ]
    note = (
        f"<p class='muted'>No metric scored under both: {', '.join(e(c) for c in empty)}.</p>"
        if empty
        else ""
    )
    return title + lead + table(head, [_tr(r, units) for r in rows], "lb experiment") + note


def experiment_section(runs: list[RunData], convs: list[Conversation]) -> str:
    """The section, or "" when no run carries an ``experiment.json``."""
    with_exp = [(r.name, r.experiment) for r in runs if r.experiment is not None]
    if not with_exp:
        return ""
    lower = raw_lower_is_better(convs)
    units = {
        n: str(m.raw["params"]["unit"])
        for c in convs
        for n, m in c.metrics.items()
        if m.normalized is None and isinstance(m.raw.get("params"), dict) and m.raw["params"].get("unit")
    }
    body = "".join(_one(name, exp, lower, units, len(with_exp) > 1) for name, exp in with_exp)
    return f"<section id='experiment'><h2>Perturbation experiment</h2>{body}</section>"
