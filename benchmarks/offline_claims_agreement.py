"""Agreement of the offline claim-checking judges with EVA's human labels.

    .venv/bin/python benchmarks/offline_claims_agreement.py [--dataset DIR] [--agent-config YAML]
        [--metrics faithfulness,transcription_accuracy_key_entities] [--show-items] [--json out.json]

Builds contexts exactly as `voxbench.eval.calibration_items.load_items` does (faithfulness items get
EVA's airline agent: role, policy, tools) and scores them with the *offline* methods
(`voxbench.eval.offline`), not the LLM judge. Prints per metric: n, accuracy, Cohen's kappa,
quadratic-weighted kappa, macro-F1 and the confusion matrix (rows human, columns offline);
for key entities, EVA's lenient entity-extraction F1 and the correctness agreement of matched
entities; and the mean / max time per conversation. The methods are rules, nothing is fitted
on the labels, so there is no cross-validation to report. Not a test.
Default paths: $VOXBENCH_EVA_DATA, else `../shared/eva-data` from the repository root.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from voxbench.eval.calibration_entities import match_entities
from voxbench.eval.calibration_items import AgentInfo, load_items
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.offline import load_all
from voxbench.scenarios.agent_spec import load_agent_spec

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = Path(os.environ.get("VOXBENCH_EVA_DATA") or ROOT / ".." / "shared" / "eva-data")
FILES = {
    "faithfulness": "faithfulness.jsonl",
    "transcription_accuracy_key_entities": "key_entity_transcription.jsonl",
}


def _agent(path: Path) -> AgentInfo | None:
    if not path.is_file():
        return None
    spec = load_agent_spec(path)
    return AgentInfo(role=spec.role, instructions=spec.instructions, tools=spec.openai_tools())


def score_rating(metric: str, path: Path, agent: AgentInfo | None, show: bool) -> dict[str, Any]:
    fn = load_all()[metric].fn
    _, items, _ = load_items(path, agent)
    pairs: list[tuple[int, int]] = []
    times: list[float] = []
    for it in items:
        t0 = time.perf_counter()
        res = fn(it.ctx)
        times.append(time.perf_counter() - t0)
        if res.ok and res.score is not None:
            pairs.append((int(it.human), round(res.score)))
            if show:
                mark = "  " if round(res.score) == it.human else "XX"
                ev = "; ".join(
                    f"t{e['turn']} {e['dimension'][:12]}={e['rating']}: {e['claim'][:90]}"
                    for e in res.details.get("evidence", [])
                )
                print(f"{mark} {it.item_id:>4} human={it.human} offline={round(res.score)} | {ev}")
    out = {"metric": metric, "agreement": agreement(pairs, [1, 2, 3], ordinal=True)}
    out["seconds_per_conversation"] = {"mean": round(sum(times) / len(times), 4), "max": round(max(times), 4)}
    # a binary view: any issue (1 or 2) vs none
    out["agreement_issue_vs_none"] = agreement([(h < 3, j < 3) for h, j in pairs], [True, False])
    return out


def score_entities(path: Path, show: bool) -> dict[str, Any]:
    metric = "transcription_accuracy_key_entities"
    fn = load_all()[metric].fn
    _, items, _ = load_items(path)
    counts = {"human": 0, "judge": 0, "matched": 0}
    ent_pairs: list[tuple[bool, bool]] = []
    times: list[float] = []
    for it in items:
        t0 = time.perf_counter()
        res = fn(it.ctx)
        times.append(time.perf_counter() - t0)
        judged = {int(k): v for k, v in ((res.details or {}).get("per_turn_entities") or {}).items()}
        for t, hum in it.human.items():
            jents = [e for e in judged.get(t, []) if not e.get("skipped")]
            counts["human"] += len(hum)
            counts["judge"] += len(jents)
            m = match_entities(hum, jents)
            counts["matched"] += len(m)
            for hi, ji in m:
                ent_pairs.append((bool(hum[hi].get("correct")), bool(jents[ji].get("correct"))))
            if show:
                hv = [(e.get("value"), e.get("correct")) for e in hum]
                jv = [(e.get("value"), e.get("correct")) for e in jents]
                print(f"{it.item_id}:{t} human={hv}\n      offline={jv}")
    h, j, m = counts["human"], counts["judge"], counts["matched"]
    prec, rec = (m / j if j else 0.0), (m / h if h else 0.0)
    return {
        "metric": metric,
        "entity_extraction": {**counts, "precision": round(prec, 4), "recall": round(rec, 4),
                              "f1_lenient": round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0},
        "correctness_agreement": agreement(ent_pairs, [True, False]),
        "seconds_per_conversation": {"mean": round(sum(times) / len(times), 4), "max": round(max(times), 4)},
    }  # fmt: skip


def _substitute(obj: Any, names: dict[str, str]) -> Any:
    text = json.dumps(obj, ensure_ascii=False)
    for k, v in names.items():
        text = text.replace(f"<{k.upper()}>", v).replace(f"<{k.upper()}_ROMANIZED>", v)
    text = re.sub(r"<LOC:([^>]*)>", r"\1", text)  # location aliases: the plain name
    return json.loads(text)


def reference_traces(data_root: Path) -> dict[str, Any]:
    """EVA's reference conversations (expected traces; no human labels): how often each
    offline method flags them. A proxy for false positives on well-behaved calls."""
    from voxbench.eval.calibration_items import context_of, trace_from_events

    out: dict[str, Any] = {}
    methods = load_all()
    for domain in ("airline", "itsm", "medical_hr"):
        path = data_root / "data" / f"{domain}_dataset.json"
        if not path.is_file():
            continue
        agent = _agent(data_root / "configs" / "agents" / f"{domain}_agent.yaml")
        flagged: dict[str, list[str]] = {"faithfulness": [], "user_behavioral_fidelity": []}
        n = 0
        for rec in json.loads(path.read_text(encoding="utf-8")):
            trace = ((rec.get("ground_truth") or {}).get("expected_trace") or {}).get("trace") or []
            if not trace:
                continue
            names = {
                k: str(v)
                for k, v in ((rec.get("culture_overrides") or {}).get("en") or {}).items()
                if isinstance(v, str)
            }
            trace = _substitute(trace, names)
            ctx = context_of(str(rec["id"]), trace_from_events(trace), agent, rec.get("current_date_time"))
            ctx.user_goal = _substitute(rec.get("user_goal") or {}, names)
            n += 1
            for m in flagged:
                res = methods[m].fn(ctx)
                if res.ok and (res.value or 0.0) < 1.0:
                    flagged[m].append(
                        f"{rec['id']}: "
                        + "; ".join(e["claim"][:80] for e in res.details.get("evidence", [])[:3])
                    )
        out[domain] = {
            "n": n,
            **{f"{m}_flagged": len(v) for m, v in flagged.items()},
            "examples": {m: v[:8] for m, v in flagged.items()},
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default=str(DEFAULT_DATA / "docs/metrics/judge_validation_datasets"))
    ap.add_argument("--agent-config", default=str(DEFAULT_DATA / "configs/agents/airline_agent.yaml"))
    ap.add_argument("--metrics", default=",".join(FILES))
    ap.add_argument("--show-items", action="store_true")
    ap.add_argument("--data-root", default=str(DEFAULT_DATA), help="EVA checkout for --reference")
    ap.add_argument("--reference", action="store_true", help="also run on EVA's reference traces")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    ds = Path(a.dataset)
    if not ds.is_dir():
        print(f"dataset not found: {ds} (skipped)")
        return 0
    agent = _agent(Path(a.agent_config))
    results = {}
    for metric in a.metrics.split(","):
        path = ds / FILES[metric]
        if metric == "transcription_accuracy_key_entities":
            results[metric] = score_entities(path, a.show_items)
        else:
            results[metric] = score_rating(metric, path, agent, a.show_items)
    if a.reference:
        results["reference_traces"] = reference_traces(Path(a.data_root))
    for metric, r in results.items():
        print(f"\n== {metric}")
        for k, v in r.items():
            if k != "metric":
                print(f"  {k}: {json.dumps(v)}")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
