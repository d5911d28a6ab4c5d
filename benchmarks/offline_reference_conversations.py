"""The offline faithfulness and progression methods on EVA's reference conversations: a check
that needs no labels.

Each EVA record's `ground_truth.expected_trace` is a conversation a correct agent had (a
reference solution), so a finding on one is a candidate false alarm (some references are
incomplete themselves: a code the caller never says, an OTP read off-screen). Used to develop
the rules without reading the test half of the labels (docs/judges.md). Prints, per domain, how
many references each method rates 3 / 2 / 1 and which rules fired; `-v` lists every finding.

Measured (issue 30, 2026-12-07), references rated 3 (airline / ITSM / medical HR): faithfulness
`claims-rules` 0.6 31/40, 55/64, 65/66 (a flaw of the reference each: a value no caller turn
says, the ITSM OTPs among them; a write without the go-ahead; a fee told waived and charged; a
fee named before its amount was known, which people's labels flag too: exempting it lost 3 dev
conversations);
progression `stall-count-ordinal` 3 40/40, 43/64, 44/66 -> 5 40/40, 54/64, 51/66.

    PYTHONPATH=src .venv/bin/python benchmarks/offline_reference_conversations.py [--eva DIR] [-v]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from voxbench.cli.judges import agent_info
from voxbench.eval.calibration_items import context_of, trace_from_events
from voxbench.eval.offline.faithfulness import faithfulness_offline
from voxbench.eval.offline.progression import progression_offline

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = ("airline", "itsm", "medical_hr")


def resolved_trace(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference trace with the English culture placeholders filled in, after a greeting."""
    raw = json.dumps(record["ground_truth"]["expected_trace"]["trace"])
    c = (record.get("culture_overrides") or {}).get("en") or {}
    rc = (record.get("romanized_culture_overrides") or {}).get("en") or {}
    for key, value in (
        ("<FIRST_NAME_ROMANIZED>", str(rc.get("first_name", "")).lower()),
        ("<LAST_NAME_ROMANIZED>", str(rc.get("last_name", "")).lower()),
        ("<FIRST_NAME>", str(c.get("first_name", ""))),
        ("<LAST_NAME>", str(c.get("last_name", ""))),
        ("<PHONE>", str(c.get("phone", ""))),
    ):
        raw = raw.replace(key, value)
    raw = re.sub(r"<LOC:([^>]*)>", r"\1", raw)
    greeting = {"event_type": "agent_utterance", "utterance": "Hello, how can I help you today?"}
    return [greeting, *json.loads(raw)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eva", type=Path, default=ROOT.parent / "shared" / "eva-data")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    for domain in DOMAINS:
        agent = agent_info(args.eva / "configs" / "agents" / f"{domain}_agent.yaml")
        records = json.loads((args.eva / "data" / f"{domain}_dataset.json").read_text(encoding="utf-8"))
        ratings: dict[str, Counter[int]] = {"faithfulness": Counter(), "progression": Counter()}
        rules: Counter[str] = Counter()
        for r in records:
            ctx = context_of(
                str(r["id"]), trace_from_events(resolved_trace(r)), agent, r.get("current_date_time")
            )
            for name, res in (
                ("faithfulness", faithfulness_offline(ctx)),
                ("progression", progression_offline(ctx)),
            ):
                ratings[name][round(res.score or 0)] += 1
                for e in (res.details or {}).get("evidence", [])[: -1 if name == "progression" else None]:
                    rules[f"{name}: {e['rule'][:70]}"] += 1
                    if args.verbose:
                        print(f"  {domain} {r['id']} {name}: {e['rule'][:60]} | {str(e['claim'])[:100]}")
        rated = "; ".join(f"{k} 3/2/1 = {v[3]}/{v[2]}/{v[1]}" for k, v in ratings.items())
        print(f"{domain}: {len(records)} reference conversations; {rated}")
        for rule, n in rules.most_common(8):
            print(f"    {n:3} {rule}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
