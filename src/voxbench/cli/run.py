"""`voxbench run`: a benchmark run (trials, validation-gated reruns, resume, backends).

Re-running the same command with the same ``--out`` resumes: finished conversations
are kept, partial ones redone. Exit codes: 0 ok, 1 a ``--fail-under`` gate failed,
2 bad input, 3 the run lock is held, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from voxbench.cli._junit import add_junit_args, threshold_pair, write_junit_from_args
from voxbench.pipelines.caller.registry import DEFAULT_CALLER, caller_kinds

OFFLINE_DEFAULT_CALL = {
    "simulator": {"trace": {"hold_max_s": 3.5, "hold_gap_s": 40.0}, "goal": {"statement_wait_s": 8.0}}
}
"""The bundled 1.5B agent announces a lookup in a sentence of up to ~3 s and answers 10-30 s
later on 2 loaded cores: the trace caller treats such turns as holds and waits that long. It
pauses 5-8 s between its sentences while it generates the next: the goal caller waits 8 s
after a turn that asks nothing before it answers (2 s, ``done_wait_s``, after one that completes
all its requests: its answer is goodbye whatever comes next)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("run", help="run a benchmark (resumable; see --out)")
    p.add_argument("--config", help="run config YAML (precedence: YAML < VOXBENCH_* env < flags)")
    p.add_argument("--data", help="EVA-format dataset folder (default: built-in scenarios)")
    p.add_argument("--domain", action="append", help="only this domain (repeatable)")
    p.add_argument("--scenarios", help="comma-separated scenario ids (or domain/id)")
    p.add_argument("--trials", type=int, help="trials per scenario (k)")
    p.add_argument("--max-attempts", type=int, help="attempts per conversation before giving up on validity")
    p.add_argument("--concurrency", type=int, help="conversations at once")
    p.add_argument("--time-limit", type=float, help="seconds per conversation")
    p.add_argument("--seed", type=int, help="run seed (conversation seeds derive from it)")
    p.add_argument("--out", help="run folder; rerun with the same folder to resume")
    p.add_argument("--run-id", help="run id (default: from --out or a timestamp)")
    p.add_argument("--backend", choices=("local", "ray"), help="where conversations run")
    p.add_argument("--address", help="Ray cluster address (with --backend ray)")
    p.add_argument("--agent", help="agent profile name (scripted = the no-audio scripted agent)")
    p.add_argument("--profiles", action="append", help=PROFILES_HELP)
    p.add_argument(
        "--simulator",
        choices=caller_kinds(),
        help=f"simulated caller kind (default {DEFAULT_CALLER}; see docs/simulators.md)",
    )
    p.add_argument("--validator", choices=("auto", "builtin", "eval"), help="validation gate")
    p.add_argument(
        "--fail-under",
        type=threshold_pair,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="exit 1 if summary KEY < VALUE (repeatable; any key of run_summary.json or metrics)",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress display (a table on a TTY, one line per change otherwise)",
    )
    p.add_argument("--no-score", action="store_true", help="skip scoring with voxbench.eval")
    add_junit_args(p)
    p.add_argument(
        "--offline-default", action="store_true", help="built-in data with the offline default stack"
    )
    p.set_defaults(func=run_cmd)


PROFILES_HELP = (
    "YAML file of agent profiles (repeatable; adds to $VOXBENCH_AGENTS and the run YAML's agent.profiles)"
)


def agent_choice(args: argparse.Namespace) -> dict[str, Any]:
    """``--agent NAME --profiles FILE ...`` as a run config's ``agent:`` (empty: none given)."""
    agent: dict[str, Any] = {}
    if args.agent:
        agent["profile"] = args.agent
    if args.profiles:
        agent["profiles"] = list(args.profiles)
    return agent


def cli_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Only flags the user gave: absent flags must not mask YAML or env values."""
    o: dict[str, Any] = {
        "dataset": args.data,
        "domains": args.domain,
        "scenarios": [s.strip() for s in args.scenarios.split(",") if s.strip()] if args.scenarios else None,
        "trials": args.trials,
        "concurrency": args.concurrency,
        "time_limit_s": args.time_limit,
        "seed": args.seed,
        "out": args.out,
        "run_id": args.run_id,
        "backend": args.backend,
        "ray_address": args.address,
    }
    agent = agent_choice(args)
    if agent:
        o["agent"] = agent
    if args.simulator:
        o["simulator"] = {"kind": args.simulator}
    validation: dict[str, Any] = {}
    if args.max_attempts is not None:
        validation["max_attempts"] = args.max_attempts
    if args.validator:
        validation["validator"] = args.validator
    if validation:
        o["validation"] = validation
    if args.fail_under:
        o["fail_under"] = dict(args.fail_under)
    if args.no_score:
        o["score"] = False
    if args.offline_default and not args.agent:
        o["agent"] = {**agent, "profile": "offline-default"}
        o["call"] = OFFLINE_DEFAULT_CALL
    return {k: v for k, v in o.items() if v is not None}


def time_by_step_line(session: dict[str, Any]) -> str | None:
    """``time by step (3 attempts): warming the agent's LLM on its policy and tools 120 s (31%), ...``:
    where a live run's minutes went (model loading, warm-up, the calls), biggest first."""
    steps: dict[str, float] = session.get("time_by_step_s") or {}
    total = sum(steps.values())
    if total <= 0:
        return None
    parts = [
        f"{name} {secs:.0f} s ({100 * secs / total:.0f}%)"
        for name, secs in sorted(steps.items(), key=lambda kv: -kv[1])
    ]
    return f"time by step ({session.get('attempts', 0)} attempts): " + ", ".join(parts)


def progress_kwargs(config: Any, enabled: bool) -> dict[str, Any]:
    """What `run` and `experiment` show while they run (the Orchestrator's ``progress`` and
    ``scoring``): a live table on a TTY, a line per change and per call step otherwise
    (``orchestrator/progress.py``), then the scoring pass's lines; nothing with ``--no-progress``."""
    if not enabled:
        return {}
    from voxbench.orchestrator import Orchestrator
    from voxbench.orchestrator.progress import LineProgress, RichProgress, ScoringProgress

    if config.resolved_conversation_fn() == "live":
        print(
            "live calls: each call's worker first loads its models (STT, TTS, a local LLM) and warms "
            "the LLM on the agent's policy and tools (up to a few minutes on 2 cores; a prompt saved "
            "by an earlier call is restored in seconds); the progress names each call's step",
            file=sys.stderr,
            flush=True,
        )
    run_id = Orchestrator(config).resolve_run_dir()[0]
    sink = RichProgress(run_id) if sys.stderr.isatty() else LineProgress(run_id)
    return {"progress": sink, "scoring": ScoringProgress(f"voxbench run {run_id}: scoring")}


def run_cmd(args: argparse.Namespace) -> int:
    from voxbench.orchestrator import DiskFull, Orchestrator, RunLocked, check_fail_under, load_run_config

    config = load_run_config(args.config, cli_overrides(args))
    if config.resolved_conversation_fn() == "live":
        # a missing key/extra fails here, before any call starts (an unknown profile already
        # failed while the config was read)
        from voxbench.pipelines.agent.profiles import AgentProfile, preflight

        if isinstance(config.agent, AgentProfile):
            preflight(config.agent)
    orch = Orchestrator(config, **progress_kwargs(config, not args.no_progress))
    try:
        result = orch.run_sync()
    except RunLocked as exc:
        print(f"voxbench: error: {exc}", file=sys.stderr)
        return 3
    except DiskFull as exc:
        print(f"voxbench: error: {exc.strerror}", file=sys.stderr)
        return 4
    s = result.summary
    print(
        f"run {s['run_id']}: {s['completed']}/{s['planned']} completed, "
        f"{s['validation_failed']} invalid, {s['infra_failed']} infra-failed, "
        f"{s['regenerated']} regenerated, {s['infra_retried']} infra retries -> {result.run_dir}"
    )
    steps = time_by_step_line(s.get("session") or {})
    if steps:
        print(steps)
    _print_conversations(result.run_dir)
    _print_headline(s.get("metrics"))
    write_junit_from_args(args, [result.run_dir])
    if result.interrupted:
        print("interrupted: rerun the same command to resume", file=sys.stderr)
        return 130
    problems = check_fail_under(s, config.fail_under)
    for msg in problems:
        print(f"fail-under: {msg}", file=sys.stderr)
    return 1 if problems else 0


def _print_headline(metrics: dict[str, Any] | None) -> None:
    """EVA-A / EVA-X pass@1 (pass@k) and who judged them (offline by default)."""
    if not metrics:
        return
    from voxbench.eval.headline import headline_lines

    for line in headline_lines(metrics):
        print(line)


def _print_conversations(run_dir: Path) -> None:
    """One line per finished conversation: task done?, turns, tool calls, latency."""
    for rec_path in sorted((run_dir / "records").glob("*/record.json")):
        rec = json.loads(rec_path.read_text(encoding="utf-8"))
        m_path = rec_path.parent / "metrics.json"
        metrics = (
            json.loads(m_path.read_text(encoding="utf-8")).get("metrics", {}) if m_path.is_file() else {}
        )
        task = (metrics.get("task_completion") or {}).get("score")
        speed = metrics.get("response_speed") or {}
        latency = speed.get("score")
        turns = (speed.get("details") or {}).get("num_turns", "-")
        task_s = "-" if task is None else ("done" if task == 1 else "not done")
        latency_s = "-" if latency is None else f"{latency:.2f}s"
        print(
            f"  {rec_path.parent.name:<34} {rec.get('status', '?'):<13} task {task_s:<9} turns {turns!s:<3} "
            f"tool calls {rec.get('num_tool_calls', 0):<3} latency {latency_s:<7} end {rec.get('end_reason')}"
        )
