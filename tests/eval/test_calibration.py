"""Judge calibration: agreement math by hand, and a tiny EVA-format dataset with a fake judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.eval.fake_judge import FakeJudge
from voxbench.eval.calibration import calibrate_dataset
from voxbench.eval.calibration_entities import entities_match, match_entities
from voxbench.eval.calibration_items import trace_from_events
from voxbench.eval.calibration_stats import agreement, cohen_kappa
from voxbench.eval.judges import JudgeReply
from voxbench.eval.types import EvalConfig


def test_cohen_kappa_by_hand() -> None:
    # po = 3/4; human marginals (.5, .5), judge (.25, .75): pe = .5; kappa = (.75-.5)/(1-.5)
    assert cohen_kappa([(1, 1), (1, 2), (2, 2), (2, 2)], [1, 2]) == 0.5
    assert cohen_kappa([(1, 1), (2, 2), (3, 3)], [1, 2, 3]) == 1.0
    assert cohen_kappa([(3, 3), (3, 3)], [1, 2, 3]) is None  # chance agreement already perfect
    assert cohen_kappa([], [1, 2]) is None
    # full ordinal reversal: quadratic weights give -1
    assert cohen_kappa([(1, 3), (3, 1)], [1, 2, 3], "quadratic") == -1.0


def test_agreement_fields() -> None:
    a = agreement([(1, 1), (2, 3), (3, 3), (3, 3)], [1, 2, 3], ordinal=True)
    assert a["n"] == 4 and a["accuracy"] == 0.75 and a["mae"] == 0.25
    assert a["confusion"] == [[1, 0, 0], [0, 0, 1], [0, 0, 2]]
    # per-class F1: 1 -> 1.0, 2 -> 0.0, 3 -> 0.8 ; macro = 0.6
    assert a["macro_f1"] == 0.6
    assert a["human_distribution"] == {"1": 1, "2": 1, "3": 2}
    assert agreement([], [True, False])["accuracy"] is None


def test_trace_turns_and_entity_matching() -> None:
    tr = trace_from_events(
        [
            {"event_type": "agent_utterance", "utterance": "Hi"},
            {"event_type": "user_utterance", "utterance": "change flight"},
            {"event_type": "user_utterance", "utterance": "please"},
            {"event_type": "agent_utterance", "utterance": "code?"},
            {"event_type": "user_utterance", "utterance": "ABC123"},
            {"event_type": "tool_call", "tool_name": "get", "params": {"c": "ABC123"}},
            {"event_type": "tool_response", "tool_name": "get", "response": {"ok": 1}},
            {"event_type": "agent_utterance", "utterance": "found it"},
        ]
    )
    assert [e["turn_id"] for e in tr] == [0, 1, 1, 1, 2, 2, 2, 2]
    assert tr[5] == {"type": "tool_call", "tool_name": "get", "parameters": {"c": "ABC123"}, "turn_id": 2}
    assert entities_match("Z K three F F W", "z k three f f w.") and entities_match("March 25", "march 25th")
    assert not entities_match("Rodriguez", "SW770") and not entities_match("", "x")
    hum = [{"value": "Rodriguez"}, {"value": "March 20"}]
    assert match_entities(hum, [{"value": "march 20"}, {"value": "nothing"}]) == [(1, 0)]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _conv(text: str) -> list[dict[str, Any]]:
    return [
        {"event_type": "agent_utterance", "utterance": "Hello"},
        {"event_type": "user_utterance", "utterance": "hi"},
        {"event_type": "agent_utterance", "utterance": text},
    ]


def _dims(rating: int, dims: tuple[str, ...]) -> str:
    return json.dumps(
        {"dimensions": {d: {"evidence": "", "flagged": rating < 3, "rating": rating} for d in dims}}
    )


class _ContentJudge(FakeJudge):
    """Rates by what the conversation says, the way a judge would (not by item id)."""

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
        self.calls.append((system, user))
        if "faithfulness" in system:
            from voxbench.eval.metrics.judged import FAITH_DIMS

            if "BROKEN" in user:
                return JudgeReply(text="I cannot rate this.", model=self.model)
            return JudgeReply(text=_dims(1 if "lounge" in user else 3, FAITH_DIMS), model=self.model)
        if "easy a voice agent" in system:
            turns = [
                {"turn_id": 1, "rating": 3},
                {"turn_id": 2, "rating": 1 if "four options" in user else 3},
            ]
            return JudgeReply(text=json.dumps({"turns": turns}), model=self.model)
        if "speech" in system and "Expected" in user:
            ents = [
                {"type": "code", "value": "Z K three F F W", "transcribed_value": "ZK3FF", "correct": True},
                {"type": "name", "value": "Rodriguez", "transcribed_value": "Rodriguez", "correct": True},
                {"type": "other", "value": "window seat", "transcribed_value": "window", "correct": True},
            ]
            return JudgeReply(
                text=json.dumps({"turns": [{"turn_id": 0, "entities": ents}]}), model=self.model
            )
        raise AssertionError(system[:60])


def test_calibrate_tiny_dataset(tmp_path: Path) -> None:
    ds = tmp_path / "sets"
    ds.mkdir()
    _write(
        ds / "faithfulness.jsonl",
        [
            {
                "id": 1,
                "trace": _conv("Elites get free lounge access."),
                "expected_rating": 1,
                "validated": True,
            },
            {"id": 2, "trace": _conv("Your flight is rebooked."), "expected_rating": 3, "validated": True},
            {"id": 3, "trace": _conv("Seat 4A is yours."), "expected_rating": 2, "validated": True},
            {"id": 4, "trace": _conv("BROKEN"), "expected_rating": 3, "validated": True},
            {"id": 5, "trace": _conv("x"), "expected_rating": 3, "validated": True, "invalid": True},
        ],
    )
    _write(
        ds / "conciseness.jsonl",
        [
            {
                "id": 1,
                "conv_turns": [
                    {"position": 1, "role": "user", "content": "hi"},
                    {"position": 2, "role": "agent", "content": "Code?", "expected_rating": 3},
                    {"position": 3, "role": "user", "content": "K7X"},
                    {
                        "position": 4,
                        "role": "agent",
                        "content": "I have four options ...",
                        "expected_rating": 2,
                    },
                ],
            }
        ],
    )
    _write(
        ds / "key_entity_transcription.jsonl",
        [
            {
                "user_tts": ["Code Z K three F F W, name Rodriguez.", "Goodbye."],
                "transcription": ["Code ZK3FF, name Rodriguez."],
                "labels": [
                    {
                        "turn_id": 0,
                        "entities": [
                            {
                                "type": "code",
                                "value": "Z K three F F W",
                                "transcribed_value": "ZK3FF",
                                "correct": False,
                            },
                            {
                                "type": "name",
                                "value": "Rodriguez",
                                "transcribed_value": "Rodriguez",
                                "correct": True,
                            },
                        ],
                    }
                ],
            }
        ],
    )
    _write(ds / "agent_speech_fidelity.jsonl", [{"id": "a", "expected_rating": 0}])
    judge = _ContentJudge({})
    out = calibrate_dataset(ds, EvalConfig(judge=judge))

    f = out["metrics"]["faithfulness"]
    assert f["items"] == 4 and f["excluded_invalid_rows"] == 1 and f["judge_errors"] == 1
    fa = f["agreement"]
    assert fa["n"] == 3 and fa["accuracy"] == pytest.approx(2 / 3, abs=1e-4)  # item 3: human 2, judge 3
    assert fa["mae"] == pytest.approx(1 / 3, abs=1e-4)
    assert f["per_item"][3]["error"]  # the unparseable reply is an error, not a disagreement

    c = out["metrics"]["conciseness"]
    assert c["agreement"]["n"] == 2 and c["agreement"]["accuracy"] == 0.5  # turn 2: human 2, judge 1
    assert c["conversation_score_mae"] == pytest.approx(0.25)  # human mean .75 vs judge .5

    e = out["metrics"]["transcription_accuracy_key_entities"]
    assert e["entity_extraction"] == {
        "human_entities": 2, "judge_entities": 3, "matched": 2,
        "precision": pytest.approx(0.6667, abs=1e-4), "recall": 1.0, "f1": 0.8,
    }  # fmt: skip
    assert e["agreement"]["n"] == 2 and e["agreement"]["accuracy"] == 0.5  # the code: human False, judge True
    assert e["turn_score_mae"] == 0.5
    assert "agent_speech_fidelity" in out["skipped"]

    limited = calibrate_dataset(ds, EvalConfig(judge=_ContentJudge({})), metrics=["faithfulness"], limit=2)
    assert list(limited["metrics"]) == ["faithfulness"] and limited["metrics"]["faithfulness"]["items"] == 2
