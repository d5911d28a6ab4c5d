"""`voxbench scenarios list | show ID | validate DIR | new --domain D --out DIR`.

Logic lives in `voxbench.scenarios` (catalog, validate, scaffold); this module parses
flags and prints. Data defaults to voxbench's built-in scenarios; `--data DIR` reads any
EVA-format folder (EVA's public dataset included).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("scenarios", help="list, show, validate and scaffold scenarios")
    ssub = p.add_subparsers(dest="scenarios_command", required=True)

    ls = ssub.add_parser("list", help="one line per scenario")
    ls.add_argument("--data", help="EVA-format folder, or 'toy' (default: built-in scenarios)")
    ls.add_argument("--domain", action="append", help="only this domain (repeatable)")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(func=run_list)

    sh = ssub.add_parser("show", help="goal, decision tree, facts, reference conversation, expected change")
    sh.add_argument("scenario", help="ID or domain/ID")
    sh.add_argument("--data", help="EVA-format folder, or 'toy' (default: built-in scenarios)")
    sh.add_argument("--json", action="store_true", help="print JSON")
    sh.set_defaults(func=run_show)

    va = ssub.add_parser("validate", help="check a folder; every problem located (file, record, field)")
    va.add_argument("dir", help="EVA-format folder (holds data/ and configs/)")
    va.add_argument("--replay", action="store_true", help="also replay the reference tool calls")
    va.add_argument("--strict", action="store_true", help="warnings fail too")
    va.add_argument("--json", action="store_true", help="print JSON")
    va.set_defaults(func=run_validate)

    nw = ssub.add_parser("new", help="scaffold a scenario (goal, facts, starting and expected database)")
    nw.add_argument("--domain", required=True, help="airline, itsm, medical_hr or toy")
    nw.add_argument("--out", required=True, help="EVA-format folder to add the scenario to (created)")
    nw.add_argument("--id", help="scenario id (default new.N)")
    nw.add_argument("--template", help="template scenario id for the starting database")
    nw.add_argument("--template-data", help="folder of the template (default: built-in or toy data)")
    nw.set_defaults(func=run_new)


def _dataset(data: str | None, domains: list[str] | None = None) -> Any:
    """`--data DIR`; `toy` names the toy domain's folder; nothing = the built-in scenarios."""
    from voxbench.scenarios.loader import load_dataset, toy_dataset_dir

    return load_dataset(toy_dataset_dir() if data == "toy" else data, domains)


def run_list(args: argparse.Namespace) -> int:
    from voxbench.scenarios.catalog import list_scenarios

    rows = list_scenarios(_dataset(args.data, args.domain))
    if args.json:
        print(json.dumps([r.model_dump() for r in rows], indent=2, ensure_ascii=False))
        return 0
    print(f"{'domain':<11} {'id':<8} {'calls':>5} {'writes':>6}  goal")
    for r in rows:
        goal = r.goal if len(r.goal) <= 90 else r.goal[:87] + "..."
        print(f"{r.domain:<11} {r.id:<8} {r.tool_calls:>5} {r.writes:>6}  {goal}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from voxbench.scenarios.catalog import find_scenario, scenario_detail

    dd, sid = find_scenario(_dataset(args.data), args.scenario)
    d = scenario_detail(dd, sid)
    if args.json:
        print(json.dumps(d.model_dump(), indent=2, ensure_ascii=False))
        return 0
    wrap = lambda s, ind="  ": textwrap.fill(s, 100, initial_indent=ind, subsequent_indent=ind + "  ")  # noqa: E731
    print(f"{d.domain}/{d.id}  ({d.current_date_time})")
    print(wrap(d.goal, ""))
    print("must have:")
    for x in d.must_have:
        print(wrap("- " + x))
    print("caller behaviour:")
    for x in d.negotiation:
        print(wrap("- " + x))
    print(wrap("done when: " + d.resolution, ""))
    print("facts the caller gives when asked:")
    for k, v in d.facts.items():
        print(f"  {k}: {v}")
    print(wrap("persona: " + d.persona, ""))
    print(f"reference conversation ({d.tool_calls} tool calls):")
    for line in d.trace:
        print(wrap(line))
    print("expected database change (starting -> expected):")
    for line in d.expected_change.splitlines():
        print("  " + line)
    return 0


def run_validate(args: argparse.Namespace) -> int:
    from voxbench.scenarios.validate import validate_dir

    report = validate_dir(args.dir)
    replay: list[Any] = []
    if args.replay and not report.errors:
        from voxbench.scenarios.replay import replay_dataset

        replay = replay_dataset(_dataset(args.dir))
    if args.json:
        out = report.model_dump()
        out["replay"] = [r.model_dump() for r in replay]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for issue in report.issues:
            print(issue)
        for r in replay:
            for f in r.failures:
                print(f"error: replay {f.domain}/{f.scenario_id}: {f.first_difference}")
        counts = ", ".join(f"{d} {n}" for d, n in report.domains.items()) or "no domains"
        print(f"{args.dir}: {counts}; {len(report.errors)} error(s), {len(report.warnings)} warning(s)")
    failed = bool(report.errors) or any(r.failures for r in replay) or (args.strict and bool(report.warnings))
    return 1 if failed else 0


def run_new(args: argparse.Namespace) -> int:
    from voxbench.scenarios.scaffold import scaffold_scenario

    s = scaffold_scenario(args.domain, args.out, args.id, args.template, args.template_data)
    print(f"scenario {s.domain}/{s.scenario_id} (starting database from {s.template})")
    print(f"  record:            {s.dataset_file}")
    print(f"  starting database: {s.starting_db_file}")
    print(f"  tools and policy:  {s.agent_file}")
    print("next:")
    print("  1. write the goal, decision tree and facts (every TODO in the record)")
    print("  2. edit ground_truth.expected_scenario_db to the state the goal leads to")
    print('  3. write the reference conversation: user/agent utterances and {"event_type": "tool_call",')
    print('     "tool_name": ..., "params": {...}} events (the tools are in the agent YAML)')
    print(f"  4. voxbench scenarios validate {args.out}")
    print(f"  5. voxbench tools replay --data {args.out}   (the calls must reach the expected database)")
    return 0
