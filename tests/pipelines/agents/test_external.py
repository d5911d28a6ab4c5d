"""The external-agent path end to end: a pipecat bot started by the test (our own cascade
shape with fake services, on its own websocket server) is reached as an "external" agent
in our PCM protocol and over Twilio media streams; its tool call goes through the HTTP
tool bridge to the call's ToolExecutor.

The bot, the bridge and the call share the test's event loop over real loopback sockets, so
each call runs on the virtual clock (``run_virtual``)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from pipecat.frames.frames import EndFrame, TTSSpeakFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.server import SingleClientWebsocketServerTransport
from pipecat.workers.runner import WorkerRunner

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.agents.conftest import fast_config
from voxbench.pipelines.agent.external import ExternalAgentServices
from voxbench.pipelines.agent.profiles import BUILTIN_PROFILES
from voxbench.pipelines.agent.tool_bridge import register_bridge_tools
from voxbench.pipelines.agent.tools import tools_schema
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.config import TurnConfig, VADConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.external_relay import TOOLS_PARAM
from voxbench.records import Speech, ToolCall, ToolResult, read_record
from voxbench.transports.config import ExternalAgentConfig
from voxbench.transports.pacing import ContinuousMixer
from voxbench.transports.pairing import free_port, server_params
from voxbench.transports.serializers import AudioOnlyProtobufSerializer
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Thanks for calling. How can I help?"


@dataclass
class Bot:
    """A pipecat bot that is 'not ours': it only knows the bridge URL it is told in-band."""

    port: int
    stt: FakeSTT
    llm: FakeLLM
    tts: FakeTTS
    worker: PipelineWorker
    task: asyncio.Task[None]
    bridge_urls: list[str] = field(default_factory=list)
    connects: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (path, headers) of each

    async def stop(self) -> None:
        if not self.task.done():
            with contextlib.suppress(Exception):
                await self.worker.queue_frame(EndFrame())
            done, _ = await asyncio.wait({self.task}, timeout=10)
            if not done:
                await self.worker.cancel()
                await asyncio.wait({self.task}, timeout=10)


async def start_bot(call: CallScenario, protocol: str) -> Bot:
    sr = 16000
    port = free_port()
    serializer: Any = (
        TwilioFrameSerializer(
            stream_sid="MZbot", params=TwilioFrameSerializer.InputParams(auto_hang_up=False, sample_rate=sr)
        )
        if protocol == "twilio"
        else AudioOnlyProtobufSerializer()
    )
    transport = SingleClientWebsocketServerTransport(
        params=server_params(serializer, sr, ContinuousMixer()), host="127.0.0.1", port=port
    )
    lines = reference_user_lines(call.scenario, call.resolver)
    stt = FakeSTT(lines)
    llm = FakeLLM(
        [
            Reply("Of course. May I have your confirmation number and last name?"),
            Reply("I need the confirmation number and last name to pull up a reservation."),
            Reply(tool_calls=[("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})]),
            Reply("I found your reservation. I cannot share another passenger's details."),
            Reply("He can call us with his confirmation code."),
            Reply("Is there anything else I can help you with?"),
        ]
    )
    tts = FakeTTS(f0=120.0)
    urls: list[str] = []
    connects: list[tuple[str, dict[str, str]]] = []
    register_bridge_tools(llm, lambda: urls[-1] if urls else None, call.agent.tool_names())
    context = LLMContext(tools=tools_schema(call.agent))
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    user, assistant = LLMContextAggregatorPair(
        context,
        user_params=user_aggregator_params(vad, TurnConfig(smart_turn=False, speech_timeout_s=0.2), sr),
    )
    pipeline = Pipeline([transport.input(), stt, user, llm, tts, transport.output(), assistant])
    worker = PipelineWorker(
        pipeline,
        params=PipelineParams(audio_in_sample_rate=sr, audio_out_sample_rate=sr),
        idle_timeout_secs=None,
        enable_rtvi=False,
        name="external-bot",
    )
    ready = asyncio.Event()

    @transport.event_handler("on_websocket_ready")
    async def _ready(_t: Any) -> None:
        ready.set()

    @transport.event_handler("on_client_connected")
    async def _connected(_t: Any, ws: Any) -> None:
        connects.append((ws.request.path, dict(ws.request.headers.raw_items())))
        query = parse_qs(urlsplit(ws.request.path).query)
        url = (query.get(TOOLS_PARAM) or [None])[0] or ws.request.headers.get("X-Voxbench-Tools")
        if url:
            urls.append(url)
        await worker.queue_frame(TTSSpeakFrame(GREETING))

    @transport.event_handler("on_client_disconnected")
    async def _gone(_t: Any, _ws: Any) -> None:
        # the caller hung up: the bot ends too (its continuous output would otherwise write
        # silence to nobody, as fast as the loop runs: on the virtual clock, time never moves)
        await worker.cancel(reason="caller hung up")

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    task = asyncio.create_task(runner.run())
    await asyncio.wait_for(ready.wait(), timeout=30)
    return Bot(port, stt, llm, tts, worker, task, urls, connects)


async def _external_call(call: CallScenario, out: Path, protocol: str) -> tuple[Bot, Any, Any]:
    bot = await start_bot(call, protocol)
    try:
        base = BUILTIN_PROFILES["external-ws" if protocol == "pcm16" else "external-twilio"]
        assert base.external is not None
        ext = base.external.model_copy(update={"url": f"ws://127.0.0.1:{bot.port}/ws", "url_env": None})
        services = ExternalAgentServices(external=ext, info=base.info())
        record = await run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS(f0=220.0)), out)
    finally:
        await bot.stop()
    return bot, base, record


@pytest.mark.parametrize("protocol", ["pcm16", "twilio"])
def test_external_agent_end_to_end_with_bridged_tool_call(
    call: CallScenario, tmp_path: Path, protocol: str
) -> None:
    out = tmp_path / "rec"
    bot, base, record = run_virtual(_external_call(call, out, protocol))

    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    assert record.agent.architecture == "external" and record.agent.name == base.name
    # the bot was told where the tools are, and heard every line the caller said
    assert bot.bridge_urls and bot.bridge_urls[0].startswith("http://127.0.0.1:")
    lines = reference_user_lines(call.scenario, call.resolver)
    assert len(bot.stt.segments) == len(lines)
    # its tool call went through the bridge to this call's ToolExecutor and was recorded
    b = read_record(out)
    ev = b.events
    assert [e.name for e in ev if isinstance(e, ToolCall)] == ["get_reservation"]
    results = [e for e in ev if isinstance(e, ToolResult)]
    assert results and results[0].status == "success"
    assert record.num_tool_calls == 1
    assert b.final_db is not None and b.final_db.get("session", {}).get("confirmation_number") == "383S8U"
    # the caller heard the bot's greeting and answers; the user channel was recorded on our side
    agent_onsets = [e for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    user_onsets = [e for e in ev if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(agent_onsets) >= 5
    assert len(user_onsets) == len(lines)
    assert any("found your reservation" in t for t in bot.tts.spoken)


def test_unreachable_external_agent_is_an_infra_failure(call: CallScenario, tmp_path: Path) -> None:
    # a port bound but not listening: a connect is refused, and no server of the call can take
    # it (a port only found free could be handed to the call's own agent server next)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        ext = ExternalAgentConfig(
            url=f"ws://127.0.0.1:{held.getsockname()[1]}", url_env=None, connect_timeout_s=1.0
        )
        services = ExternalAgentServices(external=ext)
        record = run_virtual(
            run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS()), tmp_path)
        )
    assert record.status == "infra_failure"
    assert record.error is not None and "not reachable" in record.error
