"""The LLM caller in the ``tools`` reply format over the real loopback (virtual clock): opens
with the starting utterance, hangs up with a native ``end_call`` tool call.

Its model is the real OpenAI-compatible service (``make_llm``, as ``llm_caller_services``
builds it) talking to a fake server that streams the scripted replies and tool calls. The
``json`` format (the default) is tested in test_llm_simulator_json.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.fakes.openai_server import ChatReply, FakeChatServer
from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.llm_setup import llm_caller_services
from voxbench.pipelines.caller.llm_simulator import simulator_prompt
from voxbench.pipelines.config import LLMSimConfig, SimulatorConfig, TurnConfig, VADConfig
from voxbench.pipelines.services import LLMConfig
from voxbench.records import CallerAct, ToolCall, Utterance, read_record
from voxbench.transports.virtual_loop import run_virtual


def test_llm_caller_opens_and_hangs_up(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    opening = str(call.resolver.resolve(call.scenario.starting_utterance()))
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    cfg.simulator = SimulatorConfig(
        kind="llm",
        vad=vad,
        llm=LLMSimConfig(
            reply_format="tools", warm_up=False, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2)
        ),
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
    heard = ["Hello, how can I help?", "Your confirmation number?", "Found it. Anything else?"] * 3
    replies = [
        ChatReply("383S8U, last name Park."),
        ChatReply("No, that's all. Goodbye.", tool_calls=[("end_call", {"reason": "done"})]),
        ChatReply("Goodbye.", tool_calls=[("end_call", {})]),
    ]

    async def the_call() -> tuple[Any, FakeChatServer]:
        async with FakeChatServer(replies) as server:
            endpoint = LLMConfig(kind="openai-compatible", base_url=server.base_url, model="fake-caller")
            sim = llm_caller_services(
                call, cfg.simulator.llm, endpoint, tts=FakeTTS(f0=220.0), stt=FakeSTT(heard)
            )
            return await run_call(call, cfg, agent, sim, tmp_path), server

    record, server = run_virtual(the_call())
    assert record.status == "completed", record.error
    assert record.end_reason == "end_call"
    ev = read_record(tmp_path).events
    said = [e.text for e in ev if isinstance(e, Utterance) and e.channel == "user"]
    assert said == [opening, "383S8U, last name Park.", "No, that's all. Goodbye."]
    assert [e.name for e in ev if isinstance(e, ToolCall)] == ["get_reservation"]  # agent tools only
    acts = [(e.kind, e.rule, e.ends_call) for e in ev if isinstance(e, CallerAct) and e.rule]
    assert acts[-1] == ("end", "model_end_call", True)

    # the model saw the end_call tool and the call from the caller's side
    assert len(server.requests) == 2
    first = server.requests[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["end_call"]
    assert [m["role"] for m in first["messages"]] == ["system", "user", "assistant", "user"]
    assert first["messages"][2]["content"] == opening

    prompt = simulator_prompt(call, "tools")
    assert "383S8U" in prompt and "end_call tool" in prompt and "<LAST_NAME>" not in prompt
