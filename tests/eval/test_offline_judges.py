"""Offline judges: the methods on small hand-made records, the dispatch by judge mode, the
validation gate without a judge, and the default `voxbench eval` mode."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from tests.eval.builders import small_conversation
from tests.eval.fake_judge import FakeJudge
from voxbench.cli.main import main
from voxbench.eval.context import ConversationContext
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.judged import conciseness, conversation_progression, speakability
from voxbench.eval.offline import OFFLINE, OfflineMethod, load_all, progression, rate_offline
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline.speakability import check_turn
from voxbench.eval.runner import score_context
from voxbench.eval.types import EvalConfig, MetricResult

OFF = EvalConfig(judge_mode="offline")


def ctx_of(
    turns: list[tuple[str, str]], tools: tuple[tuple[int, str, dict[str, object]], ...] = ()
) -> ConversationContext:
    """A context from (role, text) lines (turn 0 = greeting, a caller line opens a turn) and
    (turn, tool, params) calls."""
    trace: list[dict[str, object]] = []
    turn = 0
    for role, text in turns:
        if role == "user":
            turn += 1
        trace.append({"role": role, "content": text, "type": "intended", "turn_id": turn})
        for t, name, params in tools:
            if t == turn and role == "user":
                trace.append({"type": "tool_call", "tool_name": name, "parameters": params, "turn_id": t})
                trace.append(
                    {
                        "type": "tool_response",
                        "tool_name": name,
                        "tool_response": {"status": "success"},
                        "turn_id": t,
                    }
                )
    ctx = ConversationContext(record_id="hand", conversation_trace=trace)
    for e in trace:
        if e.get("role") == "assistant":
            ctx.intended_assistant_turns[int(e["turn_id"])] = str(e["content"])  # type: ignore[call-overload]
    return ctx


LONG = (
    "Sure, let me walk you through everything about your trip. Your outbound flight, SK two, leaves "
    "Lisbon at seven fifteen in the morning on March third and lands in Oslo at eleven forty, and the "
    "return, SK nine, leaves Oslo at six twenty in the evening on March tenth. Normally the system "
    "assigns seats at check-in, because the fare you bought is a basic fare, so that means seats are "
    "not guaranteed together. You could pay twenty five dollars per seat now, or forty dollars for "
    "extra legroom, or wait until check-in opens twenty four hours before departure. Checked bags are "
    "thirty five dollars each, the second is forty five, and anything over fifty pounds is another "
    "hundred dollars. Which option would you like?"
)


def test_a_120_word_turn_is_rated_1_and_a_short_question_3() -> None:
    assert len(LONG.split()) >= 120
    ctx = ctx_of([("assistant", "Hi, how can I help?"), ("user", "I missed my flight."), ("assistant", LONG),
                  ("user", "The first one."), ("assistant", "Done. You're on the eleven forty. Anything else?")])  # fmt: skip
    r = conciseness(ctx, OFF)
    assert r.ok and r.params["method"] == "offline:listening-load-logit"
    per = r.details["per_turn_rating"]
    assert per[1] == 1 and per[0] == 3 and per[2] == 3
    assert r.score == pytest.approx(7 / 3, abs=1e-3) and r.normalized_score == pytest.approx(2 / 3, abs=1e-3)
    ev = next(e for e in r.details["evidence"] if e["turn"] == 1)
    assert "words" in ev["claim"] and "->" in ev["rule"]
    assert r.details["per_turn_failure_modes"][1] and not r.details["per_turn_failure_modes"][0]


def test_a_repeated_identical_tool_call_lowers_progression() -> None:
    lines = [("assistant", "Hi, how can I help?"), ("user", "Check booking ABC, last name Lee."),
             ("assistant", "I found your booking on flight twelve."), ("user", "Is it on time?"),
             ("assistant", "Yes, it is on time.")]  # fmt: skip
    call = ("get_reservation", {"confirmation_number": "QX7K2M", "last_name": "Lee"})
    clean = conversation_progression(ctx_of(lines, ((1, *call),)), OFF)
    again = conversation_progression(ctx_of(lines, ((1, *call), (2, *call))), OFF)
    assert clean.score == 3.0 and not clean.details["flagged"]
    assert again.score is not None and again.score < clean.score
    assert "unnecessary_tool_calls" in again.details["flagged"]
    ev = [e for e in again.details["evidence"] if e["turn"] == 2]
    assert ev and ev[0]["rule"].startswith("identical tool call repeated")
    assert again.sub_metrics["unnecessary_tool_calls_rate"].score == 1.0


def test_a_categorical_value_is_not_a_placeholder() -> None:
    """`meal_type: "none"` is one of the schema's allowed values (a choice), not a placeholder;
    an identifier "none" still is."""
    lines = [("assistant", "Hi, how can I help?"), ("user", "No meal for me, booking QX7K2M."),
             ("assistant", "Done, no meal on your flight.")]  # fmt: skip
    tool = {"type": "function", "function": {"name": "add_meal_request", "parameters": {"properties": {
        "confirmation_number": {"type": "string"}, "meal_type": {"type": "string", "enum": ["vegan", "none"]}}}}}  # fmt: skip
    ok = ctx_of(lines, ((1, "add_meal_request", {"confirmation_number": "QX7K2M", "meal_type": "none"}),))
    ok.agent_tools = [tool]
    assert not [e for e in progression.findings(ok) if e["feature"] == "placeholder_calls"]
    bad = ctx_of(lines, ((1, "add_meal_request", {"confirmation_number": "none", "meal_type": "none"}),))
    bad.agent_tools = [tool]
    assert [e for e in progression.findings(bad) if e["feature"] == "placeholder_calls"]


def test_open_offers_and_go_aheads_are_not_re_asked_questions() -> None:
    """The greeting's and each closing's offer of help, and a go-ahead asked for each action of
    a multi-request call, are procedure; a real question asked again still counts."""
    lines = [("assistant", "Hi, how can I help you today?"), ("user", "Two changes, please."),
             ("assistant", "Do I have your approval to proceed with the first change?"), ("user", "Yes."),
             ("assistant", "Done. Is there anything else I can help you with today?"), ("user", "The second one."),
             ("assistant", "Do I have your approval to proceed with the second change?"), ("user", "Yes."),
             ("assistant", "Done. Is there anything else I can help you with today?")]  # fmt: skip
    assert not [e for e in progression.findings(ctx_of(lines, ())) if e["feature"].startswith("repeated_")]
    again = [*lines, ("user", "No."), ("assistant", "Could you tell me your confirmation number, please?"),
             ("user", "K7."), ("assistant", "Could you tell me your confirmation number, please?")]  # fmt: skip
    assert [e for e in progression.findings(ctx_of(again, ())) if e["feature"] == "repeated_questions"]


# The agent turns of a live record (make run 2026-12-04, airline bb.2 t0): the agent asks for
# the confirmation number four times and "What would you like to do next?" three times.
_FOUND = "I found your booking. [likely interruption] It's for a flight from Phoenix to Denver on May 13, 2026. You have 2 checked bags. What would you like to do next?"
_SEAT = "Great! [likely interruption] I'll assign you a window seat on your flight. Please wait a moment. Could you tell me the confirmation number, please?"
_CODE = "My confirmation code. is h and 4r8b."
_WANT = "I want a window seat on my bluebird air flight from Phoenix to Denver. on May 13."
LOOP = [
    ("assistant", "Hello! How can I help you today?"),
    ("user", "Hello, can I get a window seat on my flight?"),
    ("assistant", "Sure, I can help you with that. What is your last name?"),
    ("user", "My last name is all cuffle."),
    ("assistant", "Okay, I'll look up your booking. [likely interruption] Please wait a moment. Could you tell me the confirmation number, please?"),
    ("user", _CODE),
    ("assistant", _FOUND.replace("Phoenix to Denver on May 13", "New York to Los Angeles on May 11")),
    *[line for _ in range(3) for line in (("user", _WANT), ("assistant", _SEAT), ("user", _CODE), ("assistant", _FOUND))],
    ("user", "Alright, I'll leave it there. Goodbye."),
]  # fmt: skip


def test_an_agent_stuck_in_a_loop_is_not_rated_3() -> None:
    r = conversation_progression(ctx_of(LOOP), OFF)
    assert r.details["counts"]["repeated_questions"] == 6 and r.details["counts"]["repeated_statements"] == 7
    assert r.score is not None and r.score < 3
    assert r.details["contributions"]["repeated_sentences"] < 0
    assert "redundant_statements" in r.details["flagged"] and "information_loss" in r.details["flagged"]


def test_one_more_stall_never_raises_the_shipped_progression_rating() -> None:
    """Property over a grid of counts: adding any one finding of any kind lowers the rating or
    leaves it (the fit keeps every stall weight on the penalising side; a capping kind only
    caps)."""
    model = shipped_model(progression.NAME)
    weighed = [k for k in progression.KINDS if k not in progression.CAPPING]
    grid = range(7)
    for combo in itertools.product(grid, repeat=len(weighed)):
        c = {**dict.fromkeys(progression.CAPPING, 0.0), **dict(zip(weighed, map(float, combo), strict=True))}
        r = progression.rating(model, c)[0]
        for k in progression.KINDS:
            more = progression.rating(model, {**c, k: c[k] + 1})[0]
            assert more <= r, (c, k, r, more)
            assert progression.rating(model, {**c, k: c[k] + 2})[0] <= more, (c, k)


def test_speakability_rules() -> None:
    assert check_turn("Your flight leaves at nine, and your seat is twelve A.")[0] == 1
    for bad in ("**Flight:** SK2", "- one\n- two", "Here: {\"a\": 1}", "Done.Your seat is 12A", "Great 😀",
                "## Options", "See https://example.com"):  # fmt: skip
        rating, hits = check_turn(bad)
        assert rating == 0 and hits, bad
    ctx = ctx_of(
        [("assistant", "Hello, how can I help?"), ("user", "hi"), ("assistant", "**Options:**\n1. SK2")]
    )
    r = speakability(ctx, OFF)
    assert r.score == 0.5 and r.details["per_turn_rating"] == {0: 1, 1: 0}
    assert {e["rule"] for e in r.details["evidence"]} >= {"markdown emphasis", "bullet or numbered list"}


def test_judge_mode_dispatch(tmp_path: Path) -> None:
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    assert conciseness(ctx, EvalConfig()).params["method"].startswith("offline:")  # auto, no judge
    assert conciseness(ctx, EvalConfig(judge_mode="none")).details["unscored"]
    assert conciseness(ctx, EvalConfig(judge_mode="llm")).details["unscored"]
    j = FakeJudge({"easy a voice agent": json.dumps([{"turn_id": t, "rating": 2} for t in range(4)])})
    r = conciseness(ctx, EvalConfig(judge=j))  # a configured judge is used, as before
    assert r.judge_model == "fake-judge" and "method" not in r.params and len(j.calls) == 1
    assert conciseness(ctx, EvalConfig(judge=j, judge_mode="offline")).params["method"].startswith("offline:")
    assert len(j.calls) == 1


def _fake_ubf(rating: float) -> OfflineMethod:
    def rate(ctx: ConversationContext) -> MetricResult:
        return MetricResult(name="user_behavioral_fidelity", score=rating, normalized_score=rating,
                            details={"evidence": [{"turn": 1, "claim": "test", "rule": "test"}]})  # fmt: skip

    return OfflineMethod("user_behavioral_fidelity", "test-rule", "0", rate)


def test_gate_uses_the_offline_behavioural_fidelity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_all()  # so a module imported later cannot collide with the entry patched in below
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    names = ["conversation_valid_end", "user_behavioral_fidelity", "task_completion"]
    monkeypatch.setitem(OFFLINE, "user_behavioral_fidelity", _fake_ubf(0.0))
    bad = score_context(ctx, EvalConfig(), names)
    assert bad.status == "invalid" and bad.validation["failed_metrics"] == ["user_behavioral_fidelity"]
    assert bad.metrics["user_behavioral_fidelity"].params["method"] == "offline:test-rule"
    monkeypatch.setitem(OFFLINE, "user_behavioral_fidelity", _fake_ubf(1.0))
    good = score_context(ctx, EvalConfig(), names)
    assert good.status == "completed" and good.validation["valid"]
    assert rate_offline("no_such_metric", ctx) is None
    none = score_context(ctx, EvalConfig(judge_mode="none"), names)
    assert none.validation["skipped"] == ["user_behavioral_fidelity"] and none.status == "completed"


def test_cli_eval_defaults_to_offline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    for trial in range(2):
        conv = small_conversation()
        conv.trial = trial
        conv.write(run / "conversations" / "1.1.1" / f"trial_{trial}")
    # the EVA composites' components and the end gate; the fixture's scenario gives the caller no
    # facts, so the offline behavioural check would (rightly) reject its booking code
    metrics = "conversation_valid_end,task_completion,faithfulness,agent_speech_fidelity,"
    metrics += "conversation_progression,conciseness,turn_taking"
    assert main(["eval", str(run), "--metrics", metrics]) == 0
    out = capsys.readouterr().out
    assert "EVA-A pass@1" in out and "EVA-X pass@1" in out and "offline-judged" in out
    summary = json.loads((run / "metrics_summary.json").read_text())
    prov = summary["provenance"]
    assert prov["judge_mode"] == "offline"
    assert prov["offline_judges"]["conciseness"]["method"] == "offline:listening-load-logit"
    expected = prov["offline_judges"]["conciseness"]["expected_agreement"]  # never the in-sample figure
    assert expected["how"].startswith("test half") and expected["n"] < 239
    m = json.loads((run / "conversations/1.1.1/trial_0/metrics.json").read_text())["metrics"]
    assert m["conversation_progression"]["params"]["method"].startswith("offline:")
    assert summary["overall_scores"]["EVA-X_pass"]["count"] == 2
    assert main(["eval", str(run), "--metrics", metrics, "--judge", "none"]) == 0
    assert "unjudged" in capsys.readouterr().out
    m = json.loads((run / "conversations/1.1.1/trial_0/metrics.json").read_text())["metrics"]
    assert m["conciseness"]["details"]["unscored"]
