"""`voxbench caller check`: a simulated caller against each scenario's reference conversation, as text.

Gives the reference agent turns to the caller in order and grades its replies against what the
reference caller disclosed and decided, with the bench's own matcher (``voxbench/bench``); prints
per domain the in-sample, k-fold-by-scenario and leave-one-domain-out figures side by side, a
progress line per domain and fold while it runs, and writes the full report (every turn) as JSON.
An "in-goal ref." line per domain gives the in-sample figures on the turns where the reference
caller kept its goal (the validation gate's validators run on it, ``bench/ref_goal.py``) and
the reference turns left out by kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import CallerKind, GoalLearned, GoalRules
from voxbench.bench.cv import IN_GOAL, SPLITS, CheckReport, grade

COLUMNS = (
    ("scenarios", "scenarios"),
    ("requests_answered_right_pct", "requests ok %"),
    ("facts_withheld_pct", "withheld %"),
    ("facts_withheld_asked_pct", "w/h asked %"),
    ("facts_volunteered_not_given", "vol. not given"),
    ("facts_volunteered_said_before", "said before"),
    ("facts_over_volunteered", "over-vol."),
    ("over_volunteered_per_turn", "o-v/turn"),
    ("invented_facts", "invented"),
    ("decisions_matched_pct", "decisions %"),
    ("premature_endings", "premature"),
    ("missed_endings", "missed end"),
    ("ms_per_turn", "ms/turn"),
)
SPLIT_LABEL = {"in_sample": "in-sample", "kfold": "k-fold", "lodo": "LODO", "in_goal": "in-goal ref."}
SIMULATORS = ("goal", "goal+learned", "llm")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("caller", help="simulated-caller tools")
    csub = p.add_subparsers(dest="caller_command", required=True)
    c = csub.add_parser(
        "check", help="text-only bench of a caller over the scenarios' reference conversations"
    )
    c.add_argument("--data", required=True, help="EVA-format dataset folder (holds data/ and configs/)")
    c.add_argument("--domain", action="append", help="only this domain (repeatable)")
    c.add_argument("--simulator", choices=SIMULATORS, default="goal",
                   help="goal: rules only; goal+learned: with the fact model fitted on the training folds; llm")  # fmt: skip
    c.add_argument("--limit", type=int, default=None, help="only the first N scenarios of each domain")
    c.add_argument("--seed", type=int, default=0, help="goal caller phrasing seed")
    c.add_argument("--folds", type=int, default=5, help="k of the k-fold by scenario")
    c.add_argument("--fold-seed", type=int, default=0, help="seed of the k-fold split")
    c.add_argument("--classifier", choices=["rules", "llm"], default="rules",
                   help="goal: 'llm' adds the embedded LLM as a grammar-constrained chooser when the rules are unsure")  # fmt: skip
    c.add_argument("--classifier-model", default="qwen-1.5b", help="goal --classifier llm: local model key")
    c.add_argument(
        "--llm-base-url",
        default=None,
        help="llm: an OpenAI-compatible endpoint (default: the embedded model)",
    )
    c.add_argument(
        "--llm-model", default="qwen2.5-coder-1.5b", help="llm: the model name (or local model key)"
    )
    c.add_argument(
        "--llm-api-key-env", default="OPENAI_API_KEY", help="llm: environment variable holding the key"
    )
    c.add_argument("--threads", type=int, default=None, help="embedded models: generation threads")
    c.add_argument("--weak-turns", action="store_true",
                   help="grade the caller on weak-agent turns generated from each scenario's facts "
                   "(bench/weak_turns.py) instead of the reference turns; prints agreement per class and half")  # fmt: skip
    c.add_argument("--no-ref-goal", action="store_true",
                   help="do not read where the reference caller broke its goal (no in-goal figures)")  # fmt: skip
    c.add_argument("--out", default="caller_check.json", help="where to write the report")
    c.set_defaults(func=run_caller_check)


def _cells(s: dict[str, Any]) -> list[str]:
    return [f"{'-' if (v := s.get(key)) is None else v:>{len(label)}}" for key, label in COLUMNS]


def print_table(report: CheckReport) -> None:
    """Per domain (then overall), one line per split: in-sample, k-fold, leave-one-domain-out."""
    print(f"caller check: simulator={report.simulator} data={report.data} k={report.k} fold-seed={report.seed}"
          + (f" limit={report.limit}" if report.limit else ""))  # fmt: skip
    print(" ".join([f"{'domain':<12}", f"{'figures':<12}", *(label for _, label in COLUMNS)]))
    domains = list(report.figures.get("in_sample", {}))
    for d in domains:
        for i, split in enumerate((*SPLITS, IN_GOAL)):
            s = report.figures.get(split, {}).get(d)
            if s is not None:
                print(" ".join([f"{d if i == 0 else '':<12}", f"{SPLIT_LABEL[split]:<12}", *_cells(s)]))
        if IN_GOAL in report.figures:
            print(f"{'':<12} {'':<12} {_left_out(report, d)}")
    errors = [r for r in report.scenarios.get("in_sample", []) if r.error]
    for r in errors[:5]:
        print(f"  ERROR {r.domain}/{r.scenario_id}: {r.error}", file=sys.stderr)
    if report.note:
        print(f"note: {report.note}")


def _left_out(report: CheckReport, domain: str) -> str:
    """What the in-goal line leaves out: reference turns by kind, scenarios, endings."""
    s = report.figures[IN_GOAL][domain]
    kinds = (
        ", ".join(f"{k} {n}" for k, n in sorted(report.reference_breaks.get(domain, {}).items())) or "none"
    )
    return (f"left out: {s.get('reference_turns_out', 0)} reference turns ({kinds}) in "
            f"{s.get('reference_scenarios_out', 0)} scenarios, {s.get('reference_endings_out', 0)} endings")  # fmt: skip


def _kind(args: argparse.Namespace) -> tuple[CallerKind, Any]:
    """The caller kind to grade, and what to close after (a model server), if anything."""
    if args.simulator == "llm":
        from voxbench.bench.llm_caller import LLMCaller

        llm = LLMCaller(args.llm_base_url, args.llm_model, args.llm_api_key_env, args.threads)
        return llm, llm
    if args.simulator == "goal+learned":
        return GoalLearned(seed=args.seed), None
    if args.classifier == "llm":
        from voxbench.localmodels import LlamaServer, default_judge_llm
        from voxbench.pipelines.caller.goal.classifier_llm import LLMChoiceClassifier, LocalChoiceLLM

        server = LlamaServer(
            default_judge_llm(args.classifier_model), n_threads=args.threads, n_ctx=4096
        ).start()
        hook = LLMChoiceClassifier(LocalChoiceLLM(server.base_url, server.model), name=args.classifier_model)
        return GoalRules(seed=args.seed, hook=hook, name="goal+llm-classifier"), server
    return GoalRules(seed=args.seed), None


def _write(path: str, data: Any) -> None:
    out = Path(path)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    tmp.replace(out)


def run_weak_turns(kind: CallerKind, scenarios: list[Any], args: argparse.Namespace) -> None:
    """The weak-agent bench: agreement per class, on the dev and the test half."""
    from voxbench.bench.weak_check import per_class, run_all

    if args.limit:  # the first N of each domain
        scenarios = [
            (d, s)
            for i, (d, s) in enumerate(scenarios)
            if [x for x, _ in scenarios[:i]].count(d) < args.limit
        ]
    if kind.fits:  # nothing held out: the weak turns are not the reference conversations it is fitted on
        kind.fit(scenarios)
    rows = run_all(scenarios, kind.make)
    figures = per_class(rows)
    _write(args.out, {"simulator": kind.name, "data": str(args.data), "figures": figures,
                      "rows": [r.model_dump(mode="json") for r in rows]})  # fmt: skip
    print(f"caller check --weak-turns: simulator={kind.name} data={args.data}")
    print(f"{'class':<22} {'dev':>16} {'test':>16} {'all':>16}")
    for cls, by_half in figures.items():
        cells = [f"{v['pct']:5.1f} % ({v['agree']}/{v['items']})" if (v := by_half.get(h)) else "-"
                 for h in ("dev", "test", "all")]  # fmt: skip
        print(f"{cls:<22} " + " ".join(f"{c:>16}" for c in cells))


def run_caller_check(args: argparse.Namespace) -> int:
    scenarios = resolved_scenarios(args.data, args.domain)
    kind, closer = _kind(args)
    if getattr(args, "weak_turns", False):  # a Namespace built by hand may not have it
        try:
            run_weak_turns(kind, scenarios, args)
        finally:
            if closer is not None:
                (closer.close if hasattr(closer, "close") else closer.stop)()
        print(f"report: {args.out}")
        return 0
    breaks = None
    if not getattr(args, "no_ref_goal", False):
        from voxbench.bench.ref_goal import ReferenceGoal

        breaks = ReferenceGoal.load(str(args.data), args.domain)
    try:
        report = grade(kind, scenarios, str(args.data), k=args.folds, seed=args.fold_seed, limit=args.limit,
                       breaks=breaks)  # fmt: skip
    finally:
        if closer is not None:
            (closer.close if hasattr(closer, "close") else closer.stop)()
    _write(args.out, report.model_dump(mode="json"))
    print_table(report)
    print(f"report: {args.out}")
    return 0
