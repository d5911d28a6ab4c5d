"""`voxbench report RUN_DIR [RUN_DIR ...] --out DIR`: the static HTML report and summaries."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from voxbench.cli._junit import add_junit_args, write_junit_from_args


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="write a static HTML report (leaderboard, plots, conversation viewer) for one or more runs",
    )
    p.add_argument("runs", nargs="+", help="run folders (each holds records/<conversation>/)")
    p.add_argument("--out", default="report", help="output folder (default ./report)")
    p.add_argument(
        "--link-audio",
        action="store_true",
        help="symlink the wav files instead of copying them (smaller, not portable; `voxbench view` does not serve them)",
    )
    p.add_argument(
        "--markdown", action="store_true", help="print the Markdown summary instead of the terminal one"
    )
    add_junit_args(p)
    p.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    from voxbench.reports import build_report

    rep = build_report(args.runs, args.out, copy_audio=not args.link_audio)
    print(rep.markdown if args.markdown else rep.terminal)
    write_junit_from_args(args, args.runs)
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        with open(step, "a", encoding="utf-8") as f:
            f.write(rep.markdown)
    index = Path(rep.out, "index.html").resolve()
    print(f"\nreport: {index}\n  open it in a browser, or serve it: voxbench view {rep.out}")
    return 0
