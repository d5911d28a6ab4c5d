"""Turn segmentation from hand-built voxbench records (EVA §3.1 rules)."""

from __future__ import annotations

from pathlib import Path

from tests.eval.builders import Conv, small_conversation
from voxbench.eval.context import ConversationContext, HEvent, segment
from voxbench.eval.from_record import load_context


def test_small_record_turns(tmp_path: Path) -> None:
    c = load_context(small_conversation().write(tmp_path / "r"))
    assert c.audio_timestamps_assistant_turns == {
        0: [(0.5, 2.5)],
        1: [(6.0, 8.0)],
        2: [(14.0, 16.0)],
        3: [(20.75, 22.0)],
    }
    assert c.audio_timestamps_user_turns == {1: [(3.0, 5.0)], 2: [(9.0, 11.0)], 3: [(17.0, 18.0)]}
    assert c.latency_assistant_turns == {1: 1.0, 2: 3.0, 3: 2.75}
    assert [(t.turn_id, t.name) for t in c.tool_calls] == [(2, "get_reservation"), (2, "rebook_flight")]
    assert c.intended_user_turns[1].startswith("I need to change")
    assert c.transcribed_user_turns[1] == "I need to change my flight code ZK3FFW"
    assert c.intended_assistant_turns[0] == "Hello! How can I help you today?"
    assert c.transcribed_assistant_turns[2] == "Done. You are on flight SK2 for 120 dollars."
    kinds = [(e.get("type"), e.get("role"), e["turn_id"]) for e in c.conversation_trace]
    assert kinds[3:8] == [
        ("transcribed", "user", 2),
        ("tool_call", None, 2),
        ("tool_response", None, 2),
        ("tool_call", None, 2),
        ("tool_response", None, 2),
    ]
    assert c.simulator_ended_call is True and c.num_turns == 3


def _ctx(events: list[HEvent]) -> ConversationContext:
    c = ConversationContext(record_id="x")
    segment(events, c)
    return c


def A(t: float, kind: str, who: str) -> HEvent:
    return HEvent(t, kind, who)  # type: ignore[arg-type]


def test_turn_advances_only_after_agent_spoke() -> None:
    c = _ctx(
        [
            A(0, "audio_start", "assistant"), A(1, "audio_end", "assistant"),
            A(2, "audio_start", "user"), A(3, "audio_end", "user"), HEvent(3.1, "user_intended", text="a"),
            A(3.5, "audio_start", "user"), A(4, "audio_end", "user"), HEvent(4.1, "user_intended", text="b"),
            A(5, "audio_start", "assistant"), A(6, "audio_end", "assistant"),
        ]
    )  # fmt: skip
    assert c.audio_timestamps_user_turns == {1: [(2, 3), (3.5, 4)]}
    assert c.intended_user_turns == {1: "a b"}
    assert c.latency_assistant_turns == {1: 1.0}  # first agent start - LAST user end


def test_interruption_flags_and_tags() -> None:
    c = _ctx(
        [
            A(0, "audio_start", "assistant"), A(1, "audio_end", "assistant"),
            A(2, "audio_start", "user"), HEvent(2.5, "user_intended", text="long story"),
            A(3, "audio_start", "assistant"),  # agent barges in while the caller talks (turn 1)
            A(4, "audio_end", "user"), A(5, "audio_end", "assistant"), HEvent(3.1, "assistant_intended", text="sorry"),
            A(4.8, "audio_start", "user"), HEvent(4.9, "user_intended", text="wait"),  # caller barges in (turn 2)
            A(6, "audio_end", "user"),
        ]
    )  # fmt: skip
    assert c.assistant_interrupted_turns == [1]
    assert c.user_interrupted_turns == [2]
    assert c.intended_assistant_turns[1] == "[assistant interrupts] sorry [likely cut off by user]"
    assert c.intended_user_turns[2] == "[user interrupts] wait"


def test_empty_caller_session_is_dropped() -> None:
    c = _ctx(
        [
            A(0, "audio_start", "assistant"), A(1, "audio_end", "assistant"),
            A(1.5, "audio_start", "user"), A(1.6, "audio_end", "user"),  # a noise burst, no text
            A(1.7, "audio_start", "assistant"), A(1.9, "audio_end", "assistant"),
            A(10, "audio_start", "user"), A(11, "audio_end", "user"), HEvent(11.2, "user_intended", text="hi"),
            A(12, "audio_start", "assistant"), A(13, "audio_end", "assistant"),
        ]
    )  # fmt: skip
    assert c.audio_timestamps_user_turns == {1: [(10, 11)]}
    assert c.audio_timestamps_assistant_turns == {0: [(0, 1), (1.7, 1.9)], 1: [(12, 13)]}


def test_late_transcript_and_early_intended_text_land_on_their_audio() -> None:
    c = _ctx(
        [
            A(0, "audio_start", "assistant"), A(1, "audio_end", "assistant"),
            HEvent(1.5, "user_intended", text="first"),  # emitted before the caller's audio
            A(2, "audio_start", "user"), A(3, "audio_end", "user"),
            A(4, "audio_start", "assistant"), A(5, "audio_end", "assistant"),
            HEvent(5.2, "user_transcribed", text="first heard"),  # STT arriving after the reply
            A(9, "audio_start", "user"), A(10, "audio_end", "user"), HEvent(10.1, "user_intended", text="second"),
        ]
    )  # fmt: skip
    assert c.intended_user_turns == {1: "first", 2: "second"}
    # the caller's last turn was never transcribed (the call ended): EVA's intended stand-in
    assert c.transcribed_user_turns == {1: "first heard", 2: "second"}
    assert c.stt_fallback_turns == [2]


def test_caller_speaking_first_opens_turn_one_but_eva_mode_keeps_zero() -> None:
    ev = [A(0, "audio_start", "user"), A(1, "audio_end", "user"), HEvent(1, "user_intended", text="hi")]
    ev += [A(2, "audio_start", "assistant"), A(3, "audio_end", "assistant")]
    c = _ctx(list(ev))
    assert c.latency_assistant_turns == {1: 1.0}
    e = ConversationContext(record_id="e")
    segment(list(ev), e, caller_first_is_turn_1=False)
    assert e.audio_timestamps_user_turns == {0: [(0, 1)]}


def test_fallback_opens_an_agent_only_turn() -> None:
    c = _ctx(
        [
            A(0, "audio_start", "assistant"), A(1, "audio_end", "assistant"),
            A(2, "audio_start", "user"), A(3, "audio_end", "user"), HEvent(3, "user_intended", text="x"),
            A(4, "audio_start", "assistant"), A(5, "audio_end", "assistant"),
            HEvent(15, "fallback"), A(15.5, "audio_start", "assistant"), A(16, "audio_end", "assistant"),
        ]
    )  # fmt: skip
    assert c.fallback_turn_ids == [2]
    assert c.audio_timestamps_assistant_turns[2] == [(15.5, 16)]


def test_audio_segment_events_used_when_no_speech_stamps(tmp_path: Path) -> None:
    from voxbench.records import AudioSegment, Utterance

    conv = Conv()
    conv.events = [
        AudioSegment(t=0.0, channel="agent", state="start"), AudioSegment(t=1.0, channel="agent", state="end"),
        Utterance(t=1.9, side="user", channel="user", text="hello"),
        AudioSegment(t=2.0, channel="user", state="start"), AudioSegment(t=3.0, channel="user", state="end"),
        AudioSegment(t=3.5, channel="agent", state="start"), AudioSegment(t=4.0, channel="agent", state="end"),
    ]  # fmt: skip
    c = load_context(conv.write(tmp_path / "r"))
    assert c.latency_assistant_turns == {1: 0.5}


def test_fallback_nudge_event_of_a_voxbench_record(tmp_path: Path) -> None:
    from voxbench.eval.metrics.turn_taking import turn_taking
    from voxbench.eval.types import EvalConfig
    from voxbench.records import FallbackNudge

    conv = (
        Conv()
        .agent(0.5, 2.0, "Hello.")
        .user(3.0, 4.0, "Hi, I need help.")
        .agent(5.0, 6.0, "Sure, with what?")
    )
    conv.events.append(FallbackNudge(t=10.0, silence_s=4.0))  # the caller said nothing for 4 s
    conv.agent(10.6, 12.0, "Are you still there?").user(13.0, 14.0, "Yes, my flight.").agent(
        15.0, 16.0, "Okay."
    )
    c = load_context(conv.write(tmp_path / "r"))
    assert c.fallback_turn_ids == [2]
    assert c.audio_timestamps_assistant_turns[2] == [(10.6, 12.0)]
    assert c.audio_timestamps_user_turns == {1: [(3.0, 4.0)], 3: [(13.0, 14.0)]}
    r = turn_taking(c, EvalConfig())
    assert r.details["per_turn_reason"] == {1: "latency", 2: "turn_end_fallback", 3: "latency"}
    assert r.details["per_turn_score"] == {1: 1.0, 2: 0.0, 3: 1.0}
    assert r.sub_metrics["fallback_nudge.count"].score == 1.0
    assert r.sub_metrics["fallback_nudge.rate"].score == 0.25  # 1 of 4 agent turns
