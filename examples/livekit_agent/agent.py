"""A LiveKit Agents voice agent, written the way LiveKit's starter agents are, benchmarked by voxbench.

voxbench calls ``build(call)`` once per conversation and runs the returned ``AgentSession``
inside the call (profile ``livekit-local`` in ``profile.yaml``). Everything is offline:

* STT: :class:`LocalWhisperSTT`, a LiveKit ``stt.STT`` around voxbench's faster-whisper
  (tiny.en; the weights ship in a pip package). It is not a streaming STT, so the session
  pairs it with its VAD (LiveKit's bundled silero, native, no download).
* LLM: LiveKit's OpenAI plugin pointed at the llama.cpp server voxbench starts for the
  profile's ``llm`` (``call.llm_base_url``).
* TTS: :class:`LocalPiperTTS`, a LiveKit ``tts.TTS`` around voxbench's Piper voice.

The agent's tools are the scenario's (``call.tools``), declared as LiveKit raw function tools.
Their bodies are what a team would connect to its backend; under voxbench every tool call
runs on the scenario's database instead (that is what task completion scores), so the body
here only says it has no backend.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from livekit import rtc
from livekit.agents import (
    Agent,
    AgentSession,
    APIConnectOptions,
    RunContext,
    function_tool,
    stt,
    tts,
)
from livekit.agents.llm import ToolError
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS, NOT_GIVEN, NotGivenOr
from livekit.agents.utils import AudioBuffer
from livekit.agents.voice.agent_session import SessionConnectOptions
from livekit.plugins import openai

from voxbench.pipelines.agent.livekit_loader import LiveKitCall

SAMPLE_RATE = 16000
# LiveKit's default LLM request timeout (10 s, then retries) is for a hosted model; a CPU model
# reads a turn's new tokens for longer than that before its first one, and a retry starts over
LOCAL_LLM = SessionConnectOptions(llm_conn_options=APIConnectOptions(timeout=120.0, max_retry=1))


@functools.cache
def _whisper() -> Any:
    from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber

    return WhisperTranscriber(WhisperOptions(model="tiny.en"))


@functools.cache
def _piper() -> Any:
    from voxbench.pipelines.services.tts import make_synth

    return make_synth("agent")


class LocalWhisperSTT(stt.STT):
    """faster-whisper tiny.en as a (non-streaming) LiveKit STT: one utterance per VAD segment."""

    def __init__(self) -> None:
        super().__init__(capabilities=stt.STTCapabilities(streaming=False, interim_results=False))

    @property
    def model(self) -> str:
        return "faster-whisper tiny.en"

    @property
    def provider(self) -> str:
        return "local"

    async def _recognize_impl(
        self, buffer: AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        frame = rtc.combine_audio_frames(buffer)
        text = await asyncio.to_thread(_whisper().transcribe_pcm16, bytes(frame.data), frame.sample_rate)
        return stt.SpeechEvent(
            type=stt.SpeechEventType.FINAL_TRANSCRIPT,
            alternatives=[stt.SpeechData(language="en", text=text)],
        )


class LocalPiperTTS(tts.TTS):
    """Piper as a LiveKit TTS: the text's audio, sentence by sentence as Piper makes it."""

    def __init__(self) -> None:
        super().__init__(
            capabilities=tts.TTSCapabilities(streaming=False), sample_rate=SAMPLE_RATE, num_channels=1
        )

    @property
    def model(self) -> str:
        return "piper agent voice"

    @property
    def provider(self) -> str:
        return "local"

    def synthesize(
        self, text: str, *, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS
    ) -> tts.ChunkedStream:
        return _PiperStream(tts=self, input_text=text, conn_options=conn_options)


class _PiperStream(tts.ChunkedStream):
    async def _run(self, output_emitter: tts.AudioEmitter) -> None:
        output_emitter.initialize(
            request_id="piper", sample_rate=SAMPLE_RATE, num_channels=1, mime_type="audio/pcm"
        )
        for pcm in await asyncio.to_thread(_piper().sentences, self.input_text, SAMPLE_RATE):
            output_emitter.push(pcm)
        output_emitter.flush()


def domain_tool(schema: dict[str, Any]) -> Any:
    """One of the scenario's tools as a LiveKit raw function tool."""

    async def call_backend(raw_arguments: dict[str, object], context: RunContext) -> str:
        raise ToolError(f"{schema['name']}: this example has no backend of its own")

    return function_tool(call_backend, raw_schema=schema)


class Assistant(Agent):
    def __init__(self, call: LiveKitCall) -> None:
        super().__init__(
            instructions=call.instructions,
            tools=[domain_tool(t["function"]) for t in call.tools],
        )


def build(call: LiveKitCall) -> tuple[AgentSession[Any], Agent]:
    if call.llm_base_url is None:
        raise ValueError("profile livekit-local needs its llm (kind: local): voxbench starts the server")
    _whisper(), _piper()  # load the models here, before the call (voxbench builds the agent first)
    llm = openai.LLM(model=call.llm_model or "local", base_url=call.llm_base_url, api_key="sk-local")
    session: AgentSession[Any] = AgentSession(
        stt=LocalWhisperSTT(),
        llm=llm,
        tts=LocalPiperTTS(),
        turn_handling={"turn_detection": "vad", "endpointing": {"min_delay": 0.5, "max_delay": 3.0}},
        user_away_timeout=None,
        conn_options=LOCAL_LLM,
    )
    close_with_session(session, llm)
    return session, Assistant(call)


def close_with_session(session: AgentSession[Any], model: openai.LLM) -> None:
    """Close the LLM's HTTP client when the session closes: voxbench builds an agent per call in
    one process (a LiveKit worker runs each job in a process of its own, which needs no such
    care), and an unclosed client keeps its connections to the server open."""
    closing: set[asyncio.Task[None]] = set()

    def on_close(_: Any) -> None:
        task = asyncio.ensure_future(model.aclose())
        closing.add(task)
        task.add_done_callback(closing.discard)

    session.on("close", on_close)
