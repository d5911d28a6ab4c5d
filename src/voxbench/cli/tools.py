"""`voxbench tools ...`: inspect and check the deterministic tool executor."""

from __future__ import annotations

import argparse
import json
from typing import Any

from voxbench.scenarios.loader import load_dataset
from voxbench.scenarios.replay import replay_dataset


def add_parser(sub: Any) -> None:
    p = sub.add_parser("tools", help="tool executor utilities")
    tsub = p.add_subparsers(dest="tools_command", required=True)
    r = tsub.add_parser("replay", help="replay every scenario's reference tool calls and check conformance")
    r.add_argument("--data", required=True, help="EVA-format dataset folder (holds data/ and configs/)")
    r.add_argument("--domain", action="append", help="only this domain (repeatable)")
    r.add_argument("--lang", default="en", help="culture used to resolve placeholders (default en)")
    r.add_argument("--json", action="store_true", help="print the full result as JSON")
    r.add_argument(
        "--all-failures", action="store_true", help="list every failing scenario, not the first 10"
    )
    r.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    ds = load_dataset(args.data, args.domain)
    results = replay_dataset(ds, args.lang)
    if args.json:
        print(json.dumps([r.model_dump() for r in results], indent=2, ensure_ascii=False))
    else:
        print(
            f"{'domain':<12} {'scenarios':>9} {'calls':>6} {'identical':>10} {'differing':>10} "
            f"{'responses ok':>13} {'final hash ok':>14} {'stale traces':>13}"
        )
        for r in results:
            print(
                f"{r.domain:<12} {r.scenarios:>9} {r.tool_calls:>6} {r.responses_identical:>10} "
                f"{r.responses_differing:>10} {_pct(r.responses_ok, r.scenarios):>13} "
                f"{_pct(r.hash_ok, r.scenarios):>14} {r.stale_traces:>13}"
            )
        for r in results:
            real = [f for f in r.failures if not (f.stale_trace and f.hash_match)]
            shown = real if args.all_failures else real[:10]
            for f in shown:
                print(f"  FAIL {f.domain}/{f.scenario_id}: {f.first_difference}")
                if f.trace_evidence:
                    # The database contradictions first: they bear on the difference.
                    ev = sorted(f.trace_evidence, key=lambda e: "names as stored" in e)
                    print(f"    evidence elsewhere in this trace: {'; '.join(ev[:2])}")
            if len(real) > len(shown):
                print(f"  ... {len(real) - len(shown)} more {r.domain} failures (--all-failures)")
            stale = [f for f in r.failures if f.stale_trace and f.hash_match]
            for f in stale if args.all_failures else stale[:5]:
                print(f"  STALE TRACE {f.domain}/{f.scenario_id}: {'; '.join(f.trace_evidence[:2])}")
            if not args.all_failures and len(stale) > 5:
                print(f"  ... {len(stale) - 5} more {r.domain} stale traces (--all-failures)")
    # Done when every hash matches and every response matches or is explained by a stale trace.
    ok = all(r.responses_ok + r.stale_traces == r.scenarios and r.hash_ok == r.scenarios for r in results)
    return 0 if ok else 1


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "0/0"
