"""S2S and hybrid agents: one scripted call each, with a tool call, through pipecat's
OpenAIRealtimeLLMService pointed at a local server speaking the Realtime protocol.

The server runs on the test's event loop and answers over a real loopback WebSocket, so each
call runs on the virtual clock (``run_virtual``): the server's time to first output is a
sleep on that clock, and the record's ``llm_ttft`` is that figure exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.services import FakeTTS
from tests.pipelines.agents.conftest import fast_config
from tests.pipelines.agents.realtime_server import Call, FakeRealtimeServer, Say
from voxbench.pipelines.agent.builder import build_agent_services
from voxbench.pipelines.agent.profiles import BUILTIN_PROFILES, profiles_from_yaml
from voxbench.pipelines.agent.s2s import RealtimeAgentServices
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import Speech, StageTiming, ToolCall, ToolResult, TTSText, UsageEvent, read_record
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Hello! How can I help you today?"


def script() -> list[Say | Call]:
    return [
        Say(GREETING),
        Say("Of course. May I have your confirmation number and last name?"),
        Call("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"}),
        Say("I found your reservation. I cannot share another passenger's details."),
        Say("He can call us with his confirmation code."),
    ]


def profile_yaml(tmp_path: Path, base: str, url: str) -> Path:
    path = tmp_path / "agents.yaml"
    path.write_text(f"local-realtime:\n  base: {base}\n  realtime:\n    base_url: {url}\n", encoding="utf-8")
    return path


async def _call(
    call: CallScenario, tmp_path: Path, base: str, tts: FakeTTS | None
) -> tuple[FakeRealtimeServer, Path]:
    lines = reference_user_lines(call.scenario, call.resolver)
    server = await FakeRealtimeServer(script(), transcripts=lines).start()
    try:
        profile = profiles_from_yaml(profile_yaml(tmp_path, base, server.url), BUILTIN_PROFILES)[
            "local-realtime"
        ]
        services = build_agent_services(profile)
        assert isinstance(services, RealtimeAgentServices)
        if tts is not None:
            services.tts = tts  # the hybrid's TTS: a fake, so only the realtime leg is under test
        out = tmp_path / "rec"
        record = await run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS(f0=220.0)), out)
    finally:
        await server.stop()
    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    return server, out


def _common_checks(server: FakeRealtimeServer, out: Path, modality: str) -> list:
    # the session got the policy, the greeting and the domain tools
    session = server.sessions[-1]
    assert "get_reservation" in [t["name"] for t in session["tools"]]
    assert GREETING in session["instructions"]
    assert session["output_modalities"] == [modality]
    # the tool call reached the ToolExecutor and its result went back to the model
    assert len(server.tool_outputs) == 1 and '"success"' in server.tool_outputs[0]["output"]
    b = read_record(out)
    ev = b.events
    calls = [e for e in ev if isinstance(e, ToolCall)]
    results = [e for e in ev if isinstance(e, ToolResult)]
    assert [c.name for c in calls] == ["get_reservation"]
    assert results and results[0].status == "success"
    assert b.final_db is not None and b.final_db.get("session", {}).get("confirmation_number") == "383S8U"
    # the caller heard the agent several times (greeting + answers)
    onsets = [e for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    assert len(onsets) >= 4
    # usage and timing from pipecat's metrics, cost estimated in the record
    usage = [e for e in ev if isinstance(e, UsageEvent) and e.side == "agent"]
    assert usage and all(u.prompt_tokens == 120 for u in usage)
    ttft = [e.seconds for e in ev if isinstance(e, StageTiming) and e.stage == "llm_ttft"]
    assert ttft and min(ttft) >= server.first_delta_s, ttft
    summary = b.record.extra["usage"]
    assert summary["estimate"] is True
    assert summary["llm"]["gpt-realtime"]["completion_tokens"] == 30 * len(usage)
    assert summary["estimated_cost_usd"] and summary["estimated_cost_usd"] > 0
    assert b.record.agent.name == "local-realtime"
    return ev


@pytest.mark.usefixtures("fake_keys")
def test_s2s_openai_realtime_call_with_tool(call: CallScenario, tmp_path: Path) -> None:
    server, out = run_virtual(_call(call, tmp_path, "s2s-openai-realtime", tts=None))
    ev = _common_checks(server, out, "audio")
    # on the virtual clock the model's time to first output is exactly the server's delay
    ttft = {e.seconds for e in ev if isinstance(e, StageTiming) and e.stage == "llm_ttft"}
    assert ttft == {server.first_delta_s}
    assert read_record(out).record.agent.architecture == "s2s"
    # the transcript of the model's speech is recorded as the agent's text
    assert any(isinstance(e, TTSText) and "found your reservation" in e.text for e in ev)
    # the user's turns were detected by the (server) VAD and answered
    assert server.user_turns >= 3


@pytest.mark.usefixtures("fake_keys")
def test_hybrid_openai_realtime_text_call_with_tool(call: CallScenario, tmp_path: Path) -> None:
    tts = FakeTTS(f0=120.0)
    server, out = run_virtual(_call(call, tmp_path, "hybrid-openai-realtime-text", tts=tts))
    ev = _common_checks(server, out, "text")
    assert read_record(out).record.agent.architecture == "hybrid"
    # the model answered in text and our TTS spoke it
    spoken = " ".join(tts.spoken)
    assert "found your reservation" in spoken and GREETING.split("!")[0] in spoken
    assert any(isinstance(e, StageTiming) and e.stage == "tts_ttfb" for e in ev)
