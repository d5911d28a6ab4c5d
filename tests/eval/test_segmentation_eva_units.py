"""Turn segmentation shapes from EVA's processor cases (issue 35), on hand-built histories."""

from __future__ import annotations

from voxbench.eval.context import ConversationContext, HEvent, segment, strip_tags


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


def _barge_in(*, tool_first: bool = False, pipeline: str = "cascade") -> ConversationContext:
    """The agent cuts in on the caller and gives up; the agent's STT then logs two chunks
    of the caller's words, the second after the agent has spoken; the agent answers."""
    ev = [
        *_speech("assistant", 0.0, 1.0, "Hi there.", "Hi there."),
        *_speech("user", 2.0, 9.0, "My code is A B C one two three and my name is Lee."),
        *([HEvent(3.5, "tool_call", name="lookup", data={})] if tool_first else []),
        *_speech("assistant", 4.0, 5.0, "Go ahead."),  # cuts in, stops; the caller talks on
        HEvent(9.2, "user_transcribed", text="My code is ABC123"),
        HEvent(9.6, "user_transcribed", text="and my name is Lee."),
        *_speech("assistant", 10.0, 11.0, "Thanks, Lee."),
        *_speech("user", 12.0, 12.5, "Bye."),
    ]
    return _segment(ev, pipeline)


def test_a_late_stt_chunk_after_the_agent_cut_in_opens_a_turn() -> None:
    """EVA: the first STT chunk after the agent's barge-in finishes the interrupted
    utterance (hold_turn); a further chunk, the agent having spoken, opens the next turn,
    and the agent's answer joins it. The caller's intended words stay with their audio."""
    ctx = _barge_in()
    assert ctx.assistant_interrupted_turns == [1]
    assert ctx.transcribed_user_turns == {1: "My code is ABC123", 2: "and my name is Lee.", 3: "Bye."}
    assert ctx.intended_user_turns == {
        1: "My code is A B C one two three and my name is Lee.",
        2: "",
        3: "Bye.",
    }
    assert ctx.audio_timestamps_assistant_turns == {0: [(0.0, 1.0)], 1: [(4.0, 5.0)], 2: [(10.0, 11.0)]}
    assert ctx.audio_timestamps_user_turns == {1: [(2.0, 9.0)], 3: [(12.0, 12.5)]}


def test_no_hold_after_a_tool_call_or_in_speech_to_speech() -> None:
    """The hold is EVA's cascade rule for a barge-in before any tool call of the turn;
    otherwise the first STT chunk after the agent spoke already opens the next turn."""
    for ctx in (_barge_in(tool_first=True), _barge_in(pipeline="s2s")):
        assert 1 not in ctx.transcribed_user_turns
        assert ctx.transcribed_user_turns[2] == "My code is ABC123 and my name is Lee."
        assert ctx.audio_timestamps_assistant_turns[2] == [(10.0, 11.0)]


def test_stt_chunks_do_not_open_turns_in_voxbench_records() -> None:
    """voxbench stamps a transcript when it arrives (an S2S model's transcription often
    lands after its reply has begun): outside EVA mode texts go with their audio."""
    ev = [
        *_speech("assistant", 0.0, 1.0, "Hi there."),
        *_speech("user", 2.0, 3.0, "I lost my bag."),
        *_speech("assistant", 3.4, 5.0, "Sorry to hear that."),
        HEvent(3.8, "user_transcribed", text="I lost my bag."),  # after the reply began
        *_speech("user", 6.0, 6.5, "Yes."),
        HEvent(6.7, "user_transcribed", text="Yes."),
    ]
    ctx = ConversationContext(record_id="x")
    segment(ev, ctx)
    assert ctx.transcribed_user_turns == {1: "I lost my bag.", 2: "Yes."}


def _empty_then(caller_start: float) -> ConversationContext:
    """Caller audio the simulator logged no speech for (the agent's STT heard words),
    the agent answers, then the caller speaks at `caller_start`."""
    ev = [
        *_speech("assistant", 0.0, 1.0, "Hello.", "Hello."),
        *_speech("user", 1.5, 2.5, "I need a refund.", "I need a refund."),
        *_speech("assistant", 3.0, 4.0, "What was the order?", "What was the order?"),
        *_speech("user", 5.0, 5.4),  # empty: no simulator text
        *_speech("user", 6.0, 6.3),  # empty again
        HEvent(7.0, "user_transcribed", text="Order nine nine."),
        *_speech("assistant", 7.5, 9.0, "Let me check order ninety nine.", "Let me check order 99."),
        *_speech("user", caller_start, caller_start + 1.0, "Order nine nine, and it was late."),
        HEvent(caller_start + 1.1, "user_transcribed", text="And it was late."),
        *_speech("assistant", 11.0, 12.0, "Refunded.", "Refunded."),
        *_speech("user", 13.0, 13.5, "Bye.", "Bye."),
    ]
    return _segment(ev)


def test_empty_caller_sessions_roll_back_into_the_turn_the_callers_words_open() -> None:
    """EVA rolls back the advance of caller audio with no simulator speech: it joins the
    turn the caller's words open (here the agent's STT of them), and a barge-in that
    follows only such audio continues that turn instead of opening another."""
    ctx = _empty_then(8.5)  # the caller cuts in on the agent's answer
    assert ctx.audio_timestamps_user_turns == {
        1: [(1.5, 2.5)],
        2: [(5.0, 5.4), (6.0, 6.3), (8.5, 9.5)],
        3: [(13.0, 13.5)],
    }
    assert ctx.audio_timestamps_assistant_turns[2] == [(7.5, 9.0), (11.0, 12.0)]
    assert ctx.user_interrupted_turns == [2]
    assert ctx.transcribed_user_turns[2] == "Order nine nine. [user interrupts] And it was late."
    assert strip_tags(ctx.intended_user_turns[2]) == "Order nine nine, and it was late."


def test_after_empty_caller_sessions_a_caller_who_waits_opens_a_new_turn() -> None:
    """The roll-back keeps a barge-in in the turn; a caller who waits for the agent's
    answer to end opens the next turn as usual."""
    ctx = _empty_then(9.5)
    assert ctx.audio_timestamps_user_turns == {
        1: [(1.5, 2.5)],
        2: [(5.0, 5.4), (6.0, 6.3)],
        3: [(9.5, 10.5)],
        4: [(13.0, 13.5)],
    }
    assert ctx.intended_user_turns[2] == "" and ctx.transcribed_user_turns[2] == "Order nine nine."
    assert ctx.user_interrupted_turns == []


def test_no_stt_chunk_opens_a_turn_while_the_interrupted_caller_still_speaks() -> None:
    """After the agent's barge-in, chunks logged while the caller's session is still open
    are that utterance's words (EVA's hold_turn); a chunk after it ends, the agent having
    spoken, opens the next turn as in the short-fragment case."""
    ev = [
        *_speech("assistant", 0.0, 1.0, "Hi there."),
        *_speech("user", 2.0, 20.0, "A long story about my lost bag and the refund."),
        *_speech("assistant", 5.0, 5.5, "Mm-hm."),  # cuts in, stops
        HEvent(8.0, "user_transcribed", text="A long story"),
        HEvent(12.0, "user_transcribed", text="about my lost bag"),
        HEvent(16.0, "user_transcribed", text="and the"),
        HEvent(20.5, "user_transcribed", text="refund."),
        *_speech("assistant", 21.0, 22.0, "Let me check."),
    ]
    ctx = _segment(ev)
    assert ctx.transcribed_user_turns == {1: "A long story about my lost bag and the", 2: "refund."}
    assert ctx.audio_timestamps_assistant_turns == {0: [(0.0, 1.0)], 1: [(5.0, 5.5)], 2: [(21.0, 22.0)]}
