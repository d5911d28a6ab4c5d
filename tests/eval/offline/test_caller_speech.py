"""Offline user_speech_fidelity: the caller's meant line against the post-call transcript of
its own recording, by EVA's 1-3 rules on key entities and content."""

from __future__ import annotations

from pathlib import Path

from tests.eval.builders import small_conversation
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.validation import user_speech_fidelity
from voxbench.eval.offline.caller_speech import rate_turn
from voxbench.eval.types import EvalConfig
from voxbench.records import Transcript, Utterance, read_record, write_record


def test_turn_ratings() -> None:
    meant = "My confirmation code is Z K three F F W."
    assert rate_turn(meant, "My confirmation code is ZK3FFW.")[0] == 3
    assert rate_turn(meant, "My confirmation code is Z K three F F.")[0] == 1  # the code is wrong
    assert rate_turn(meant, "")[0] == 1
    assert (
        rate_turn("Yes, please go ahead and book the later flight.", "Yes, please book the later flight.")[0]
        == 2
    )


def test_a_short_line_never_said_inside_a_turn_rates_1() -> None:
    """A caller line not spoken merges into its neighbour's turn; the turn's overall match
    stays high, but one of its sentences has none of its words said."""
    meant = "Yes, that's right. It's at Headquarters, floor F L three. Yes."
    rating, info = rate_turn(meant, "Yes, that's right. It's at Headquarters, floor F L three.")
    assert rating == 1 and "Yes." in info["missing"]
    assert rate_turn(meant, meant)[0] == 3


def _with_post_call(src: Path, dst: Path, garble: bool) -> Path:
    """The record plus post-call transcripts of the caller's recording (one garbled)."""
    b = read_record(src)
    extra = []
    for e in b.events:
        if isinstance(e, Utterance) and e.channel == "user":
            said = "I need to change my flight." if garble and "Z K" in e.text else e.text
            extra.append(
                Transcript(t=e.t + 0.3, side="harness", channel="user", text=said, source="post_call")
            )
    return write_record(dst, b.record, [*b.events, *extra], b.scenario, b.agent, b.initial_db, b.final_db)


def test_metric_rates_each_caller_turn_from_the_record(tmp_path: Path) -> None:
    rec = small_conversation().write(tmp_path / "r")
    config = EvalConfig(judge_mode="offline")
    assert user_speech_fidelity(load_context(rec), config).skipped  # no post-call caller transcripts
    ok = user_speech_fidelity(load_context(_with_post_call(rec, tmp_path / "ok", False)), config)
    assert ok.score == 3.0 and not ok.details["any_turn_rated_1"]
    bad = user_speech_fidelity(load_context(_with_post_call(rec, tmp_path / "bad", True)), config)
    assert bad.details["any_turn_rated_1"] and bad.details["evidence"][0]["turn"] == 1
    assert "zk3ffw" in bad.details["evidence"][0]["claim"]
