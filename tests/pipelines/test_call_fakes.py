"""A whole conversation over the real loopback WebSocket, with fake services (seconds)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import (
    AgentConfig,
    CallConfig,
    LimitsConfig,
    SimulatorConfig,
    TraceSimConfig,
    TurnConfig,
    VADConfig,
)
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import (
    AgentInfo,
    BargeIn,
    EndEvent,
    LLMText,
    ServicePart,
    Speech,
    ToolCall,
    ToolResult,
    Transcript,
    Utterance,
    VADEvent,
    read_record,
)
from voxbench.scenarios import check_task_completion, load_dataset
from voxbench.transports.virtual_loop import run_virtual

SCENARIO = "7.4.1"


def fast_config(**kw) -> CallConfig:
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    kw.setdefault("post_call_transcribe_agent", False)  # fake TTS is a buzz: nothing to transcribe
    return CallConfig(
        agent=AgentConfig(vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2)),
        simulator=SimulatorConfig(
            kind="trace", vad=vad, trace=TraceSimConfig(turn_gap_s=0.8, no_greeting_s=3)
        ),
        limits=LimitsConfig(time_limit_s=60, inactivity_s=10, drain_s=2),
        **kw,
    )


def call_input(eva_data: Path) -> CallScenario:
    dd = load_dataset(eva_data, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, SCENARIO)


def agent_services(lines: list[str]) -> AgentServices:
    script = [
        Reply("Of course. May I have your confirmation number and last name?"),
        Reply("I need the confirmation number and last name to pull up a reservation."),
        Reply(tool_calls=[("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})]),
        Reply("I found your reservation. I cannot share another passenger's details."),
        Reply("He can call us with his confirmation code."),
        Reply("Is there anything else I can help you with?"),
    ]
    return AgentServices(
        stt=FakeSTT(lines),
        llm=FakeLLM(script),
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake", stt=ServicePart(vendor="fake")),
    )


def test_fake_call_over_loopback(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    from voxbench.pipelines.caller.trace_simulator import reference_user_lines

    lines = reference_user_lines(call.scenario, call.resolver)
    assert len(lines) == 5
    sim = SimulatorServices(tts=FakeTTS(f0=220.0))
    record = run_virtual(run_call(call, fast_config(), agent_services(lines), sim, tmp_path))

    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    b = read_record(tmp_path)
    ev = b.events
    assert [e.t for e in ev] == sorted(e.t for e in ev)
    assert isinstance(ev[-1], EndEvent) or any(isinstance(e, EndEvent) for e in ev)

    # the simulator said its three lines, the agent heard them
    utter = [e for e in ev if isinstance(e, Utterance)]
    assert [u.text for u in utter] == lines
    heard = [e.text for e in ev if isinstance(e, Transcript) and e.channel == "user" and e.side == "agent"]
    assert heard == lines

    # tool call executed against the scenario db and recorded
    calls = [e for e in ev if isinstance(e, ToolCall)]
    results = [e for e in ev if isinstance(e, ToolResult)]
    assert [c.name for c in calls] == ["get_reservation"]
    assert results and results[0].status == "success"
    assert b.final_db is not None and b.final_db.get("session", {}).get("confirmation_number") == "383S8U"
    assert any(isinstance(e, LLMText) and "found your reservation" in e.text for e in ev)

    # speech stamps: user onsets/offsets alternate and match the audio on disk
    sp = {ch: [e for e in ev if isinstance(e, Speech) and e.channel == ch] for ch in ("user", "agent")}
    assert len([e for e in sp["user"] if e.state == "onset"]) == 5
    assert len([e for e in sp["agent"] if e.state == "onset"]) >= 6  # greeting, answers, filler
    user_wav, sr = sf.read(tmp_path / "user.wav", dtype="int16")
    segs = detect_segments(np.asarray(user_wav), sr)
    onsets = [e.t for e in sp["user"] if e.state == "onset"]
    assert len(segs) == 5
    for (a, _), t in zip(segs, onsets, strict=True):
        assert abs(a - t) < 0.005
    mix, sr2 = sf.read(tmp_path / "mix.wav", dtype="int16")
    assert mix.ndim == 2 and mix.shape[1] == 2 and sr2 == 16000

    # VAD events on both sides; no barge-ins in a polite call
    assert any(isinstance(e, VADEvent) and e.side == "agent" for e in ev)
    assert any(isinstance(e, VADEvent) and e.side == "user" for e in ev)
    assert not any(isinstance(e, BargeIn) for e in ev)

    # task completion is computable from the folder alone
    exp = b.scenario["ground_truth"]["expected_scenario_db"]
    tc = check_task_completion(exp, b.final_db)
    assert tc.actual_hash == record.final_db_hash
