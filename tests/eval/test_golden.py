"""Golden metric output for one small hand-built record (every metric, fake judge).

Regenerate on purpose, then review the diff:

    VOXBENCH_REGEN_GOLDEN=1 .venv/bin/pytest tests/eval/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.eval.builders import small_conversation
from tests.eval.fake_judge import FakeJudge
from tests.eval.test_metrics import FAITH_REPLY
from voxbench.eval.from_record import load_context
from voxbench.eval.runner import score_context
from voxbench.eval.types import REGISTRY, EvalConfig

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "eval_small_record.json"

JUDGE = FakeJudge(
    {
        "faithfulness": FAITH_REPLY,
        "moved the conversation": json.dumps(
            {"dimensions": {"information_loss": {"evidence": "", "flagged": False, "rating": 3}}}
        ),
        "easy a voice agent": json.dumps(
            [{"turn_id": t, "rating": 3, "failure_modes": []} for t in range(4)]
        ),
        "reads naturally aloud": json.dumps([{"turn_id": t, "rating": 1} for t in range(4)]),
        "Expected": json.dumps(
            [
                {"turn_id": 1, "entities": [{"type": "code", "value": "ZK3FFW", "correct": True}]},
                {"turn_id": 2, "entities": [{"type": "flight", "value": "SK2", "correct": True}]},
                {"turn_id": 3, "entities": []},
            ]
        ),
        "simulated caller (not the agent)": '{"corruptions": {}, "rating": 1}',
    }
)


def test_golden_small_record(tmp_path: Path) -> None:
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    scored = score_context(ctx, EvalConfig(judge=JUDGE), sorted(REGISTRY))
    got = {
        "status": scored.status,
        "validation": scored.validation,
        "aggregate_metrics": scored.aggregates,
        "metrics": {k: v.model_dump(mode="json") for k, v in sorted(scored.metrics.items())},
    }
    text = json.dumps(got, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("VOXBENCH_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.is_file(), "golden missing: run with VOXBENCH_REGEN_GOLDEN=1"
    assert json.loads(GOLDEN.read_text(encoding="utf-8")) == json.loads(text)


GOLDEN_OFFLINE = GOLDEN.with_name("eval_small_record_offline.json")
OFFLINE_METRICS = ("conciseness", "conversation_progression", "speakability")


def test_golden_small_record_offline(tmp_path: Path) -> None:
    """The offline methods on the same record, with no judge (the default mode)."""
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    scored = score_context(ctx, EvalConfig(), list(OFFLINE_METRICS))
    got = {k: v.model_dump(mode="json") for k, v in sorted(scored.metrics.items())}
    text = json.dumps(got, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("VOXBENCH_REGEN_GOLDEN"):
        GOLDEN_OFFLINE.write_text(text, encoding="utf-8")
    assert GOLDEN_OFFLINE.is_file(), "golden missing: run with VOXBENCH_REGEN_GOLDEN=1"
    assert json.loads(GOLDEN_OFFLINE.read_text(encoding="utf-8")) == json.loads(text)


GOLDEN_VARIED = GOLDEN.with_name("eval_varied_records.json")


def test_golden_varied_records(tmp_path: Path) -> None:
    """Every default metric (offline judges) but the offline caller check on eight varied
    synthetic records, as written to metrics.json: numbers spoken and written, codes,
    amounts and STT errors through the normaliser, WER, entity fidelity and the analyses.
    Speed work must keep these. (The caller check would gate them all invalid: the
    builder's scenario gives the caller no facts.)"""
    import random

    from tests.eval.varied_records import varied
    from voxbench.eval.runner import default_metrics, score_run

    rng = random.Random(18)
    for i in range(8):
        varied(rng, i).write(tmp_path / "run" / "conversations" / f"r{i}")
    names = [m for m in default_metrics() if m != "user_behavioral_fidelity"]
    scored, summary = score_run(tmp_path / "run", EvalConfig(), names)
    got = {
        "records": {
            s.record_id: {
                "status": s.status,
                "aggregate_metrics": s.aggregates,
                "analysis": s.analysis,
                "metrics": {k: v.model_dump(mode="json") for k, v in sorted(s.metrics.items())},
            }
            for s in scored
        },
        "per_metric": summary["per_metric"],
        "overall_scores": summary["overall_scores"],
    }
    text = json.dumps(got, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("VOXBENCH_REGEN_GOLDEN"):
        GOLDEN_VARIED.write_text(text, encoding="utf-8")
    assert GOLDEN_VARIED.is_file(), "golden missing: run with VOXBENCH_REGEN_GOLDEN=1"
    assert json.loads(GOLDEN_VARIED.read_text(encoding="utf-8")) == json.loads(text)
