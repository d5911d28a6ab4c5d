"""The LLM caller over the real loopback (virtual clock): opens with the starting utterance, hangs up via end_call.

``tools`` reply format: a fake LLM service talks in pipecat's chat context and calls end_call.
The ``json`` format (the default) runs against a fake OpenAI-compatible server in
test_llm_simulator_json.py.
"""

from __future__ import annotations

from pathlib import Path

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.llm_simulator import simulator_prompt
from voxbench.pipelines.config import LLMSimConfig, SimulatorConfig, TurnConfig, VADConfig
from voxbench.records import ToolCall, Utterance, read_record
from voxbench.transports.virtual_loop import run_virtual


def test_llm_caller_opens_and_hangs_up(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    opening = str(call.resolver.resolve(call.scenario.starting_utterance()))
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    cfg.simulator = SimulatorConfig(
        kind="llm",
        vad=vad,
        llm=LLMSimConfig(reply_format="tools", turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2)),
    )
    agent = AgentServices(
        stt=FakeSTT([opening, "383S8U, Park.", "No, that's all."]),
        llm=FakeLLM(
            [
                Reply("May I have your confirmation number and last name?"),
                Reply(
                    tool_calls=[("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})]
                ),
                Reply("I found your booking. Anything else?"),
                Reply("Goodbye."),
            ]
        ),
        tts=FakeTTS(f0=120.0),
    )
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0),
        stt=FakeSTT(["Hello, how can I help?", "Your confirmation number?", "Found it. Anything else?"] * 3),
        llm=FakeLLM(
            [
                Reply("383S8U, last name Park."),
                Reply("No, that's all. Goodbye.", tool_calls=[("end_call", {"reason": "done"})]),
                Reply("Goodbye.", tool_calls=[("end_call", {})]),
            ]
        ),
    )
    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))
    assert record.status == "completed", record.error
    assert record.end_reason == "end_call"
    ev = read_record(tmp_path).events
    said = [e.text for e in ev if isinstance(e, Utterance)]
    assert said[0] == opening
    assert any("Goodbye" in s for s in said)
    assert [e.name for e in ev if isinstance(e, ToolCall)] == ["get_reservation"]  # agent tools only

    prompt = simulator_prompt(call, "tools")
    assert "383S8U" in prompt and "end_call tool" in prompt and "<LAST_NAME>" not in prompt
