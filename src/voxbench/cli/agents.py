"""`voxbench agents list|check`: agent profiles, what each needs, and whether it's here.

Profiles come from the built-ins plus YAML files (``--profiles FILE`` or ``$VOXBENCH_AGENTS``).
Nothing here imports pipecat or a vendor SDK: presence of an extra is checked with
``importlib.util.find_spec``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("agents", help="list agent profiles and what they need (extras, API keys)")
    asub = p.add_subparsers(dest="agents_command", required=True)
    ls = asub.add_parser("list", help="every profile, its extras and keys, and whether they are present")
    ls.add_argument("--profiles", action="append", default=[], help="YAML file of profiles (repeatable)")
    ls.add_argument("--json", action="store_true", help="machine-readable output")
    ls.set_defaults(func=list_cmd)
    ck = asub.add_parser("check", help="exit 0 if PROFILE can run here, else say what is missing")
    ck.add_argument("profile")
    ck.add_argument("--profiles", action="append", default=[], help="YAML file of profiles (repeatable)")
    ck.set_defaults(func=check_cmd)


def _rows(args: argparse.Namespace) -> list[dict[str, Any]]:
    from voxbench.pipelines.agent.profiles import load_profiles

    rows = []
    for name, prof in sorted(load_profiles(args.profiles).items()):
        reqs = prof.requirements()
        extras: dict[str, bool] = {}
        for r in reqs:
            if r.kind == "extra":
                extras[r.name] = extras.get(r.name, True) and r.present
        keys = {r.name: r.present for r in reqs if r.kind == "env"}
        rows.append(
            {
                "name": name,
                "architecture": prof.architecture,
                "description": prof.description,
                "extras": extras,
                "keys": keys,
                "ready": all(r.present for r in reqs),
            }
        )
    return rows


def _marks(d: dict[str, bool]) -> str:
    return " ".join(f"{k}{'✓' if ok else '✗'}" for k, ok in d.items()) or "-"


def list_cmd(args: argparse.Namespace) -> int:
    rows = _rows(args)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    print(f"{'profile':<{width}}  {'arch':<8}  {'ready':<5}  {'extras':<18}  keys")
    for r in rows:
        print(
            f"{r['name']:<{width}}  {r['architecture']:<8}  {'yes' if r['ready'] else 'no':<5}  "
            f"{_marks(r['extras']):<18}  {_marks(r['keys'])}"
        )
        if r["description"]:
            print(f"{'':<{width}}  {r['description']}")
    print(
        '\nextras: pip install "voxbench[<extra>]"; keys: export the variable. '
        "`voxbench agents check <profile>` explains one."
    )
    return 0


def check_cmd(args: argparse.Namespace) -> int:
    from voxbench.pipelines.agent.profiles import get_profile, preflight

    preflight(get_profile(args.profile, args.profiles))  # ValueError -> one line, exit 2 (cli.main)
    print(f"{args.profile}: ready")
    return 0
