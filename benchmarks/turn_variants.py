"""The harness of the benches that give the goal caller each reference agent turn in another form
and count the replies that change (``caller_asr_forms.py``: as a recogniser writes it;
``caller_paraphrase.py``: worded another way; ``caller_invariance.py``: rewritten in meaning-
preserving classes).

Each bench supplies ``run_scenario(domain, scenario, variant names, rows) -> counts per variant``,
built on :func:`forked_replies` (the caller's reply to each turn as written and to its variants);
this module runs it over EVA's scenarios, sums the counts per half of the fixed split
(``caller_check_halves.half``) and variant, prints the table, the changed rows of DEV scenarios
only (``--rows``: never a test scenario's), and writes the figures (``--out``, atomically).
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.reference import reference_turns
from voxbench.records.io import atomic_write_json

Counts = dict[str, dict[str, int]]
Totals = dict[tuple[str, str], dict[str, int]]
RunScenario = Callable[[str, Any, list[str], list[dict[str, Any]]], Counts]
Variants = Callable[[int, str, str], dict[str, str]]
"""(turn index, agent turn, reference reply) -> {variant name: the turn in that form}."""


class Fork(NamedTuple):
    """One reference agent turn: the caller's reply to it as written, and to each variant."""

    turn: int
    agent: str
    ref: str
    written: Any
    heard: dict[str, tuple[str, Any]]
    """{variant name: (the variant, the reply of a copy of the caller in the same state)}."""


def forked_replies(domain: str, sc: Any, variants: Variants) -> Iterator[Fork]:
    """The goal caller through a scenario's reference agent turns; at each, copies of it in the
    state the written turns left it hear the variants (so a changed reply is the variant's doing)."""
    caller = GoalRules().make(domain, sc).caller  # type: ignore[attr-defined]
    opening, turns = reference_turns(sc)
    if opening is not None:
        caller.open()
    for i, (agent, ref) in enumerate(turns):
        forks = variants(i, agent, ref)
        copies = {c: copy.deepcopy(caller) for c in forks}
        written = caller.respond(agent)
        yield Fork(i + 1, agent, ref, written, {c: (v, copies[c].respond(v)) for c, v in forks.items()})


def parser(description: str, variant: str, dest: str) -> argparse.ArgumentParser:
    """The benches' shared options; ``--<variant>`` (repeatable) picks variants into ``dest``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--data", required=True)
    ap.add_argument("--domain", action="append")
    ap.add_argument("--limit", type=int, default=None, help="first N scenarios of each domain")
    ap.add_argument(f"--{variant}", dest=dest, action="append", help=f"only these {variant}s (repeatable)")
    ap.add_argument("--rows", action="store_true", help="print the changed rows of DEV scenarios")
    ap.add_argument("--half", choices=("dev", "test", "both"), default="both", help="which half to run")
    ap.add_argument("--out", default=None, help="write the per-half figures (and dev rows) as JSON")
    return ap


def run(
    args: argparse.Namespace, names: list[str], run_scenario: RunScenario
) -> tuple[Totals, list[dict[str, Any]]]:
    """Counts summed per (half, variant) over the scenarios ``args`` selects, and the dev rows."""
    totals: Totals = defaultdict(lambda: defaultdict(int))
    dev_rows: list[dict[str, Any]] = []
    seen: dict[str, int] = defaultdict(int)
    for domain, sc in resolved_scenarios(args.data, args.domain):
        seen[domain] += 1
        h = half(domain, sc.id)
        if (args.limit and seen[domain] > args.limit) or args.half not in ("both", h):
            continue
        rows: list[dict[str, Any]] = []
        for name, counts in run_scenario(domain, sc, names, rows).items():
            for k, n in counts.items():
                totals[(h, name)][k] += n
        if h == "dev":
            dev_rows += rows
    return totals, dev_rows


def report(
    args: argparse.Namespace, totals: Totals, dev_rows: list[dict[str, Any]], names: list[str],
    cols: tuple[str, ...], label: str,
) -> None:  # fmt: skip
    """The table (a row per variant and half run), then ``--rows`` and ``--out``."""
    width = max(len(c) for c in cols) + 2
    first = max(len(label), *(len(n) for n in names)) + 2
    print(f"{label:<{first}} {'half':<5} " + " ".join(f"{c:>{width}}" for c in cols))
    for name in names:
        for h in ("dev", "test"):
            if args.half in ("both", h):
                c = totals.get((h, name), {})
                print(f"{name:<{first}} {h:<5} " + " ".join(f"{c.get(k, 0):>{width}}" for k in cols))
    if args.rows:
        for row in dev_rows:
            print(json.dumps(row, ensure_ascii=False))
    if args.out:
        figures = {f"{h}/{n}": dict(c) for (h, n), c in totals.items()}
        atomic_write_json(args.out, {"figures": figures, "dev_rows": dev_rows})
