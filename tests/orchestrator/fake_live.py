"""A conversation fn for tests: the real live runner over loopback, with fake services.

Runs inside an orchestrator worker process, so the orchestrator's live path (adapter,
record stamping, validation) is exercised end to end without model weights, on the virtual
clock (``run_live(..., virtual_clock=True)``): a call costs its CPU time, not its length.
"""

from __future__ import annotations

from pathlib import Path

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from voxbench.orchestrator import ConversationJob
from voxbench.orchestrator.live import run_live
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.session import CallSession
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.records import AgentInfo, ServicePart

FAST_CALL = {
    "agent": {
        "vad": {"engine": "energy", "start_secs": 0.1, "stop_secs": 0.25},
        "turn": {"smart_turn": False, "speech_timeout_s": 0.2},
    },
    "simulator": {
        "vad": {"engine": "energy", "start_secs": 0.1, "stop_secs": 0.25},
        "trace": {"turn_gap_s": 0.8, "no_greeting_s": 3},
    },
    "limits": {"inactivity_s": 10, "drain_s": 1},
    "post_call_transcribe_agent": False,  # fake TTS is a buzz: nothing to transcribe
}


def fake_live_conversation(job: ConversationJob) -> Path:
    call = CallSession(job.spec, Path(job.output_dir)).scenario()
    lines = reference_user_lines(call.scenario, call.resolver)
    script = [Reply("Of course, how can I help?")] + [Reply("Let me check that for you.") for _ in lines]
    agent = AgentServices(
        stt=FakeSTT(lines),
        llm=FakeLLM(script),
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake", stt=ServicePart(vendor="fake")),
    )
    sim = SimulatorServices(tts=FakeTTS(f0=220.0))
    return run_live(job, agent, sim, virtual_clock=True)  # fakes only: no real time needed
