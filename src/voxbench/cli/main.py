"""Entry point: `voxbench <command> ...`.

Sub-command modules are imported lazily, so `voxbench tools replay` works without the
live extras installed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# command name -> module exposing `add_parser(subparsers)`; the module sets `func`.
COMMANDS = {
    "tools": "voxbench.cli.tools",
    "scenarios": "voxbench.cli.scenarios",
    "call": "voxbench.cli.call",
    "report": "voxbench.cli.report",
    "view": "voxbench.cli.view",
    "run": "voxbench.cli.run",
    "eval": "voxbench.cli.eval",
    "experiment": "voxbench.cli.experiment",
    "agents": "voxbench.cli.agents",
    "talk": "voxbench.cli.talk",
    "judges": "voxbench.cli.judges",
    "caller": "voxbench.cli.caller",
    "selftest": "voxbench.cli.selftest",
    "compare": "voxbench.cli.compare",
    "export": "voxbench.cli.export",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="voxbench", description="End-to-end evaluation of voice agents.")
    sub = parser.add_subparsers(dest="command", required=True)
    for mod_name in COMMANDS.values():
        importlib.import_module(mod_name).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # `voxbench ... | head`: the reader left; not an error worth a traceback.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, FileNotFoundError) as exc:
        # User-facing input problems: one clear line, no traceback.
        print(f"voxbench: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: Exception) -> str:
    """A pydantic error (a run config field) as ``field: message; ...`` on one line."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return str(exc)
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
