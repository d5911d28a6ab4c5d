"""``--junit FILE`` and ``--junit-threshold KEY=VALUE``, shared by `voxbench run` and `voxbench report`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def threshold_pair(text: str) -> tuple[str, float]:
    """``KEY=VALUE`` as ``--fail-under`` reads it (a number after the ``=``)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: value must be a number") from None


def add_junit_args(p: Any) -> None:
    p.add_argument(
        "--junit",
        metavar="FILE",
        help="write JUnit XML: a test case per conversation, failing below --junit-threshold",
    )
    p.add_argument(
        "--junit-threshold",
        type=threshold_pair,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a conversation fails if its KEY < VALUE (any metric or composite of its metrics.json; "
        "repeatable; default EVA-A_pass=1)",
    )


def write_junit_from_args(args: argparse.Namespace, run_dirs: Sequence[str | Path]) -> None:
    """Write the file if ``--junit`` was given, and say where and how many failed."""
    if not getattr(args, "junit", None):
        return
    from voxbench.orchestrator.junit import write_junit

    counts = write_junit(run_dirs, args.junit, dict(args.junit_threshold))
    print(
        f"junit: {args.junit} ({counts.tests} conversations, {counts.failures} failed, {counts.errors} errors)",
        file=sys.stderr,
    )
