"""`voxbench compare RUN_A RUN_B`: did version B regress against version A?

The pairing and the statistics live in ``voxbench.eval.compare``; this prints them. Exit codes:
0 ok, 1 a regression with ``--fail-on-regression``, 2 bad input.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="compare two scored runs on the conversations they share (regressions first)",
    )
    p.add_argument("run_a", help="the baseline run folder (A, e.g. the last release)")
    p.add_argument("run_b", help="the run to check (B, e.g. this change)")
    p.add_argument("--alpha", type=float, default=0.05, help="family-wise level for Holm (default 0.05)")
    p.add_argument("--fail-on-regression", action="store_true", help="exit 1 if any metric regressed")
    p.add_argument("--json", metavar="FILE", help="also write the comparison as JSON (atomically)")
    p.add_argument(
        "--all", action="store_true", help="list every metric (default: changed ones + EVA composites)"
    )
    p.set_defaults(func=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from voxbench.eval.compare import compare_runs
    from voxbench.records import atomic_write_json

    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must be between 0 and 1, got {args.alpha}")
    comp = compare_runs(args.run_a, args.run_b, alpha=args.alpha)
    for line in comparison_lines(comp, everything=args.all):
        print(line)
    if args.json:
        atomic_write_json(args.json, comp)
    if args.fail_on_regression and comp.regressions:
        return 1
    return 0


def _f(v: float | None, signed: bool = False) -> str:
    if v is None:
        return "-"
    digits = 3 if abs(v) < 10 else 1
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def _p(p: float | None) -> str:
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def comparison_lines(comp: Any, *, everything: bool = False) -> list[str]:
    """The terminal text: what was paired, what was left out, then one line per metric."""
    lines = [
        f"A: {comp.run_a}",
        f"B: {comp.run_b}",
        f"{comp.shared} conversation pairs over {len(comp.shared_scenarios)} scenarios "
        f"(same scenario, condition and trial; both completed)",
    ]
    lines += [f"note: {n}" for n in comp.notes]
    for label in comp.not_completed[:10]:
        lines.append(f"  left out: {label}")
    if len(comp.not_completed) > 10:
        lines.append(f"  ... and {len(comp.not_completed) - 10} more not completed on a side")
    shown = [r for r in comp.rows if everything or r.verdict != "no_change" or r.metric.startswith("EVA-")]
    if not shown:
        return lines
    lines.append(
        f"{'':<11} {'metric':<36} {'A':>7} {'B':>7} {'delta':>7} {'95% CI':>17} {'p':>6} {'p_holm':>6} {'n':>4}"
    )
    for r in shown:
        ci = f"[{_f(r.ci_lower, True)}, {_f(r.ci_upper, True)}]" if r.ci_lower is not None else ""
        tag = {"regression": "REGRESSION", "improvement": "improved", "no_change": ""}[r.verdict]
        lines.append(
            f"{tag:<11} {r.metric:<36} {_f(r.mean_a):>7} {_f(r.mean_b):>7} {_f(r.delta, True):>7} "
            f"{ci:>17} {_p(r.p_value):>6} {_p(r.p_holm):>6} {r.n_pairs:>4}"
        )
    hidden = len(comp.rows) - len(shown)
    if hidden:
        lines.append(f"({hidden} unchanged metrics not shown; --all lists them)")
    lines.append(
        f"{len(comp.regressions)} regression(s) at Holm-corrected alpha {comp.alpha}; delta = B - A, "
        "p: paired sign-flip permutation test over the pairs, CI: bootstrap over scenarios"
    )
    return lines
