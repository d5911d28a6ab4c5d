"""A pipecat voice bot in its own process, benchmarked by voxbench as an external agent.

    python examples/pipecat_bot/bot.py                   # whisper + llama.cpp + piper, port 8765
    python examples/pipecat_bot/bot.py --fake-services   # scripted fakes (CI: no model)

The bot is an ordinary pipecat cascade (the shape of pipecat's websocket-server examples):

    websocket in -> STT (local whisper) -> user aggregator (Silero VAD, smart-turn)
      -> LLM (OpenAI-compatible client -> a llama.cpp server) -> TTS (Piper) -> websocket out

served by ``SingleClientWebsocketServerTransport`` with pipecat's ``ProtobufFrameSerializer``:
the wire voxbench's ``pcm16`` external profile speaks. It takes one call at a time and
builds a fresh pipeline for the next one (run benchmarks with ``--concurrency 1``).

Tools: the bot has none of its own. When voxbench connects, it says where the scenario's
tool bridge is (query parameter ``voxbench_tools``, header ``X-Voxbench-Tools``); the bot
lists the tools there (``GET /tools``) and runs every function call the LLM makes as
``POST /tools/{name}`` (docs/external-agents.md), so the scenario's database changes.

The LLM: ``--llm-base-url`` (or ``$OPENAI_BASE_URL``) names an OpenAI-compatible server;
without one the bot starts voxbench's embedded llama.cpp server (Qwen2.5 1.5B) itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loguru import logger
from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import TTSSpeakFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.serializers.base_serializer import FrameSerializer
from pipecat.serializers.protobuf import ProtobufFrameSerializer
from pipecat.services.llm_service import FunctionCallParams
from pipecat.transports.websocket.server import (
    SingleClientWebsocketServerParams,
    SingleClientWebsocketServerTransport,
)
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.agent.tool_bridge import call_tool, list_tools

SAMPLE_RATE = 16000
TOOLS_PARAM = "voxbench_tools"  # where voxbench announces its tool bridge (docs/external-agents.md)
GREETING = "Thank you for calling. How can I help you today?"
SYSTEM_INSTRUCTION = (
    "You are a customer service agent on a phone call. Keep every answer to one or two short "
    "spoken sentences, with no lists or markdown. Use the tools to look things up and to make "
    "changes; never invent a booking, a price or a confirmation. Ask for what a tool needs "
    "before calling it, and say what you did after it returns."
)


@dataclass
class Services:
    """One call's services (pipecat processors belong to one pipeline: built per call)."""

    stt: Any
    llm: Any
    tts: Any
    user_params: LLMUserAggregatorParams


def fake_services(script: str | None) -> Services:
    """Scripted STT/LLM/TTS and an energy VAD (``fake_services.py``): the real pipeline, no model."""
    from fake_services import BuzzTTS, EnergyVAD, ScriptedLLM, ScriptedSTT, load_script
    from pipecat.turns.user_stop.speech_timeout_user_turn_stop_strategy import (
        SpeechTimeoutUserTurnStopStrategy,
    )
    from pipecat.turns.user_turn_strategies import UserTurnStrategies

    return Services(
        ScriptedSTT(),
        ScriptedLLM(load_script(script)),
        BuzzTTS(),
        LLMUserAggregatorParams(
            vad_analyzer=EnergyVAD(),
            user_turn_strategies=UserTurnStrategies(
                stop=[SpeechTimeoutUserTurnStopStrategy(user_speech_timeout=0.2)]
            ),
        ),
    )


def real_services(llm_base_url: str, llm_model: str, whisper_model: str) -> Services:
    """Local whisper, an OpenAI-compatible LLM, Piper; Silero VAD with pipecat's default
    smart-turn end of turn. The model files are the ones voxbench installs as packages."""
    from pipecat.audio.vad.silero import SileroVADAnalyzer
    from pipecat.services.openai.llm import OpenAILLMService
    from pipecat.services.piper.tts import PiperTTSService
    from pipecat.services.whisper.stt import WhisperSTTService

    from voxbench.pipelines.services.stt import resolve_whisper_model
    from voxbench.pipelines.services.tts import PIPER_DEFAULT_MODEL, piper_model_path

    stt = WhisperSTTService(
        settings=WhisperSTTService.Settings(model=str(resolve_whisper_model(whisper_model))),
        device="cpu",
        compute_type="int8",
    )
    llm = OpenAILLMService(
        api_key=os.environ.get("OPENAI_API_KEY", "none"),
        base_url=llm_base_url,
        settings=OpenAILLMService.Settings(
            model=llm_model, system_instruction=SYSTEM_INSTRUCTION, temperature=0.2, max_tokens=100
        ),
    )
    tts = PiperTTSService(
        download_dir=piper_model_path().parent,
        settings=PiperTTSService.Settings(voice=PIPER_DEFAULT_MODEL),
    )
    return Services(stt, llm, tts, LLMUserAggregatorParams(vad_analyzer=SileroVADAnalyzer()))


def as_tools_schema(tools: list[dict[str, Any]]) -> ToolsSchema:
    """The bridge's OpenAI function-tool schemas as pipecat's."""
    out = []
    for t in tools:
        fn = t["function"]
        params = fn.get("parameters") or {}
        out.append(
            FunctionSchema(
                name=fn["name"],
                description=fn.get("description", ""),
                properties=params.get("properties", {}),
                required=params.get("required", []),
            )
        )
    return ToolsSchema(standard_tools=out)


def bridge_from_websocket(ws: Any) -> str | None:
    """The tool bridge URL voxbench sent with its connect (query parameter, else header)."""
    query = parse_qs(urlsplit(ws.request.path).query)
    return (query.get(TOOLS_PARAM) or [None])[0] or ws.request.headers.get("X-Voxbench-Tools")


class ToolBridgeClient:
    """This call's tools: learned from the bridge, every call forwarded to it."""

    def __init__(self, context: LLMContext) -> None:
        self.context = context
        self.url: str | None = None

    async def connect(self, url: str) -> None:
        self.url = url
        tools = await list_tools(url)
        self.context.set_tools(as_tools_schema(tools))
        logger.info(f"tool bridge {url}: {', '.join(t['function']['name'] for t in tools)}")

    async def handle(self, params: FunctionCallParams) -> None:
        """Any function the LLM calls (a catch-all handler): POST it to the bridge."""
        if self.url is None:
            await params.result_callback({"status": "error", "message": "no tool bridge"})
            return
        args = dict(params.arguments or {})
        await params.result_callback(await call_tool(self.url, params.function_name, args))


async def run_bot(
    transport: SingleClientWebsocketServerTransport,
    services: Services,
    on_bridge: Callable[[ToolBridgeClient], None] | None = None,
) -> None:
    """One call: from the client's connect to its hang-up.

    The tool bridge's URL is read from the WebSocket connect request, unless ``on_bridge``
    is given: a wire that carries it itself (Twilio's ``start`` event) gets the client then."""
    context = LLMContext()
    user, assistant = LLMContextAggregatorPair(context, user_params=services.user_params)
    pipeline = Pipeline(
        [
            transport.input(),
            services.stt,
            user,
            services.llm,
            services.tts,
            transport.output(),
            assistant,
        ]
    )
    worker = PipelineWorker(
        pipeline,
        params=PipelineParams(audio_in_sample_rate=SAMPLE_RATE, audio_out_sample_rate=SAMPLE_RATE),
        idle_timeout_secs=None,
        enable_rtvi=False,
    )
    bridge = ToolBridgeClient(context)
    services.llm.register_function(None, bridge.handle)
    if on_bridge is not None:
        on_bridge(bridge)

    @transport.event_handler("on_client_connected")
    async def on_client_connected(transport: Any, ws: Any) -> None:
        url = bridge_from_websocket(ws) if on_bridge is None else None
        if url:
            await bridge.connect(url)
        await worker.queue_frames([TTSSpeakFrame(GREETING)])

    @transport.event_handler("on_client_disconnected")
    async def on_client_disconnected(transport: Any, ws: Any) -> None:
        logger.info("caller hung up")
        await worker.cancel()

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    await runner.run()


def server_transport(
    host: str, port: int, serializer: FrameSerializer
) -> SingleClientWebsocketServerTransport:
    transport = SingleClientWebsocketServerTransport(
        host=host,
        port=port,
        params=SingleClientWebsocketServerParams(
            serializer=serializer,
            audio_in_enabled=True,
            audio_out_enabled=True,
            audio_in_sample_rate=SAMPLE_RATE,
            audio_out_sample_rate=SAMPLE_RATE,
            add_wav_header=False,
        ),
    )

    @transport.event_handler("on_websocket_ready")
    async def on_ready(_transport: Any) -> None:
        logger.info(f"listening on ws://{host}:{port}")
        print(f"listening on ws://{host}:{port}", flush=True)  # on stdout too: a test waits for it

    return transport


def parse_args(
    argv: list[str] | None = None, port: int = 8765, doc: str | None = __doc__
) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=port)
    p.add_argument(
        "--fake-services",
        action="store_true",
        default=os.environ.get("VOXBENCH_EXAMPLE_FAKE_SERVICES") == "1",
        help="scripted STT/LLM/TTS (no model; also VOXBENCH_EXAMPLE_FAKE_SERVICES=1)",
    )
    p.add_argument("--fake-script", help="JSON script of the fake LLM's replies (with --fake-services)")
    p.add_argument("--llm-base-url", default=os.environ.get("OPENAI_BASE_URL"))
    p.add_argument("--llm-model", default=None, help="model name on the LLM server")
    p.add_argument("--whisper-model", default="tiny.en", help="tiny.en, base, or a CTranslate2 folder")
    p.add_argument(
        "--warm-domain",
        default="airline",
        help="before taking calls, have the LLM read its prompt with this built-in domain's tools "
        "('' : don't)",
    )
    return p.parse_args(argv)


async def serve(
    args: argparse.Namespace,
    make_serializer: Callable[[], FrameSerializer],
    make_services: Callable[[], Services],
    hook: Callable[[FrameSerializer], Callable[[ToolBridgeClient], None] | None] = lambda _s: None,
) -> None:
    """Calls one after another, each with a fresh transport and pipeline on the same port."""
    while True:
        serializer = make_serializer()
        await run_bot(server_transport(args.host, args.port, serializer), make_services(), hook(serializer))


async def warm_llm(llm: Any, tools: list[dict[str, Any]]) -> None:
    """Have the LLM server read the system prompt, the tool list and the greeting once, now.

    A small model on a CPU reads a prompt with 15 tool schemas (~2,500 tokens) in tens of
    seconds; llama.cpp keeps what it read (prompt cache), so every call's first answer then
    costs only the new words, not a silence long enough for the caller to hang up."""
    context = LLMContext(messages=[{"role": "assistant", "content": GREETING}], tools=as_tools_schema(tools))
    stream = await llm.get_chat_completions(context)
    async for _chunk in stream:
        break  # the first token comes after the whole prompt is read: that is all we need
    await stream.close()


def domain_tools(domain: str) -> list[dict[str, Any]]:
    """The tools a built-in domain's scenarios give the agent (what the bridge will list)."""
    from voxbench.scenarios import load_dataset

    return list(load_dataset(None).domains[domain].agent.openai_tools())


def services_factory(args: argparse.Namespace) -> tuple[Callable[[], Services], Any]:
    """(a Services maker, the llama.cpp server this process started or None)."""
    if args.fake_services:
        return (lambda: fake_services(args.fake_script)), None
    server = None
    url, model = args.llm_base_url, args.llm_model
    if not url:
        from voxbench.localmodels import LlamaServer, default_judge_llm

        server = LlamaServer(default_judge_llm(), n_ctx=8192).start()
        url, model = server.base_url, model or server.model
        logger.info(f"started llama.cpp at {url} ({model})")

    def make() -> Services:
        return real_services(url, model or "local", args.whisper_model)

    if args.warm_domain:
        logger.info(f"warming the LLM on its prompt and the {args.warm_domain} tools")
        asyncio.run(warm_llm(make().llm, domain_tools(args.warm_domain)))
    return make, server


def log_to_stderr(level: str | None = None) -> None:
    """pipecat logs every frame link at DEBUG: INFO unless ``$LOG_LEVEL`` says otherwise."""
    logger.remove()
    logger.add(sys.stderr, level=level or os.environ.get("LOG_LEVEL", "INFO"))


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    log_to_stderr()
    make, server = services_factory(args)
    try:
        asyncio.run(serve(args, ProtobufFrameSerializer, make))
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
