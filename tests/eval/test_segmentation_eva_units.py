"""Turn segmentation shapes from EVA's processor cases (issue 35), on hand-built histories."""

from __future__ import annotations

from voxbench.eval.context import ConversationContext, HEvent, segment


def _speech(
    who: str, start: float, end: float, text: str | None = None, heard: str | None = None
) -> list[HEvent]:
    out = [HEvent(start, "audio_start", who), HEvent(end, "audio_end", who)]  # type: ignore[arg-type]
    if text is not None:
        out.append(HEvent(start + 0.05, f"{who}_intended", text=text))
    if heard is not None:
        out.append(HEvent(end + 0.05, f"{who}_transcribed", text=heard))
    return out


def _segment(events: list[HEvent], pipeline: str = "cascade") -> ConversationContext:
    ctx = ConversationContext(record_id="x", pipeline_type=pipeline)
    segment(events, ctx, caller_first_is_turn_1=False, final_agent_cut=True)
    return ctx


def test_empty_caller_session_keeps_its_turn_with_an_empty_intended_text() -> None:
    """The caller made a sound the simulator logged no speech for; the agent's STT heard
    words there. The session stays in its turn, with intended text "" (EVA's shape)."""
    ev = [
        *_speech("assistant", 0.5, 1.5, "Hello.", "Hello."),
        *_speech("user", 2.0, 3.0, "I want to cancel.", "I want to cancel."),
        *_speech("assistant", 3.5, 4.5, "Which booking?", "Which booking?"),
        *_speech("user", 5.0, 5.4, None, "The one to Boston."),  # no simulator speech logged
        *_speech("assistant", 6.0, 7.0, "Done.", "Done."),
        *_speech("user", 8.0, 9.0, "Thanks, bye.", "Thanks, bye."),
    ]
    ctx = _segment(ev)
    assert ctx.audio_timestamps_user_turns == {1: [(2.0, 3.0)], 2: [(5.0, 5.4)], 3: [(8.0, 9.0)]}
    assert ctx.intended_user_turns == {1: "I want to cancel.", 2: "", 3: "Thanks, bye."}
    assert ctx.transcribed_user_turns[2] == "The one to Boston."
    # the trace shows what was heard, and no empty entry
    assert [e["content"] for e in ctx.conversation_trace if e.get("role") == "user"] == [
        "I want to cancel.",
        "The one to Boston.",
        "Thanks, bye.",
    ]


def test_s2s_agent_turns_have_empty_intended_texts_and_the_trace_uses_what_was_heard() -> None:
    ev = [
        *_speech("assistant", 0.5, 1.5, None, "Welcome."),
        *_speech("user", 2.0, 3.0, "Change my seat.", None),
        HEvent(3.2, "tool_call", name="get_seat", data={}),
        HEvent(3.3, "tool_response", name="get_seat", data={"status": "success"}),
        *_speech("assistant", 3.5, 5.0, None, "Your seat is 12A."),
        *_speech("user", 5.5, 6.0, "Bye.", None),
    ]
    ctx = _segment(ev, "s2s")
    assert ctx.intended_assistant_turns == {0: "", 1: ""}
    assert ctx.transcribed_assistant_turns == {0: "Welcome.", 1: "Your seat is 12A."}
    asst = [(e["content"], e["type"]) for e in ctx.conversation_trace if e.get("role") == "assistant"]
    assert asst == [("Welcome.", "transcribed"), ("Your seat is 12A.", "transcribed")]
    assert ctx.tool_turns() == {1}


def test_no_stt_log_at_all_gives_no_empty_stt_entries() -> None:
    """Only the maps EVA keys by turn get "" entries: a record without any agent STT keeps
    an empty transcribed map, so stt_wer stays skipped instead of counting deletions."""
    ev = [*_speech("assistant", 0.5, 1.5, "Hello."), *_speech("user", 2.0, 3.0, "Hi.")]
    ctx = _segment(ev)
    assert ctx.transcribed_user_turns == {} and ctx.transcribed_assistant_turns == {}
    assert ctx.intended_user_turns == {1: "Hi."}


def test_the_callers_transcript_of_the_agent_belongs_to_the_session_it_heard() -> None:
    """The simulator's transcript of the agent arrives after that speech ends; here it
    arrives nearer the agent's next session (the agent cut in, gave up, spoke again).
    It belongs to the first session, so the cut-off tag follows its words (EVA)."""
    ev = [
        *_speech("assistant", 0.5, 1.0, "Hello.", "Hello."),
        *_speech("user", 2.0, 6.0, "It is X F six, O H.", None),
        HEvent(6.1, "user_transcribed", text="It is X F 6 O H."),
        *_speech("assistant", 3.0, 3.6, "Take your time.", None),  # cuts in, stops
        HEvent(6.3, "assistant_transcribed", text="Take your time."),  # late, nearer the next
        *_speech("assistant", 6.5, 7.5, "Got it.", None),
        HEvent(7.6, "assistant_transcribed", text="Got it."),
        *_speech("user", 8.0, 8.5, "Yes.", "Yes."),
    ]
    ctx = _segment(ev)
    assert ctx.assistant_interrupted_turns == [1]
    want = "[assistant interrupts] Take your time. [speaker likely cut itself off] Got it."
    assert ctx.transcribed_assistant_turns[1] == want
    assert ctx.intended_assistant_turns[1] == want
