"""`voxbench judges calibrate`: measure a judge's agreement with human labels
(`calibrate-gate`, the validation gate on labelled faults, is in `judges_gate`).

Scores EVA's human-labelled judge-validation sets (`--dataset DIR` of *.jsonl) and, with
`--records RUN_DIR`, voxbench records that carry a `human_rating` from a mic-in-the-loop
call, then writes calibration.json and prints accuracy / Cohen's kappa / MAE per metric.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voxbench.cli._judge import LOW_CONFIDENCE_NOTE, add_judge_args, judge_from_args

if TYPE_CHECKING:
    from collections.abc import Callable

    from voxbench.eval.types import EvalConfig


def add_parser(sub: Any) -> None:
    p = sub.add_parser("judges", help="judge tools (calibration against human labels)")
    jsub = p.add_subparsers(dest="judges_command", required=True)
    c = jsub.add_parser("calibrate", help="agreement of a judge with human-labelled sets")
    c.add_argument("--dataset", help="folder of EVA-format judge-validation *.jsonl files")
    c.add_argument("--records", help="run directory: also calibrate on records with a human_rating")
    c.add_argument("--metrics", help="comma-separated metric names (default: every supported set)")
    c.add_argument("--limit", type=int, default=None, help="score a seeded random subset of N items per set")
    c.add_argument("--seed", type=int, default=0, help="seed of the --limit subset")
    c.add_argument(
        "--agent-config",
        default=None,
        help="agent YAML (role, policy, tools) for faithfulness; default: EVA's airline agent "
        "when the dataset sits in an EVA checkout (configs/agents/airline_agent.yaml)",
    )
    c.add_argument("--out", default="calibration.json", help="where to write the results")
    c.add_argument("--judge-cache", default=None, help="on-disk judge cache (default: none)")
    c.add_argument(
        "--cv-folds", type=int, default=5, help="k of the k-fold figures of offline methods fitted on labels"
    )
    add_judge_args(c)
    c.set_defaults(func=run_calibrate)
    from voxbench.cli import judges_gate

    judges_gate.add_parser(jsub)


def find_agent_config(dataset: Path) -> Path | None:
    """EVA's agent config beside a judge-validation dataset (the first parent holding
    ``configs/agents/airline_agent.yaml``), or None."""
    for parent in dataset.resolve().parents:
        cand = parent / "configs" / "agents" / "airline_agent.yaml"
        if cand.is_file():
            return cand
    return None


def agent_info(path: Path | None) -> Any:
    """The agent a judge is told about (role, instructions, tools) from an EVA agent config."""
    from voxbench.eval.calibration_items import AgentInfo

    if path is None:
        return None
    from voxbench.scenarios.agent_spec import load_agent_spec

    spec = load_agent_spec(path)
    return AgentInfo(role=spec.role, instructions=spec.instructions, tools=spec.openai_tools())


def _human_rated(run_dir: Path) -> list[tuple[Any, dict[str, Any]]]:
    from voxbench.eval.from_record import load_context

    out = []
    for rec in sorted(run_dir.rglob("record.json")):
        data = json.loads(rec.read_text(encoding="utf-8"))
        if isinstance(data.get("human_rating"), dict):
            out.append((load_context(rec.parent), data["human_rating"]))
    return out


def _fmt(x: Any) -> str:
    return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def run_calibrate(args: argparse.Namespace) -> int:
    if not args.dataset and not args.records:
        raise ValueError("pass --dataset DIR and/or --records RUN_DIR")
    agent_path = Path(args.agent_config) if args.agent_config else None
    if args.dataset:
        dataset = Path(args.dataset)
        if not dataset.is_dir():
            raise FileNotFoundError(f"dataset folder not found: {dataset}")
        agent_path = agent_path or find_agent_config(dataset)
    result = _calibrate(args, agent_path)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    _print_calibration(result, out)
    return 0


def _calibrate(args: argparse.Namespace, agent_path: Path | None) -> dict[str, Any]:
    """Score the labelled sets (and human-rated records) with the judge: calibration.json's content."""
    from rich.console import Console

    from voxbench.eval.calibration import CALIBRATION_SCHEMA, RECORD_PROXY_METRICS, calibrate_records
    from voxbench.eval.types import EvalConfig

    console = Console(stderr=True)
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
    result: dict[str, Any] = {
        "schema_version": CALIBRATION_SCHEMA,
        "created_at": datetime.now(UTC).isoformat(),
        "command": sys.argv[1:],
    }

    def progress(metric: str, n: int, total: int, res: Any) -> None:
        v = "error" if res.error else _fmt(res.score)
        console.print(f"  {metric} {n}/{total}: {v}", highlight=False)

    cache = Path(args.judge_cache) if args.judge_cache else None
    offline = args.judge == "offline"
    with judge_from_args(args, cache, required=not offline) as judge:
        if offline:
            from voxbench.eval.offline import load_all

            config = EvalConfig(judge_mode="offline")
            result["judge"] = {
                "model": "offline",
                "kind": "offline",
                "methods": {m: f"offline:{s.method} v{s.version}" for m, s in sorted(load_all().items())},
            }
        else:
            config = EvalConfig(judge=judge, judge_mode="llm")
            result["judge"] = {"model": judge.model, **(judge.provenance or {})}
        if args.dataset:
            result |= _calibrate_dataset(args, config, metrics, agent_path, None if offline else progress)
        if args.records:
            rated = _human_rated(Path(args.records))
            result["human_rated_records"] = (
                calibrate_records(
                    rated, config, [m for m in RECORD_PROXY_METRICS if not metrics or m in metrics]
                )
                if rated
                else {"records": 0, "note": "no record.json with a human_rating under this directory"}
            )
        if judge is not None:
            u = judge.usage
            result["judge_usage"] = {
                "calls": u.calls,
                "cached_calls": u.cached_calls,
                "prompt_tokens": u.prompt_tokens,
                "completion_tokens": u.completion_tokens,
                "cost_usd": round(u.cost_usd, 6),
            }
    return result


def _calibrate_dataset(
    args: argparse.Namespace,
    config: EvalConfig,
    metrics: list[str] | None,
    agent_path: Path | None,
    progress: Callable[[str, int, int, Any], None] | None,
) -> dict[str, Any]:
    """The dataset's agreement figures, with what was scored (files and agent config hashed)."""
    from voxbench.eval.calibration import calibrate_dataset

    ds = calibrate_dataset(
        Path(args.dataset),
        config,
        metrics=metrics,
        limit=args.limit,
        seed=args.seed,
        agent=agent_info(agent_path),
        progress=progress,
        cv_folds=args.cv_folds,
    )
    return {
        "dataset": {
            "path": str(Path(args.dataset).resolve()),
            "files_sha256": ds.pop("files"),
            "agent_config": str(agent_path) if agent_path else None,
            "agent_config_sha256": hashlib.sha256(agent_path.read_bytes()).hexdigest()
            if agent_path
            else None,
        },
        **ds,
    }


def _print_calibration(result: dict[str, Any], out: Path) -> None:
    """The agreement table (per metric, cross-validated rows, human-rated records) and notes."""
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=True)
    t = Table(title=f"judge calibration: {result['judge']['model']}")
    for col in ("metric", "unit", "n", "accuracy", "kappa", "w-kappa", "MAE", "macro F1", "errors"):
        t.add_column(col, justify="left" if col in ("metric", "unit") else "right")
    for m, r in (result.get("metrics") or {}).items():
        a = r["agreement"]
        t.add_row(
            m,
            r["unit"].split(" (")[0],
            f"{a['n']}/{r['items']}" if r["unit"].startswith("conversation") else str(a["n"]),
            _fmt(a.get("accuracy")),
            _fmt(a.get("cohen_kappa")),
            _fmt(a.get("weighted_kappa_quadratic")),
            _fmt(a.get("mae")),
            _fmt(a.get("macro_f1")),
            str(r["judge_errors"]),
        )
        cv = r.get("cross_validation")
        if cv:
            c = cv["agreement"]
            t.add_row(
                f"  {cv['folds']}-fold CV", "held-out folds", str(c["n"]), _fmt(c.get("accuracy")),
                _fmt(c.get("cohen_kappa")), _fmt(c.get("weighted_kappa_quadratic")), _fmt(c.get("mae")),
                _fmt(c.get("macro_f1")), "",
            )  # fmt: skip
        for half in ("dev", "test"):
            h = (r.get("split") or {}).get(half)
            if h:
                c = h["agreement"]
                fit = "fitted on dev" if r["split"].get("fitted_on") else "rules as written"
                t.add_row(
                    f"  {half} half", fit, str(c["n"]), _fmt(c.get("accuracy")), _fmt(c.get("cohen_kappa")),
                    _fmt(c.get("weighted_kappa_quadratic")), _fmt(c.get("mae")), _fmt(c.get("macro_f1")), "",
                )  # fmt: skip
    for m, r in ((result.get("human_rated_records") or {}).get("metrics") or {}).items():
        a = r["agreement"]
        t.add_row(
            f"{m} (records)", r["human_field"], str(a["n"]), _fmt(a.get("accuracy")), _fmt(a.get("cohen_kappa")),
            _fmt(a.get("weighted_kappa_quadratic")), _fmt(a.get("mae")), _fmt(a.get("macro_f1")), "",
        )  # fmt: skip
    Console(width=max(Console().width, 130)).print(t)
    for m, why in (result.get("skipped") or {}).items():
        console.print(f"skipped {m}: {why}")
    for m, r in (result.get("metrics") or {}).items():
        if r.get("method"):
            low = " [bold yellow]LOW-CONFIDENCE[/bold yellow]" if r.get("low_confidence") else ""
            seen = (r.get("split") or {}).get("test_seen_in_development")
            note = f" (test half read when written: {seen})" if seen else ""
            console.print(f"{m}: {r['method']} v{r['method_version']}{low}{note}")
    if result["judge"].get("confidence") == "low":
        console.print(f"[bold yellow]note:[/bold yellow] {LOW_CONFIDENCE_NOTE}")
    console.print(f"wrote {out}")
