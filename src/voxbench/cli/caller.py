"""`voxbench caller check`: a simulated caller against each scenario's reference conversation, as text.

Gives the reference agent turns to the caller in order and compares its replies with what the
reference caller disclosed and decided (see ``pipelines/caller/goal/check.py``); prints a table
per domain and writes the full report (every turn) as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from voxbench.pipelines.caller.goal.check import CheckReport, GoalTextCaller, resolved_scenarios, run_check

COLUMNS = (
    ("requests_answered_right_pct", "requests ok %"),
    ("facts_withheld_pct", "withheld %"),
    ("invented_facts", "invented"),
    ("decisions_matched_pct", "decisions %"),
    ("premature_endings", "premature"),
    ("missed_endings", "missed end"),
    ("ms_per_turn", "ms/turn"),
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("caller", help="simulated-caller tools")
    csub = p.add_subparsers(dest="caller_command", required=True)
    c = csub.add_parser(
        "check", help="text-only bench of a caller over the scenarios' reference conversations"
    )
    c.add_argument("--data", required=True, help="EVA-format dataset folder (holds data/ and configs/)")
    c.add_argument("--domain", action="append", help="only this domain (repeatable)")
    c.add_argument("--simulator", choices=["goal", "llm"], default="goal")
    c.add_argument(
        "--limit",
        type=int,
        default=None,
        help="only the first N scenarios of each domain (the LLM caller is slow)",
    )
    c.add_argument("--seed", type=int, default=0, help="goal caller phrasing seed")
    c.add_argument(
        "--classifier",
        choices=["rules", "llm"],
        default="rules",
        help="goal: 'llm' adds the embedded LLM as a grammar-constrained chooser when the rules are unsure",
    )
    c.add_argument("--classifier-model", default="qwen-1.5b", help="goal --classifier llm: local model key")
    c.add_argument("--threads", type=int, default=None, help="llm: generation threads")
    c.add_argument("--out", default="caller_check.json", help="where to write the report")
    c.set_defaults(func=run_caller_check)


def _row(name: str, s: dict[str, Any]) -> str:
    cells = [f"{name:<12}", f"{s.get('scenarios', 0):>9}"]
    for key, label in COLUMNS:
        v = s.get(key)
        cells.append(f"{'-' if v is None else v:>{len(label)}}")
    return " ".join(cells)


def print_table(report: CheckReport) -> None:
    print(
        f"caller check: simulator={report.simulator} data={report.data}"
        + (f" limit={report.limit}" if report.limit else "")
    )
    print(" ".join([f"{'domain':<12}", f"{'scenarios':>9}", *(label for _, label in COLUMNS)]))
    for d, s in report.domains.items():
        print(_row(d, s))
    print(_row("overall", report.overall))
    errors = [r for r in report.scenarios if r.error]
    for r in errors[:5]:
        print(f"  ERROR {r.domain}/{r.scenario_id}: {r.error}", file=sys.stderr)
    if report.note:
        print(f"note: {report.note}")


def _goal_with_llm_classifier(args: argparse.Namespace, scenarios: list[Any]) -> CheckReport:
    """The goal caller with the embedded LLM as its unsure-case chooser (one server for the run)."""
    from voxbench.localmodels import LlamaServer, default_judge_llm
    from voxbench.pipelines.caller.goal.classifier_llm import LLMChoiceClassifier, LocalChoiceLLM

    server = LlamaServer(default_judge_llm(args.classifier_model), n_threads=args.threads, n_ctx=4096).start()
    try:
        hook = LLMChoiceClassifier(LocalChoiceLLM(server.base_url, server.model), name=args.classifier_model)
        report = run_check(
            scenarios, lambda d, s: GoalTextCaller(s, seed=args.seed, hook=hook), "goal+llm",
            str(args.data), args.limit,
        )  # fmt: skip
        per_call = hook.ms_total / hook.calls if hook.calls else 0.0
        report.note = (
            f"LLM classifier ({server.model}) asked {hook.calls} times, {per_call:.0f} ms per call; "
            "ms/turn includes those calls"
        )
        return report
    finally:
        server.stop()


def run_caller_check(args: argparse.Namespace) -> int:
    scenarios = resolved_scenarios(args.data, args.domain)
    if args.simulator == "goal" and args.classifier == "llm":
        report = _goal_with_llm_classifier(args, scenarios)
    elif args.simulator == "goal":
        report = run_check(
            scenarios, lambda d, s: GoalTextCaller(s, seed=args.seed), "goal", str(args.data), args.limit
        )
    else:
        from voxbench.pipelines.caller.goal.check_llm import LLMCallerFactory

        factory = LLMCallerFactory(threads=args.threads)
        try:
            note = "LLM caller text path (Qwen2.5-Coder-1.5B, JSON turns, echo/give-up guards)"
            if args.limit:
                note += (
                    f"; first {args.limit} scenarios of each domain only (seconds per turn on this machine)"
                )
            report = run_check(
                scenarios, factory.make, "llm", str(args.data), args.limit, note,
                on_scenario=lambda r: print(f"  {r.domain}/{r.scenario_id}: {r.tally.summary()}", file=sys.stderr),
            )  # fmt: skip
        finally:
            factory.close()
    Path(args.out).write_text(json.dumps(report.model_dump(mode="json"), indent=1, ensure_ascii=False))
    print_table(report)
    print(f"report: {args.out}")
    return 0
