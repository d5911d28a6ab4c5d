"""`voxbench experiment`: the same scenarios under several conditions, deltas vs clean.

    voxbench experiment --conditions clean,noise,accent+noise --trials 3 --out runs/exp1

Runs every (scenario x trial x condition) conversation through the orchestrator (resumable:
rerun with the same --out), scores with voxbench.eval, and prints per-metric deltas against
the baseline with paired permutation p-values, Holm-corrected across metrics; the same table
is written to <out>/experiment.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from voxbench.cli.run import PROFILES_HELP
from voxbench.pipelines.caller.registry import DEFAULT_CALLER, caller_kinds

if TYPE_CHECKING:
    from voxbench.orchestrator.config import RunConfig


def add_parser(sub: Any) -> None:
    p = sub.add_parser("experiment", help="compare perturbation conditions (deltas vs clean, significance)")
    p.add_argument("--conditions", required=True, help="comma-separated, e.g. clean,noise,accent+noise")
    p.add_argument("--baseline", default="clean", help="condition the others are compared to (default clean)")
    p.add_argument("--config", help="run config YAML (agent, simulator, judges, custom conditions, ...)")
    p.add_argument("--data", help="EVA-format dataset folder (default: built-in scenarios)")
    p.add_argument("--domain", action="append", help="only this domain (repeatable)")
    p.add_argument("--scenarios", help="comma-separated scenario ids (or domain/id)")
    p.add_argument("--trials", type=int, help="trials per scenario and condition (k)")
    p.add_argument(
        "--agent",
        help="agent profile (default: offline-default, the live local stack of `voxbench run --offline-default`; "
        "scripted = the no-audio scripted agent)",
    )
    p.add_argument("--profiles", action="append", help=PROFILES_HELP)
    p.add_argument(
        "--simulator",
        choices=caller_kinds(),
        help=f"simulated caller kind (default {DEFAULT_CALLER})",
    )
    p.add_argument("--concurrency", type=int, help="conversations at once")
    p.add_argument("--time-limit", type=float, help="seconds per conversation")
    p.add_argument("--seed", type=int, help="run seed")
    p.add_argument("--out", help="run folder; rerun with the same folder to resume")
    p.add_argument("--metrics", help="only show these metrics in the printed table (comma-separated)")
    p.add_argument("--json", action="store_true", help="print experiment.json instead of the table")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress display (a table on a TTY, one line per change otherwise, as on `run`)",
    )
    p.set_defaults(func=experiment_cmd)


def experiment_base_config(args: argparse.Namespace) -> RunConfig:
    """The run config from YAML < env < flags; no agent anywhere means the offline stack."""
    from voxbench.cli.run import OFFLINE_DEFAULT_CALL, agent_choice
    from voxbench.orchestrator import load_run_config

    cli: dict[str, Any] = {
        "dataset": args.data,
        "domains": args.domain,
        "scenarios": [s.strip() for s in args.scenarios.split(",") if s.strip()] if args.scenarios else None,
        "trials": args.trials,
        "concurrency": args.concurrency,
        "time_limit_s": args.time_limit,
        "seed": args.seed,
        "out": args.out,
        "agent": agent_choice(args) or None,
        "simulator": {"kind": args.simulator} if args.simulator else None,
    }
    base = load_run_config(args.config, {k: v for k, v in cli.items() if v is not None})
    if not ({"agent", "conversation_fn"} & base.model_fields_set):
        # no agent anywhere (flag, YAML, env): the live offline stack `voxbench run` uses, not
        # the no-audio scripted agent whose table would hold only conversation_valid_end
        cli["agent"] = {"profile": "offline-default"}  # (profile files alone name no agent: rejected)
        cli["call"] = OFFLINE_DEFAULT_CALL
        base = load_run_config(args.config, {k: v for k, v in cli.items() if v is not None})
        print(
            "agent: offline-default (live, local models; --agent scripted for the no-audio one)",
            file=sys.stderr,
        )
    return base


def experiment_cmd(args: argparse.Namespace) -> int:
    from voxbench.orchestrator.experiment import experiment_config, format_table, run_experiment

    base = experiment_base_config(args)
    if base.resolved_conversation_fn() == "live":
        from voxbench.pipelines.agent.profiles import AgentProfile, preflight

        if isinstance(base.agent, AgentProfile):
            preflight(base.agent)  # a missing key or extra fails before any call
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    try:
        config = experiment_config(base, conditions, args.baseline)
    except KeyError as exc:
        raise ValueError(str(exc).strip("'\"")) from None
    from voxbench.cli.run import progress_kwargs

    result = run_experiment(config, args.baseline, **progress_kwargs(config, not args.no_progress))
    s = result.summary
    print(
        f"run {s['run_id']}: {s['completed']}/{s['planned']} completed, {s['validation_failed']} invalid, "
        f"{s['infra_failed']} infra-failed -> {result.run_dir}",
        file=sys.stderr,
    )
    if result.interrupted:
        print("interrupted: rerun the same command to resume", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result.experiment, indent=2))
    else:
        metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
        print(format_table(result.experiment, metrics))
        print(f"written: {result.run_dir / 'experiment.json'}", file=sys.stderr)
    return 0
