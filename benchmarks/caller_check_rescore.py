"""Re-score a caller's recorded replies (a ``voxbench caller check`` report) with the current bench.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_check_rescore.py OLD_REPORT.json \
        [--data ../shared/eva-data] [--out rescored.json]

``caller check`` gives a caller each scenario's reference agent turns in order, whatever it
replied, so its replies are a function of the agent turns alone. A report keeps every reply;
replaying them through :func:`voxbench.bench.caller_check.check_all` scores an old
caller on today's bench. That separates what a change to the bench did from what a change to
the caller did (docs/simulators.md, round 3: the caller of the start of the round, re-scored,
went from 89.8 to 86.4 % requests: the bench did not get easier). ``ms/turn`` is meaningless
here (nothing is decided) and is not printed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from voxbench.bench.caller_check import Reply, ScenarioResult, by_domain, check_all, resolved_scenarios


class ReplayCaller:
    """Says the recorded replies of one scenario, turn by turn (checks the agent turns match)."""

    def __init__(self, rows: list[dict[str, object]], where: str) -> None:
        self.rows = rows
        self.where = where
        self.i = 0

    def open(self) -> Reply:
        return Reply(text="")

    def respond(self, agent_text: str) -> Reply:
        if self.i >= len(self.rows) or self.rows[self.i]["agent"] != agent_text:
            raise ValueError(f"{self.where}: turn {self.i + 1} is not the recorded agent turn")
        row = self.rows[self.i]
        self.i += 1
        return Reply(text=str(row["reply"]), ends_call=bool(row["ends_call"]))


def _results(report: dict[str, object]) -> list[ScenarioResult]:
    """A report's in-sample results (today's report keeps them per split; older ones as a list)."""
    raw = report["scenarios"]
    rows = raw["in_sample"] if isinstance(raw, dict) else raw
    return [ScenarioResult.model_validate(r) for r in rows]  # type: ignore[union-attr]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("--data", default="../shared/eva-data")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    old = json.loads(args.report.read_text())
    rows = {(s.domain, s.scenario_id): [r.model_dump() for r in s.rows] for s in _results(old)}
    scenarios = [(d, sc) for d, sc in resolved_scenarios(args.data) if (d, sc.id) in rows]
    res = check_all(scenarios, lambda d, sc: ReplayCaller(rows[(d, sc.id)], f"{args.report}:{d}/{sc.id}"))
    for dom, t in by_domain(res).items():
        print(
            f"{dom:11s} requests {t.requests_right}/{t.requests}  decisions "
            f"{t.decisions_matched}/{t.decisions}  premature {t.premature_endings}  "
            f"missed {t.missed_endings}  invented {t.invented if dom == 'overall' else ''}"
        )
    if args.out:
        args.out.write_text(json.dumps([r.model_dump(mode="json") for r in res], indent=1))


if __name__ == "__main__":
    main()
