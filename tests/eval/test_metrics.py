"""Code metrics on hand-built records, and judge metrics with a fake judge."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.eval.builders import EXPECTED_DB, Conv, small_conversation
from tests.eval.fake_judge import FakeJudge
from voxbench.eval.context import ConversationContext, ToolCallInfo
from voxbench.eval.from_record import load_context
from voxbench.eval.judges import parse_json_list, parse_json_object
from voxbench.eval.metrics.accuracy import agent_speech_fidelity, task_completion
from voxbench.eval.metrics.diagnostics import (
    authentication_success,
    conversation_correctly_finished,
    is_invalid_call,
    response_speed,
    tool_call_validity,
)
from voxbench.eval.metrics.judged import conciseness, conversation_progression, faithfulness
from voxbench.eval.metrics.stt_wer import stt_wer
from voxbench.eval.metrics.validation import conversation_valid_end, validation_gate
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric

CFG = EvalConfig()


@pytest.fixture
def small(tmp_path: Path) -> ConversationContext:
    return load_context(small_conversation().write(tmp_path / "r"))


def test_task_completion_pass_fail_and_unscored(tmp_path: Path, small: ConversationContext) -> None:
    assert task_completion(small, CFG).score == 1.0
    wrong = copy.deepcopy(EXPECTED_DB)
    wrong["reservations"]["ZK3FFW"]["flight"] = "SK9"
    c = load_context(small_conversation().write(tmp_path / "w", final_db=wrong))
    r = task_completion(c, CFG)
    assert r.score == 0.0 and r.details["diff"]["tables_modified"]["reservations"]
    noauth = copy.deepcopy(EXPECTED_DB)
    noauth.pop("session")
    r = task_completion(load_context(small_conversation().write(tmp_path / "a", final_db=noauth)), CFG)
    assert r.score == 0.0 and r.details["auth_success"] is False
    small.expected_db = None
    r = task_completion(small, CFG)
    assert r.score is None and r.skipped and r.details["unscored"]


def test_response_speed_split_and_percentiles(small: ConversationContext) -> None:
    r = response_speed(small, CFG)
    assert r.score == pytest.approx((1.0 + 3.0 + 2.75) / 3, abs=1e-4)
    assert r.normalized_score is None
    assert r.sub_metrics["with_tool_calls"].score == 3.0
    assert r.sub_metrics["no_tool_calls"].score == pytest.approx(1.875)
    assert r.sub_metrics["p50"].score == 2.75  # sorted [1, 2.75, 3][int(0.5*3)=1]
    assert r.sub_metrics["p95"].score == 3.0
    assert r.sub_metrics["llm_latency"].score == 0.5
    assert r.sub_metrics["stt_latency"].score == 0.2


def test_response_speed_drops_non_positive_and_skips_when_none() -> None:
    c = ConversationContext(record_id="x", latency_assistant_turns={1: -2.0, 2: 0.0, 3: 1.5})
    r = response_speed(c, CFG)
    assert r.score == 1.5 and r.details["excluded_non_positive"] == [1, 2]
    assert response_speed(ConversationContext(record_id="y"), CFG).skipped


@pytest.mark.parametrize(
    ("error_type", "params", "invalid"),
    [
        (None, None, False),
        ("tool_not_found", None, True),
        ("execution_error", None, True),
        ("missing_parameter", None, True),
        ("invalid_confirmation_number", {"confirmation_number"}, True),  # airline format
        ("invalid_employee_id_format", None, True),  # ITSM/medical format error EVA misses
        ("invalid_otp", {"otp_code"}, False),  # wrong credential: business outcome
        ("invalid_clearance_code", {"clearance_code"}, False),
        ("not_found", None, False),
        ("authentication_required", None, False),
        ("invalid_state_code", {"employee_id"}, False),  # not a parameter of this tool
    ],
)
def test_tool_call_validity_rule(error_type: str | None, params: set[str] | None, invalid: bool) -> None:
    assert is_invalid_call(error_type, params) is invalid


def test_tool_call_validity_score() -> None:
    c = ConversationContext(
        record_id="x",
        tool_calls=[
            ToolCallInfo(1, "a", {}, {"status": "success"}, "success"),
            ToolCallInfo(1, "a", {}, {"status": "error"}, "error", "tool_not_found"),
            ToolCallInfo(2, "b", {}, {"status": "error"}, "error", "not_found"),
            ToolCallInfo(2, "b", {}, {"status": "error"}, "error", "invalid_date"),
        ],
    )
    r = tool_call_validity(c, CFG)
    assert r.score == 0.5
    assert r.sub_metrics["tool_not_found_rate"].score == 0.25
    assert r.sub_metrics["num_tool_calls"].score == 4.0
    assert tool_call_validity(ConversationContext(record_id="n"), CFG).score == 1.0


def test_authentication_success(small: ConversationContext) -> None:
    r = authentication_success(small, CFG)
    assert r.score == 1.0
    assert r.sub_metrics["auth_first_try_success"].score == 1.0
    assert r.sub_metrics["num_auth_calls"].score == 1.0
    small.final_db = {"session": {"confirmation_number": "zk3ffw"}}  # last_name missing
    r = authentication_success(small, CFG)
    assert r.score == 0.0 and r.sub_metrics["num_auth_calls_on_failure"].score == 1.0
    small.expected_db = {}
    assert authentication_success(small, CFG).skipped


def test_finished_and_valid_end() -> None:
    c = ConversationContext(
        record_id="x",
        conversation_ended_reason="inactivity_timeout",
        audio_timestamps_user_turns={1: [(2.0, 3.0)]},
        audio_timestamps_assistant_turns={0: [(0.0, 1.0)]},
    )
    assert conversation_correctly_finished(c, CFG).score == 0.0
    assert conversation_valid_end(c, CFG).score == 1.0  # agent timed out on the caller: valid sim
    c.conversation_ended_reason, c.simulator_ended_call = "connection_lost", False
    assert conversation_valid_end(c, CFG).score == 0.0
    c.simulator_ended_call = None
    assert conversation_valid_end(c, CFG).error


def test_validation_gate() -> None:
    ok = MetricResult(name="conversation_valid_end", score=1.0, normalized_score=1.0)
    bad = MetricResult(name="conversation_valid_end", score=0.0, normalized_score=0.0)
    ub0 = MetricResult(name="user_behavioral_fidelity", score=0.0, normalized_score=0.0)
    us1 = MetricResult(name="user_speech_fidelity", score=2.0, details={"any_turn_rated_1": True})
    assert validation_gate({"conversation_valid_end": bad})["status"] == "not_finished"
    assert validation_gate({"conversation_valid_end": ok})["valid"]
    g = validation_gate(
        {"conversation_valid_end": ok, "user_behavioral_fidelity": ub0, "user_speech_fidelity": us1}
    )
    assert g["failed_metrics"] == ["user_behavioral_fidelity", "user_speech_fidelity"]
    err = MetricResult.fail("user_behavioral_fidelity", "judge down")
    assert not validation_gate({"conversation_valid_end": ok, "user_behavioral_fidelity": err})["valid"]


def test_stt_wer_hand_counted() -> None:
    c = ConversationContext(
        record_id="x",
        intended_user_turns={1: "[slow] I want flight twenty five", 2: "Thanks a lot"},
        transcribed_user_turns={1: "I want the flight 25", 2: "Thanks"},
    )
    r = stt_wer(c, CFG)
    # ref: "i want flight 25" (4) + "thanks a lot" (3) = 7 words; 1 insertion + 2 deletions
    assert r.details["reference_words"] == 7
    assert (r.details["insertions"], r.details["deletions"], r.details["substitutions"]) == (1, 2, 0)
    assert r.score == pytest.approx(3 / 7, abs=1e-4)
    assert r.normalized_score == pytest.approx(1 - 3 / 7, abs=1e-4)
    assert r.params["normalizer"] == "vb-eva-3"


def test_agent_speech_fidelity_offline(small: ConversationContext) -> None:
    r = agent_speech_fidelity(small, CFG)
    assert r.params["method"] == "offline_stt_entities"
    # turns 1 (ZK3FFW) and 2 (SK2, $120) carry entities and were heard right
    assert r.details["per_turn_rating"] == {1: 1.0, 2: 1.0}
    small.transcribed_assistant_turns[2] = "Done. You are on flight S K 3 for 120 dollars."
    r = agent_speech_fidelity(small, CFG)
    assert r.score == 0.5 and r.details["per_turn_entities"][2]["missing"] == [
        "sk 2"
    ]  # letters | digits split, as EVA
    small.transcribed_assistant_turns = {}
    r = agent_speech_fidelity(small, CFG)
    assert r.skipped and r.details["unscored"]


FAITH_REPLY = """Sure! Here is my analysis.
```json
{"dimensions": {"fabricating_tool_parameters": {"evidence": "", "flagged": false, "rating": 3},
 "misrepresenting_tool_result": {"evidence": "", "flagged": false, "rating": 3},
 "violating_policies": {"evidence": "skipped check", "flagged": true, "rating": 2},
 "failing_to_disambiguate": {"evidence": "", "flagged": false, "rating": 3},
 "hallucination": {"evidence": "", "flagged": false, "rating": 3}}}
```"""


def test_faithfulness_is_min_over_dimensions(small: ConversationContext) -> None:
    j = FakeJudge({"faithfulness": FAITH_REPLY})
    r = faithfulness(small, EvalConfig(judge=j))
    assert r.score == 2.0 and r.normalized_score == 0.5
    assert r.sub_metrics["violating_policies_rate"].score == 1.0
    assert r.judge_model == "fake-judge" and r.prompt_hash and len(r.prompt_hash) == 12
    assert "Turn 2:" in j.calls[0][1]
    assert faithfulness(small, EvalConfig(judge_mode="none")).details["unscored"]
    assert faithfulness(small, EvalConfig(judge_mode="llm")).details["unscored"]  # llm, but no judge


def _prog(ratings: dict[str, tuple[bool, int]]) -> str:
    return json.dumps(
        {"dimensions": {k: {"evidence": "", "flagged": f, "rating": r} for k, (f, r) in ratings.items()}}
    )


@pytest.mark.parametrize(
    ("dims", "expected"),
    [
        ({"information_loss": (False, 3), "question_quality": (False, 3)}, 3.0),
        ({"information_loss": (True, 2), "question_quality": (True, 2)}, 2.0),
        ({"information_loss": (True, 1)}, 1.0),
        (
            {"information_loss": (True, 2), "question_quality": (True, 2), "redundant_statements": (True, 2)},
            1.0,
        ),
    ],
)
def test_progression_overall_rule(
    small: ConversationContext, dims: dict[str, tuple[bool, int]], expected: float
) -> None:
    r = conversation_progression(small, EvalConfig(judge=FakeJudge({"moved the conversation": _prog(dims)})))
    assert r.score == expected


def test_progression_invalid_output_defaults_to_minimum(small: ConversationContext) -> None:
    r = conversation_progression(small, EvalConfig(judge=FakeJudge({"moved the conversation": "no json"})))
    assert r.score == 1.0 and r.details["invalid_judge_output"]


def test_conciseness_per_turn(small: ConversationContext) -> None:
    reply = json.dumps(
        [
            {"turn_id": 0, "rating": 3, "failure_modes": ["verbosity_or_filler"]},  # cleared on a 3
            {"turn_id": 1, "rating": 2, "failure_modes": ["verbosity_or_filler"]},
            {"turn_id": 2, "rating": None},
            {"turn_id": 9, "rating": 1},  # not an expected turn: dropped
            {"turn_id": 3, "rating": 1, "failure_modes": ["excess_information_density"]},
        ]
    )
    r = conciseness(small, EvalConfig(judge=FakeJudge({"easy a voice agent": reply})))
    assert r.details["per_turn_rating"] == {0: 3, 1: 2, 3: 1}
    assert r.normalized_score == 0.5  # mean(1, 0.5, 0)
    assert r.score == 2.0
    assert r.sub_metrics["verbosity_or_filler_rate"].score == pytest.approx(1 / 3, abs=1e-4)


def test_json_parsing_is_robust_to_chatter() -> None:
    assert parse_json_object('blah {"a": 1} and {"rating": 2, "x": [1]} end') == {"rating": 2, "x": [1]}
    assert parse_json_object("nothing here") is None
    assert parse_json_list('```json\n[{"turn_id": 1}]\n```') == [{"turn_id": 1}]
    assert parse_json_list('{"turn_id": 1}') == [{"turn_id": 1}]
    assert parse_json_list('{"turns": [{"turn_id": 2}]}') == [{"turn_id": 2}]


def test_metric_exception_becomes_error_not_zero(small: ConversationContext) -> None:
    class Boom:
        model = "boom"

        def complete(self, system: str, user: str, *, audio_wav: bytes | None = None):  # type: ignore[no-untyped-def]
            raise RuntimeError("judge down")

    r = run_metric(REGISTRY["faithfulness"], small, EvalConfig(judge=Boom()))  # type: ignore[arg-type]
    assert r.score is None and r.error and "judge down" in r.error and r.version


def test_conv_builder_minimal(tmp_path: Path) -> None:
    c = load_context(Conv().agent(0, 1, "hi").user(2, 3, "yo").agent(4, 5, "ok").write(tmp_path / "m"))
    assert c.latency_assistant_turns == {1: 1.0}
