"""One agent turn, heard in several recogniser segments, gets one caller reply (live, fakes,
virtual clock).

The caller's segmented STT transcribes each stretch of agent speech once the VAD stops, and its
transcript comes later than that stop (whisper takes 0.5-1.5 s on the shared cores). When the
agent's next sentence starts before that transcript is in, the transcript lands inside the next
segment, and pipecat's turn-stop strategies read its "final" flag as covering the whole turn: at
the next stop the turn ended with the previous segment's words, and the last segment came as a
turn of its own. Live bb.2 (2026-12-06): "You want a window seat?" got "No, that's not my
flight." and "Would you like to assign it now?", the same agent turn, got "Yes. I want a window
seat ..."; an ask heard in two pieces ("... your confirmation code" | "and last name ...") was
answered in two lines. Here the agent's voice leaves 0.5 s between sentences and the caller's
recogniser takes 0.6 s per segment; the turn must reach the policy whole, once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import GoalSimConfig, SimulatorConfig, TurnConfig, VADConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services.whisper_service import LOCAL_TTFS_P99_S
from voxbench.records import CallerAct, Transcript, read_record
from voxbench.records.models import SimulatorInfo
from voxbench.scenarios import load_dataset
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Hello! How can I help you today?"
READBACK = "You have a flight from New York to Los Angeles on May 11. You want a window seat?"
OFFER = "Would you like to assign it now?"
ASK_CODE = "Can you please provide your confirmation code?"  # the recogniser's '?' at a pause
ASK_REST = "and the last name on the booking."

CASES = {
    # a read-back of another flight, then an offer: one turn; its reply is the correction alone
    "readback_then_offer": ([READBACK, OFFER], "correct", None),
    # an ask cut at a pause inside its sentence: one reply with both facts
    "ask_in_two_pieces": ([ASK_CODE, ASK_REST], "answer", ["Your confirmation code", "Your last name"]),
}


def _run(
    tmp_path: Path, heard: list[str], stt_latency_s: float, agent_quiet_s: float = 1.0
) -> tuple[list[CallerAct], list[CallerAct]]:
    """The caller's acts before it heard the agent's goodbye, and after."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    call = CallScenario.from_domain(dd, "bb.2")
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    turn = TurnConfig(smart_turn=False, speech_timeout_s=0.2)
    goal = GoalSimConfig(turn=turn, statement_wait_s=0.5, agent_quiet_s=agent_quiet_s)
    cfg.simulator = SimulatorConfig(kind="goal", vad=vad, goal=goal)
    agent = AgentServices(
        stt=FakeSTT(["window seat", "the reply", "bye"]),
        # the agent's words; what the caller hears of them is its own recogniser's script
        llm=FakeLLM(
            [Reply("The first sentence of the turn, said in full. And its second one."), Reply("Goodbye.")]
        ),
        tts=FakeTTS(f0=120.0, trailing_silence_s=0.5),
    )
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0),
        # the safety net of the local whisper the caller hears with live
        stt=FakeSTT(
            [GREETING, *heard, "Goodbye."], latency_s=stt_latency_s, ttfs_p99_latency=LOCAL_TTFS_P99_S
        ),
        info=SimulatorInfo(kind="goal"),
    )
    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))
    assert record.status == "completed", record.error
    ev = read_record(tmp_path).events
    got = [e.text for e in ev if isinstance(e, Transcript) and e.channel == "agent" and e.final]
    assert got[:3] == [GREETING, *heard]  # the caller's recogniser heard two segments
    bye = next(e.t for e in ev if isinstance(e, Transcript) and e.channel == "agent" and e.text == "Goodbye.")
    acts = [e for e in ev if isinstance(e, CallerAct)]
    return [a for a in acts if a.t < bye], [a for a in acts if a.t >= bye]


def _one_reply(before: list[CallerAct], kind: str, facts: list[str] | None) -> None:
    """One act to the agent's one turn: no second line answering its last segment on its own."""
    assert [a.kind for a in before] == ["open", kind], [(a.kind, a.rule, a.text) for a in before]
    if facts is not None:
        assert before[1].facts == facts, before[1]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_late_transcript_does_not_end_the_turn_before_its_last_segment(tmp_path: Path, case: str) -> None:
    """The recogniser takes 1.5 s, past the agent's next sentence and past any quiet the caller
    waits for (none here): the turn must still end with its last segment's words
    (:class:`~voxbench.processors.segment_transcripts.SegmentTranscripts`)."""
    heard, kind, facts = CASES[case]
    before, _ = _run(tmp_path, heard, stt_latency_s=1.5, agent_quiet_s=0.0)
    _one_reply(before, kind, facts)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_reply_waits_out_the_pause_between_two_sentences(tmp_path: Path, case: str) -> None:
    """A quick recogniser: the turn detector ends the agent's turn at the 0.5 s between its
    sentences; the caller's reply waits for ``agent_quiet_s`` of agent quiet, the agent goes on
    within it, and one reply answers both sentences."""
    heard, kind, facts = CASES[case]
    before, _ = _run(tmp_path, heard, stt_latency_s=0.05)
    _one_reply(before, kind, facts)


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_agent_turn_in_two_segments_gets_one_reply(tmp_path: Path, case: str) -> None:
    """Both at once, as live: the recogniser 0.6 s, the default quiet."""
    heard, kind, facts = CASES[case]
    before, _ = _run(tmp_path, heard, stt_latency_s=0.6)
    _one_reply(before, kind, facts)


def test_a_segment_without_words_does_not_hold_up_later_turns(tmp_path: Path) -> None:
    """The recogniser finds no words in the agent's first sentence (noise): that segment never
    gets a transcript, so its turn ends by the safety net (``ttfs_p99_latency``); the ledger is
    then cleared, and the agent's next turn is answered after the usual quiet, not the net."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    call = CallScenario.from_domain(dd, "bb.2")
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    goal = GoalSimConfig(turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2), statement_wait_s=0.5)
    cfg.simulator = SimulatorConfig(kind="goal", vad=vad, goal=goal)
    ask = "Can you please provide your confirmation code and last name?"
    again = "Is there anything else I can help you with?"
    agent = AgentServices(
        stt=FakeSTT(["window seat", "the reply", "more"]),
        llm=FakeLLM(
            [Reply("The first sentence of the turn, said in full. And its second one."), Reply(again)]
        ),
        tts=FakeTTS(f0=120.0, trailing_silence_s=0.5),
    )
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0),
        stt=FakeSTT([GREETING, "", ask, again], latency_s=0.6, ttfs_p99_latency=LOCAL_TTFS_P99_S),
        info=SimulatorInfo(kind="goal"),
    )
    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))
    assert record.status == "completed", record.error
    ev = read_record(tmp_path).events
    heard = {e.text: e.t for e in ev if isinstance(e, Transcript) and e.channel == "agent" and e.final}
    acts = [e for e in ev if isinstance(e, CallerAct)]
    assert [a.kind for a in acts[:2]] == ["open", "answer"] and acts[1].facts == [
        "Your confirmation code",
        "Your last name",
    ]
    later = [a for a in acts if a.t > heard[again]]
    assert later, [(a.kind, a.text) for a in acts]
    # the quiet (1 s from the VAD stop, under 1 s from the transcript), not the 3 s net
    assert later[0].t - heard[again] < 1.0
