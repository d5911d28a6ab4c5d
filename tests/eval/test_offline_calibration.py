"""`voxbench judges calibrate --judge offline`: the output format on a small hand-made set,
k-fold figures for fitted methods, the shipped calibration, and (when EVA's visible labels
are next to the repo) the real figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EVA_DATA
from voxbench.cli.main import main
from voxbench.eval.offline import FITTERS, load_all
from voxbench.eval.offline._shipped import measured_agreement, shipped_calibration

SHORT = "Sure, what is your booking code?"
LONG = " ".join(["Your flight leaves at nine fifteen and lands at noon, and the fee is forty dollars."] * 9)


def _conciseness_row(i: int) -> dict[str, object]:
    turns: list[dict[str, object]] = [{"position": 1, "role": "user", "content": "Hi, I need help."}]
    turns.append(
        {"position": 2, "role": "agent", "content": SHORT, "expected_rating": 3, "failure_modes": []}
    )
    turns.append({"position": 3, "role": "user", "content": "It is K7."})
    long = {"position": 4, "role": "agent", "content": LONG, "expected_rating": 1 if i % 3 else 2,
            "failure_modes": ["verbosity_or_filler"]}  # fmt: skip
    turns.append(long)
    return {"id": i, "conversation_id": f"c{i}", "conv_turns": turns}


def _progression_row(i: int) -> dict[str, object]:
    call = {
        "event_type": "tool_call",
        "tool_name": "get_reservation",
        "params": {"confirmation_number": "K7"},
    }
    resp = {"event_type": "tool_response", "tool_name": "get_reservation", "response": {"status": "success"}}
    trace = [
        {"event_type": "agent_utterance", "utterance": "Hello, how can I help?"},
        {"event_type": "user_utterance", "utterance": "Check my booking K7."},
        call, resp, *([call, resp] * (i % 3)),
        {"event_type": "agent_utterance", "utterance": "Your booking is confirmed."},
    ]  # fmt: skip
    return {"id": i, "trace": trace, "expected_rating": 3 - (i % 3), "validated": True, "invalid": False}


def _write(d: Path) -> None:
    d.mkdir()
    (d / "conciseness.jsonl").write_text("".join(json.dumps(_conciseness_row(i)) + "\n" for i in range(9)))
    rows = [_progression_row(i) for i in range(12)] + [{**_progression_row(99), "invalid": True}]
    (d / "conversation_progression.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_calibrate_offline_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sets = tmp_path / "sets"
    _write(sets)
    out = tmp_path / "cal.json"
    args = ["judges", "calibrate", "--judge", "offline", "--dataset", str(sets), "--out", str(out)]
    assert main([*args, "--cv-folds", "3"]) == 0
    cal = json.loads(out.read_text())
    assert cal["judge"]["model"] == "offline" and "conciseness" in cal["judge"]["methods"]
    assert "judge_usage" not in cal
    c = cal["metrics"]["conciseness"]
    for key in ("n", "accuracy", "cohen_kappa", "weighted_kappa_quadratic", "macro_f1", "confusion"):
        assert key in c["agreement"], key
    assert c["agreement"]["n"] == 18 and c["method"] == "offline:listening-load-logit"
    assert c["fitted_on_labels"] and c["cross_validation"]["folds"] == 3
    assert c["cross_validation"]["agreement"]["n"] == 18
    p = cal["metrics"]["conversation_progression"]
    assert p["agreement"]["n"] == 12 and p["excluded_invalid_rows"] == 1
    assert len(p["agreement"]["confusion"]) == 3 and p["cross_validation"]["agreement"]["n"] == 12
    assert isinstance(p["low_confidence"], bool)
    printed = capsys.readouterr().out
    assert "3-fold CV" in printed


def test_shipped_calibration_covers_every_offline_method() -> None:
    cal = shipped_calibration()
    methods = load_all()
    listed = set(cal["metrics"]) | set(cal.get("no_human_labels", []))
    assert set(methods) <= listed, "rerun scripts/calibrate_offline_judges.py"
    for m in FITTERS:
        assert "cross_validation" in cal["metrics"][m], m
    a = measured_agreement("conciseness")
    assert a is not None and a["cv"]["folds"] == cal["cv_folds"]
    for m, r in cal["metrics"].items():  # every labelled method has its test-half figure
        assert r["split"]["test"]["agreement"]["n"] > 0, m
        assert r["split"]["fitted_on"] == ("dev" if m in FITTERS else None), m
        assert measured_agreement(m)["test"]["accuracy"] is not None, m  # type: ignore[index]


JUDGE_SETS = EVA_DATA / "docs" / "metrics" / "judge_validation_datasets"


@pytest.mark.skipif(not JUDGE_SETS.is_dir(), reason=f"EVA judge-validation sets not at {JUDGE_SETS}")
def test_calibrate_offline_on_eva_visible_labels(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    args = ["judges", "calibrate", "--judge", "offline", "--dataset", str(JUDGE_SETS), "--out", str(out)]
    assert main([*args, "--metrics", "conciseness,conversation_progression"]) == 0
    cal = json.loads(out.read_text())
    for m in ("conciseness", "conversation_progression"):
        r = cal["metrics"][m]
        assert r["judge_errors"] == 0 and r["agreement"]["n"] > 0
        # the held-out figures carry signal (kappa well above chance), whatever the exact value
        assert r["cross_validation"]["agreement"]["cohen_kappa"] > 0.2, m
