"""The seven inline interruption tags, each from a hand-built record (rules in eval/tags.py)."""

from __future__ import annotations

from pathlib import Path

from tests.eval.builders import Conv
from voxbench.eval.context import ConversationContext, HEvent, segment
from voxbench.eval.from_record import load_context
from voxbench.eval.tags import ALL_TAGS, TAG_PAUSE, cut_off, iter_regions, tags_in
from voxbench.records import Speech, Transcript, TTSText, Utterance


def _trace(c: ConversationContext, role: str, turn: int) -> str:
    return next(e["content"] for e in c.conversation_trace if e.get("role") == role and e["turn_id"] == turn)


def test_agent_barges_in_and_cuts_the_caller_off(tmp_path: Path) -> None:
    c = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello, how can I help?")
        .user(3.0, 6.0, "I want to rebook my flight to Boston.")
        .agent(5.0, 7.0, "Let me look that up.")  # starts inside the caller's speech, outlasts it
        .write(tmp_path / "r")
    )
    assert c.assistant_interrupted_turns == [1]
    assert c.intended_assistant_turns[1] == "[assistant interrupts] Let me look that up."
    # EVA: the cut-off tag is in the trace only, not in the caller's turn texts
    assert c.intended_user_turns[1] == "I want to rebook my flight to Boston."
    assert c.transcribed_user_turns[1] == "I want to rebook my flight to Boston."
    assert _trace(c, "user", 1).endswith("[likely cut off by assistant]")
    assert _trace(c, "assistant", 1).startswith("[assistant interrupts]")
    assert tags_in(c.intended_assistant_turns[0]) == []


def test_caller_barges_in_and_cuts_the_agent_off(tmp_path: Path) -> None:
    c = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello.")
        .user(3.0, 4.0, "Change my flight.")
        .agent(5.0, 8.0, "Sure. Your flight leaves at nine and the fee is fifty dollars.")
        .user(7.0, 9.0, "Wait, which flight?")  # the agent stops at 8.0 while the caller talks
        .agent(10.0, 11.0, "Flight SK2.")
        .write(tmp_path / "r")
    )
    assert c.user_interrupted_turns == [2]
    assert c.intended_assistant_turns[1].endswith("fifty dollars. [likely cut off by user]")
    assert c.intended_user_turns[2] == "[user interrupts] Wait, which flight?"
    assert tags_in(c.intended_assistant_turns[2]) == []


def test_caller_cuts_in_but_agent_talks_on_marks_where_inside_its_text(tmp_path: Path) -> None:
    conv = Conv().agent(0.5, 2.0, "Hello.").user(3.0, 4.0, "What is the fee?")
    conv.events += [
        TTSText(t=4.7, side="agent", channel="agent", text="Sure."),
        Speech(t=5.0, channel="agent", state="onset"),
        TTSText(t=7.5, side="agent", channel="agent", text="The fee is fifty dollars."),
        Speech(t=10.0, channel="agent", state="offset"),
    ]
    conv.user(6.0, 7.0, "Okay.")  # a short caller cut-in the agent does not yield to
    c = load_context(conv.write(tmp_path / "r"))
    assert c.intended_assistant_turns[1] == "Sure. [user interrupts] The fee is fifty dollars."
    assert c.intended_user_turns[2] == "[user interrupts] Okay."


def test_speaker_cut_itself_off_only_when_it_resumes_in_the_turn(tmp_path: Path) -> None:
    resumed = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello.")
        .user(3.0, 9.0, "The code is Z K three F F W.")
        .agent(4.0, 5.0, "Take your time.")  # cuts in, gives up while the caller goes on
        .agent(10.0, 12.0, "Got it, ZK3FFW.")  # and speaks again in the same turn
        .write(tmp_path / "a")
    )
    assert resumed.intended_assistant_turns[1] == (
        "[assistant interrupts] Take your time. [speaker likely cut itself off] Got it, ZK3FFW."
    )
    assert tags_in(resumed.intended_user_turns[1]) == []  # the caller was not cut off
    gave_up = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello.")
        .user(3.0, 9.0, "The code is Z K three F F W.")
        .agent(4.0, 5.0, "Take your time.")
        .user(11.0, 12.0, "Did you get that?")
        .write(tmp_path / "b")
    )
    # a short reply inside a long caller session, not resumed: no cut-off claim (EVA 1.1.2 turn 3)
    assert gave_up.intended_assistant_turns[1] == "[assistant interrupts] Take your time."


def test_inline_assistant_interrupts_between_caller_chunks(tmp_path: Path) -> None:
    conv = Conv().agent(0.5, 2.0, "Spell the code please.")
    conv.events += [
        Utterance(t=2.8, side="user", channel="user", text="It is Z K three."),
        Speech(t=3.0, channel="user", state="onset"),
        Transcript(t=4.0, side="agent", channel="user", text="It is"),
        Speech(t=8.0, channel="user", state="offset"),
        Transcript(t=8.3, side="agent", channel="user", text="Z K three."),
    ]
    conv.agent(5.0, 6.0, "I'm here.")
    c = load_context(conv.write(tmp_path / "r"))
    assert c.transcribed_user_turns[1] == "It is [assistant interrupts] Z K three."
    assert c.intended_user_turns[1] == "It is Z K three."  # one chunk: no place to mark
    assert _trace(c, "user", 1) == "It is [assistant interrupts] Z K three."


def test_pause_for_a_tool_call_between_agent_speech(tmp_path: Path) -> None:
    c = load_context(
        Conv()
        .agent(0.5, 2.0, "Hello.")
        .user(3.0, 4.0, "Find booking ZK3FFW.")
        .tool(5.0, "get_reservation", {"confirmation_number": "ZK3FFW"}, {"status": "success"})
        .agent(5.2, 6.0, "One moment please.")
        .agent(8.0, 10.0, "I found booking ZK3FFW.")
        .write(tmp_path / "r")
    )
    assert c.intended_assistant_turns[1] == "One moment please. [pause] I found booking ZK3FFW."
    assert c.tool_turns() == {1}


def test_likely_interruption_for_an_unexplained_break_or_a_cut_recording(tmp_path: Path) -> None:
    def conv(gap: float) -> Conv:
        return (
            Conv()
            .agent(0.5, 2.0, "Hello.")
            .user(3.0, 4.0, "Is my flight on time?")
            .agent(5.0, 6.0, "Let me see.")
            .agent(6.0 + gap, 7.0 + gap, "Your flight is on time.")
        )

    c = load_context(conv(2.0).write(tmp_path / "a"))
    assert c.intended_assistant_turns[1] == "Let me see. [likely interruption] Your flight is on time."
    c = load_context(conv(0.5).write(tmp_path / "b"))  # a sentence pause
    assert c.intended_assistant_turns[1] == "Let me see. Your flight is on time."
    # the recording stopped 50 ms after the agent's last sound: its words were cut
    c = load_context(conv(0.5).write(tmp_path / "c", end_t=7.55))
    assert c.intended_assistant_turns[1] == "Let me see. Your flight is on time. [likely interruption]"


def test_eva_mode_tags_a_conversation_ending_on_agent_speech() -> None:
    def A(t: float, kind: str, who: str) -> HEvent:
        return HEvent(t, kind, who)  # type: ignore[arg-type]

    ev = [
        A(0, "audio_start", "assistant"), HEvent(0.1, "assistant_intended", text="Welcome!"),
        A(1, "audio_end", "assistant"), A(2, "audio_start", "user"), HEvent(2.1, "user_intended", text="Rebook me"),
        A(3, "audio_end", "user"), HEvent(3.5, "assistant_intended", text="Sure."),
        A(4, "audio_start", "assistant"), A(5, "audio_end", "assistant"),
    ]  # fmt: skip
    eva = ConversationContext(record_id="e")
    segment(list(ev), eva, caller_first_is_turn_1=False, final_agent_cut=True)
    assert eva.intended_assistant_turns == {0: "Welcome!", 1: "Sure. [speaker likely cut itself off]"}
    ours = ConversationContext(record_id="v")
    segment(list(ev), ours)
    assert ours.intended_assistant_turns == {0: "Welcome!", 1: "Sure."}
    greeting_only = ConversationContext(record_id="g")
    segment(ev[:3], greeting_only, final_agent_cut=True)
    assert greeting_only.intended_assistant_turns == {0: "Welcome!"}


def test_regions_split_text_at_tags() -> None:
    text = "[assistant interrupts] Take your time. [speaker likely cut itself off] Got it."
    assert list(iter_regions(text)) == [
        ("", "[assistant interrupts]"),
        (" Take your time. ", "[speaker likely cut itself off]"),
        (" Got it.", None),
    ]
    assert len(ALL_TAGS) == 7 and tags_in("[slow] x [pause] y") == ["[pause]"]


def test_cut_off_is_any_tag_of_lost_words_but_a_pause() -> None:
    """The one test of a line cut off or overlapped (progression's re-ask, conciseness's said again)."""
    for tag in ALL_TAGS:
        line = f"My ID is E M P {tag} zero four"
        assert cut_off(line) is (tag != TAG_PAUSE)
        assert not cut_off(line, at_end=True)
        assert cut_off(f"My ID is E M P zero four {tag} ", at_end=True) is (tag != TAG_PAUSE)
    assert not cut_off("My ID is E M P zero four, cut off and interrupted.")
