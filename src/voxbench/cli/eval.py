"""`voxbench eval RUN_DIR`: (re-)score every record of a run and print a summary table."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voxbench.cli._judge import add_judge_args, judge_from_args, judge_mode

if TYPE_CHECKING:
    from rich.console import Console


PROGRESS_FROM = 50
"""Runs with at least this many records say how scoring goes (smaller ones take seconds)."""
PROGRESS_LINES = 20


def add_parser(sub: Any) -> None:
    p = sub.add_parser("eval", help="score a run directory (voxbench, EVA or τ-voice layout)")
    p.add_argument(
        "run_dir", help="run directory (conversations/**/record.json or EVA records/*/result.json)"
    )
    p.add_argument("--metrics", help="comma-separated metric names (default: every default metric)")
    p.add_argument(
        "--merge", action="store_true", help="keep earlier metrics.json entries not re-run (append)"
    )
    add_judge_args(p)
    p.add_argument("--audio-judge-model", default=os.environ.get("VOXBENCH_AUDIO_JUDGE_MODEL"))
    p.add_argument("--judge-cache", default=None, help="on-disk judge cache (default RUN_DIR/.judge_cache)")
    p.add_argument(
        "--eva-dataset", default=None, help="EVA dataset folder, for scoring EVA runs (expected DBs)"
    )
    p.add_argument(
        "--pipeline-type", default="cascade", choices=["cascade", "audio_llm", "s2s"], help="EVA runs only"
    )
    p.add_argument(
        "--judge-repeats",
        type=int,
        default=0,
        metavar="R",
        help="also rate every conversation R more times with the judge (R >= 2), to split judge noise out",
    )
    p.add_argument(
        "--ci-target",
        type=float,
        default=0.10,
        metavar="W",
        help="target 95%% CI width of pass@1 for the trials-needed estimate (default 0.10)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="score records in N processes when no judge is configured (same results; "
        "default: the usable cores, at most 4; 1: one process)",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help=f"no progress lines (a run of {PROGRESS_FROM}+ records gets about {PROGRESS_LINES}, on stderr)",
    )
    p.add_argument(
        "--analyses",
        nargs="*",
        default=None,
        metavar="OTHER_RUN",
        help="also print the EVA-Bench paper's six analyses; other scored run folders join as more systems",
    )
    p.add_argument(
        "--sweep-metric",
        default=None,
        metavar="METRIC",
        help="with --analyses: also sweep this metric's pass threshold (default: turn_taking only)",
    )
    p.add_argument("--list-metrics", action="store_true", help="list registered metrics and exit")
    p.set_defaults(func=run_eval)


def run_eval(args: argparse.Namespace) -> int:
    from rich.console import Console

    from voxbench.eval.parallel import default_workers
    from voxbench.eval.runner import default_metrics, score_run
    from voxbench.eval.types import EvalConfig

    if args.list_metrics:
        _print_metrics()
        return 0
    run_dir = Path(args.run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"run directory not found: {run_dir}")
    from voxbench.eval.tau_voice.runs import is_tau_voice_run

    if is_tau_voice_run(run_dir):  # τ-voice experiment or trajectories folder: its panel
        from voxbench.cli.tau_voice_eval import run_tau_voice_eval

        return run_tau_voice_eval(run_dir)
    config = EvalConfig(judge_mode=judge_mode(args))
    cache = Path(args.judge_cache) if args.judge_cache else run_dir / ".judge_cache"
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else default_metrics()
    from voxbench.orchestrator.progress import ScoringProgress

    progress = None if args.no_progress else ScoringProgress("voxbench eval", PROGRESS_FROM, PROGRESS_LINES)
    with judge_from_args(args, cache) as judge:
        config.judge = judge
        if judge is not None and args.audio_judge_model and args.judge_base_url:
            from voxbench.eval.judges.openai_http import OpenAIJudge

            config.audio_judge = OpenAIJudge(
                base_url=args.judge_base_url, model=args.audio_judge_model, cache_dir=cache
            )
        _, summary = score_run(
            run_dir,
            config,
            metrics,
            eva_dataset=args.eva_dataset,
            pipeline_type=args.pipeline_type,
            merge=args.merge,
            judge_repeats=args.judge_repeats,
            ci_target=args.ci_target,
            workers=args.workers if args.workers is not None else default_workers(),
            on_found=progress.found if progress else None,
            on_scored=progress.scored if progress else None,
        )
    console = Console()
    _print_summary(console, run_dir, summary)
    if config.judge is not None:
        u = judge.usage
        console.print(
            f"judge {config.judge.model}: {u.calls} calls ({u.cached_calls} cached), "
            f"tokens in/out {u.prompt_tokens}/{u.completion_tokens}"
        )
    for note in (summary.get("judge_confidence") or {}).get("notes", []):
        console.print(f"[bold yellow]warning:[/bold yellow] {note}")
    if args.analyses is not None:
        _print_paper_analyses(console, [run_dir, *map(Path, args.analyses)], args.sweep_metric)
    return 0


def _print_paper_analyses(console: Console, runs: list[Path], sweep_metric: str | None) -> None:
    """`--analyses`: the paper's six analyses over this run and the other runs named."""
    from voxbench.eval.paper_analyses import load_rows, paper_analyses
    from voxbench.eval.paper_analyses.thresholds import DEFAULT_METRIC
    from voxbench.reports.summary_paper import paper_lines

    out = paper_analyses(load_rows(runs), sweep_metric or DEFAULT_METRIC)
    for line in paper_lines(out):
        console.print(line, highlight=False, markup=False, soft_wrap=True)


def _print_metrics() -> None:
    """`--list-metrics`: every registered metric, by category."""
    from rich.console import Console
    from rich.table import Table

    from voxbench.eval.types import REGISTRY

    t = Table("metric", "category", "version", "judge", "pass thr", "default")
    for n, s in sorted(REGISTRY.items(), key=lambda x: (x[1].category, x[0])):
        t.add_row(
            n, s.category, s.version, "yes" if s.needs_judge else "", str(s.pass_threshold), str(s.default)
        )
    Console().print(t)


def _print_summary(console: Console, run_dir: Path, summary: dict[str, Any]) -> None:
    """The run's table (per metric, then the overall scores), headline, failures and analysis."""
    from rich.table import Table

    from voxbench.eval.headline import headline_lines
    from voxbench.reports.summary_analysis import analysis_lines

    t = Table(title=f"{run_dir.name}: {summary['scored_records']}/{summary['total_records']} records scored")
    for col in ("metric", "mean", "95% CI", "n", "skipped/none", "errors"):
        t.add_column(col, justify="left" if col == "metric" else "right")
    for name, b in summary["per_metric"].items():
        ci = "" if b["mean_ci_lower"] is None else f"[{b['mean_ci_lower']:.3f}, {b['mean_ci_upper']:.3f}]"
        mean = "-" if b["mean"] is None else f"{b['mean']:.3f}"
        t.add_row(name, mean, ci, str(b["count"]), str(b["none_count"]), str(b["error_count"]))
    for name, b in summary["overall_scores"].items():
        if name == "pass_k":
            continue
        mean = "-" if b["mean"] is None else f"{b['mean']:.3f}"
        t.add_row(f"[bold]{name}[/bold]", mean, "", str(b["count"]), str(b["none_count"]), "")
    console.print(t)
    for line in headline_lines(summary):
        console.print(line, highlight=False)
    f = summary["failures"]
    console.print(
        f"infrastructure failures: {f['infrastructure']['count']}  "
        f"validation failures: {f['validation']['count']}  "
        f"summary: {run_dir / 'metrics_summary.json'}"
    )
    for line in analysis_lines(summary):
        console.print(line, highlight=False)
