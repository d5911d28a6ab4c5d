"""tts_fidelity: opt-in, audio judge when configured, else the offline STT alignment."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import soundfile as sf

from tests.eval.builders import Conv, small_conversation
from tests.eval.fake_judge import FakeJudge
from voxbench.eval.context import ConversationContext
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.tts_fidelity import check_turn, tts_fidelity
from voxbench.eval.runner import default_metrics
from voxbench.eval.types import REGISTRY, EvalConfig

CFG = EvalConfig()


def test_opt_in_like_eva() -> None:
    assert "tts_fidelity" in REGISTRY and "tts_fidelity" not in default_metrics()
    assert REGISTRY["tts_fidelity"].exclude_from_pass_at_k


def test_offline_failure_modes_per_turn(tmp_path: Path) -> None:
    c = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello! How can I help you today?", heard="Hello, how can I help you today?")
        .user(3.0, 4.0, "My code is ZK3FFW.")
        .agent(
            5.0, 7.0, "I found booking ZK3FFW for $120.", heard="I found booking Z K 3 F W for 120 dollars."
        )
        .user(8.0, 9.0, "When do I leave?")
        .agent(
            10.0,
            13.0,
            "You leave at nine in the morning from the north terminal, gate twelve.",
            heard="You leave at nine gate twelve.",
        )
        .user(14.0, 15.0, "Thanks.")
        .agent(
            16.0, 18.0, "You're welcome, goodbye.", heard="You're welcome. Please hold hold hold. Goodbye."
        )
        .user(19.0, 20.0, "Bye.")
        .agent(21.0, 22.0, "Have a good day.", heard="Have a good flurb.")
        .write(tmp_path / "r")
    )
    r = tts_fidelity(c, CFG)
    assert r.params["method"] == "offline_stt_alignment" and r.ok
    assert r.details["per_turn_failure_modes"] == {
        0: [],
        1: ["entity_error"],
        2: ["truncation"],
        3: ["insertion_hallucination"],
        4: [],  # one word misheard is under the three-word run
    }
    ev = r.details["per_turn_evidence"]
    assert ev[1]["missing_entities"] == ["zk 3 ffw"]  # letters | digits split, as EVA
    assert ev[2]["dropped"] == ["in the morning from the north terminal"]
    assert ev[3]["inserted"] == ["please hold hold hold"]
    assert r.score == 0.4 and r.normalized_score == 0.4
    assert r.sub_metrics["entity_error_rate"].score == 0.2
    assert r.sub_metrics["truncation_rate"].score == 0.2
    assert r.sub_metrics["garbled_hallucination_rate"].score == 0.0
    assert "wrong_language_rate" not in r.sub_metrics and r.details["not_checked"] == ["wrong_language"]


def test_garbled_words_and_the_last_turn_cut_by_the_recording() -> None:
    g = check_turn("Hello there, how can I help you today?", "hello there how blorp florp glorp you today")
    assert g is not None and g.failure_modes == ["garbled_hallucination"] and g.garbled == ["can i help"]
    said = "Your flight leaves at nine tomorrow from gate twelve."
    mid = check_turn(said, "your flight leaves at nine")
    assert mid is not None and mid.failure_modes == ["entity_error", "truncation"]
    last = check_turn(said, "your flight leaves at nine", last_turn=True)
    assert last is not None and last.rating == 1  # the recording may end first (EVA's rule)


def test_words_before_a_cut_off_tag_are_not_required(tmp_path: Path) -> None:
    c = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello.", heard="Hello.")
        .user(3.0, 4.0, "Change my flight.")
        .agent(5.0, 8.0, "Sure. The change fee for flight SK2 is fifty dollars.", heard="Sure. The change")
        .user(7.0, 9.0, "Wait.")  # cuts the agent off at 8.0
        .agent(10.0, 11.0, "Yes?", heard="Yes?")
        .write(tmp_path / "r")
    )
    assert c.intended_assistant_turns[1].endswith("[likely cut off by user]")
    r = tts_fidelity(c, CFG)
    assert r.details["per_turn_rating"] == {0: 1, 1: 1, 2: 1}
    assert r.details["per_turn_evidence"][1]["unspoken_ok_words"] == 10


def test_unscored_without_transcripts_and_skipped_for_s2s(tmp_path: Path) -> None:
    c = load_context(
        Conv().agent(0.5, 2.0, "Hello.").user(3, 4, "Hi.").agent(5, 6, "Yes?").write(tmp_path / "r")
    )
    r = tts_fidelity(c, CFG)
    assert r.skipped and r.details["unscored"] and r.score is None
    c.pipeline_type = "s2s"
    assert tts_fidelity(c, CFG).skipped


def _with_agent_wav(ctx: ConversationContext, tmp_path: Path) -> ConversationContext:
    wav = tmp_path / "agent.wav"
    sf.write(wav, np.zeros(1600, dtype=np.int16), 16000)
    ctx.audio_paths["agent"] = str(wav)
    return ctx


def test_audio_judge_when_configured(tmp_path: Path) -> None:
    ctx = _with_agent_wav(load_context(small_conversation().write(tmp_path / "r")), tmp_path)
    reply = {
        "turns": [
            {"turn_id": 0, "rating": 1, "failure_modes": ["truncation"]},  # cleared: rating 1
            {"turn_id": 1, "rating": 0, "failure_modes": ["entity_error", "not_a_mode"]},
            {"turn_id": 2, "rating": 0, "failure_modes": ["wrong_language", "truncation"]},
            {"turn_id": 3, "rating": True},  # not a rating
            {"turn_id": 9, "rating": 1},  # not a turn of this conversation
        ]
    }
    j = FakeJudge({"text the agent sent to speech synthesis": json.dumps(reply)}, model="audio-fake")
    r = tts_fidelity(ctx, EvalConfig(audio_judge=j))
    assert r.params["method"] == "audio_judge" and r.judge_model == "audio-fake" and r.prompt_hash
    assert r.details["per_turn_rating"] == {0: 1, 1: 0, 2: 0}
    assert r.details["per_turn_failure_modes"] == {
        0: [],
        1: ["entity_error"],
        2: ["wrong_language", "truncation"],
    }
    assert r.score == round(1 / 3, 4)
    assert r.sub_metrics["wrong_language_rate"].score == round(1 / 3, 4)
    assert j.audio[0] == Path(ctx.audio_paths["agent"]).read_bytes()
    system, user = j.calls[0]
    assert "[speaker likely cut itself off]" in system  # the tag reference is in the prompt
    assert "Expected language: en" in user and "Turn 2: Done. You are on flight SK2 for $120." in user
    bad = FakeJudge({"speech synthesis": "I cannot hear anything."})
    assert tts_fidelity(ctx, EvalConfig(audio_judge=bad)).error == "judge rated no turn"
