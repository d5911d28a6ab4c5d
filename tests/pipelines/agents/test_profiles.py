"""Profiles: every one constructs without network; preflight fails in one actionable line;
YAML profiles; the tool bridge protocol; the cost estimate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pipecat.services.llm_service import LLMService
from pipecat.services.stt_service import STTService
from pipecat.services.tts_service import TTSService
from pipecat.transports.websocket.server import SingleClientWebsocketServerTransport

from tests.pipelines.agents.conftest import FAKE_KEYS
from voxbench.cli.main import main
from voxbench.pipelines.agent.builder import build_agent, build_agent_services
from voxbench.pipelines.agent.cascade import AgentInputs
from voxbench.pipelines.agent.external import ExternalAgentServices
from voxbench.pipelines.agent.pricing import usage_summary
from voxbench.pipelines.agent.profiles import (
    BUILTIN_PROFILES,
    AgentProfile,
    ProfileUnavailable,
    load_profiles,
    preflight,
    profiles_from_yaml,
)
from voxbench.pipelines.agent.s2s import RealtimeAgentServices
from voxbench.pipelines.agent.tool_bridge import ToolBridge, call_tool, list_tools
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.config import AgentConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl
from voxbench.records import AgentInfo, TTSText, UsageEvent
from voxbench.scenarios import ToolExecutor
from voxbench.transports.pairing import server_params
from voxbench.transports.serializers import AudioOnlyProtobufSerializer

CLOUD = sorted(n for n, p in BUILTIN_PROFILES.items() if p.env_keys())


class _Server:
    """Stands in for a started LocalLLMServer (nothing is contacted at construction)."""

    running = True
    base_url = "http://127.0.0.1:9/v1"
    model = "qwen2.5-coder-0.5b-instruct-q4_k_m"


def test_builtin_profiles_cover_the_issue() -> None:
    archs = {p.architecture for p in BUILTIN_PROFILES.values()}
    assert archs == {"cascade", "hybrid", "s2s", "external"}
    for name in (
        "cascade-local",
        "cascade-openai",
        "cascade-deepgram-cartesia",
        "hybrid-openai-realtime-text",
        "hybrid-gemini-live-text",
        "hybrid-ultravox",
        "s2s-openai-realtime",
        "s2s-gemini-live",
        "s2s-ultravox",
        "external-ws",
        "external-twilio",
    ):
        assert name in BUILTIN_PROFILES


@pytest.mark.usefixtures("fake_keys")
@pytest.mark.parametrize("name", sorted(BUILTIN_PROFILES))
def test_every_profile_constructs_without_network(name: str, call: CallScenario) -> None:
    profile = BUILTIN_PROFILES[name]
    services = build_agent_services(profile, server=_Server())
    if profile.architecture == "cascade":
        assert isinstance(services, AgentServices)
        assert isinstance(services.stt, STTService)
        assert isinstance(services.llm, LLMService)
        assert isinstance(services.tts, TTSService)
    elif profile.architecture == "external":
        assert isinstance(services, ExternalAgentServices)
    else:
        assert isinstance(services, RealtimeAgentServices)
        assert isinstance(services.llm, LLMService)
        assert (services.tts is not None) == (profile.architecture == "hybrid")
    assert services.info.name == name and services.info.architecture == profile.architecture
    assert "fake-" not in repr(services.info)  # keys never reach the record
    # and the agent pipeline is assembled around an (unstarted) server transport
    params = server_params(AudioOnlyProtobufSerializer(), 16000)
    transport = SingleClientWebsocketServerTransport(params=params, host="127.0.0.1", port=9)
    executor = ToolExecutor(call.domain, call.initial_db, call.scenario.current_date_time, call.agent)
    inputs = AgentInputs(
        call.agent,
        executor,
        call.scenario.current_date_time,
        AgentConfig(),
        CallControl(),
        ConversationClock(),
        16000,
    )
    agent = build_agent(services, transport, inputs)
    assert agent.pipeline is not None


@pytest.mark.parametrize("name", CLOUD)
def test_missing_key_fails_in_one_actionable_line(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for k in FAKE_KEYS:
        monkeypatch.delenv(k, raising=False)
    profile = BUILTIN_PROFILES[name]
    with pytest.raises(ProfileUnavailable) as info:
        build_agent_services(profile)
    msg = str(info.value)
    assert "\n" not in msg
    assert name in msg and "export" in msg
    for key in profile.env_keys():
        assert key in msg


def test_missing_extra_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import voxbench.pipelines.agent.profiles as prof

    real = prof._importable
    monkeypatch.setattr(prof, "_importable", lambda m: False if m == "deepgram" else real(m))
    monkeypatch.setenv("DEEPGRAM_API_KEY", "x")
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    monkeypatch.setenv("CARTESIA_API_KEY", "x")
    with pytest.raises(ProfileUnavailable, match=r'deepgram support .*pip install "voxbench\[cloud\]"'):
        preflight(BUILTIN_PROFILES["cascade-deepgram-cartesia"])


def test_profile_shape_is_validated() -> None:
    with pytest.raises(ValueError, match="needs tts"):
        AgentProfile.model_validate(
            {"name": "x", "architecture": "hybrid", "realtime": {"provider": "openai", "output": "text"}}
        )
    with pytest.raises(ValueError, match="output=audio"):
        AgentProfile.model_validate(
            {"name": "x", "architecture": "s2s", "realtime": {"provider": "google", "output": "text"}}
        )
    with pytest.raises(ValueError, match="takes no stt"):
        AgentProfile.model_validate(
            {"name": "x", "architecture": "external", "external": {}, "stt": {"kind": "deepgram"}}
        )


def test_yaml_profiles_new_and_based(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "agents.yaml"
    path.write_text(
        "my-bot:\n"
        "  architecture: external\n"
        "  external: {url: 'ws://10.0.0.5:8765/ws', protocol: twilio, headers_env: {Authorization: BOT_TOKEN}}\n"
        "openai-4o:\n"
        "  base: cascade-openai\n"
        "  llm: {model: gpt-4o}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("VOXBENCH_AGENTS", str(path))
    found = load_profiles()
    assert found["openai-4o"].llm is not None and found["openai-4o"].llm.model == "gpt-4o"
    assert found["openai-4o"].stt == BUILTIN_PROFILES["cascade-openai"].stt
    bot = found["my-bot"]
    assert bot.env_keys() == ["BOT_TOKEN"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("x:\n  base: nope\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown base"):
        profiles_from_yaml(bad, BUILTIN_PROFILES)


def test_agents_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for k in FAKE_KEYS:
        monkeypatch.delenv(k, raising=False)
    assert main(["agents", "list"]) == 0
    out = capsys.readouterr().out
    for name in BUILTIN_PROFILES:
        assert name in out
    assert "OPENAI_API_KEY✗" in out
    assert main(["agents", "check", "s2s-openai-realtime"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "OPENAI_API_KEY is not set" in err
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    assert main(["agents", "check", "s2s-openai-realtime"]) == 0


def test_profiles_module_is_light() -> None:
    code = (
        "import sys, voxbench.pipelines.agent.profiles as p; p.load_profiles(); "
        "heavy = [m for m in ('pipecat', 'deepgram', 'anthropic', 'google.genai') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


async def test_tool_bridge_protocol(call: CallScenario) -> None:
    executor = ToolExecutor(call.domain, call.initial_db, call.scenario.current_date_time, call.agent)
    seen: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    async def on_call(name: str, args: dict[str, Any], result: dict[str, Any]) -> None:
        seen.append((name, args, result))

    bridge = ToolBridge(executor, call.agent, on_call=on_call)
    url = await bridge.start()
    try:
        tools = await list_tools(url)
        assert {t["function"]["name"] for t in tools} == set(call.agent.tool_names())
        ok = await call_tool(url, "get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})
        assert ok["status"] == "success"
        unknown = await call_tool(url, "no_such_tool", {})
        assert unknown["status"] == "error"
        from aiohttp import ClientSession

        async with ClientSession() as s, s.post(f"{url}/tools/get_reservation", data="{not json") as r:
            assert r.status == 400 and (await r.json())["status"] == "error"
    finally:
        await bridge.stop()
    assert [n for n, _, _ in seen] == ["get_reservation", "no_such_tool"]
    assert sum(1 for a in executor.audit_log if a["type"] == "tool_call") == 2


def test_usage_summary_is_an_estimate() -> None:
    events = [
        UsageEvent(
            t=1.0, side="agent", model="gpt-4.1-mini-2025-04-14", prompt_tokens=1_000_000, completion_tokens=0
        ),
        UsageEvent(
            t=2.0, side="agent", model="gpt-4.1-mini-2025-04-14", prompt_tokens=0, completion_tokens=500_000
        ),
        UsageEvent(t=2.0, side="user", model="qwen", prompt_tokens=99, completion_tokens=99),
        TTSText(t=3.0, side="agent", channel="agent", text="x" * 2000),
    ]
    agent = BUILTIN_PROFILES["cascade-deepgram-cartesia"].info()
    s = usage_summary(events, 120.0, agent)
    assert s["estimate"] is True and "not a bill" in s["note"]
    assert s["llm"]["gpt-4.1-mini-2025-04-14"]["prompt_tokens"] == 1_000_000
    assert s["llm"]["gpt-4.1-mini-2025-04-14"]["usd"] == pytest.approx(0.40 + 0.80)
    items = {i["item"]: i for i in s["items"]}
    assert items["stt:deepgram"]["usd"] == pytest.approx(2 * 0.0077)
    assert items["tts:cartesia"]["chars"] == 2000
    assert s["estimated_cost_usd"] == pytest.approx(1.2 + 0.0154 + 0.06)
    unknown = usage_summary([UsageEvent(t=1, side="agent", model="mystery-1")], 10.0, AgentInfo())
    assert unknown["estimated_cost_usd"] is None and unknown["unpriced"] == ["llm:mystery-1"]


def test_offline_default_profile_is_the_local_agent_llm() -> None:
    """The built-in profiles are data; the offline default's LLM there is the one the local
    stack (make run, the examples) starts, not a second copy that could drift."""
    from voxbench.pipelines.services import LOCAL_AGENT_LLM

    assert BUILTIN_PROFILES["cascade-local"].llm == LOCAL_AGENT_LLM
