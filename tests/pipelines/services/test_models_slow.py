"""Real-model tests (marked slow): Piper, whisper round trip and the local LLM, through pipecat frames."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pipecat")

from pipecat.frames.frames import (
    Frame,
    FunctionCallResultFrame,
    FunctionCallsStartedFrame,
    InputAudioRawFrame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TranscriptionFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.tests.utils import SleepFrame, run_test

from voxbench.pipelines.services import LLMConfig, STTConfig, TTSConfig, make_llm, make_stt, make_tts

RATE = 16_000
CODE_SENTENCE = "My confirmation code is K 7 X 9 P 2."

pytestmark = [
    pytest.mark.slow,
    # onnxruntime/ctranslate2/openai import-time deprecations are not ours.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def _pcm_to_float(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0


async def _synthesize(cfg: TTSConfig, text: str) -> tuple[np.ndarray, Any]:
    tts = make_tts(cfg)
    down, _ = await run_test(
        tts,
        frames_to_send=[TTSSpeakFrame(text), SleepFrame(sleep=0.2)],
        expected_down_frames=None,
        pipeline_params=PipelineParams(audio_in_sample_rate=RATE, audio_out_sample_rate=RATE),
        start_timeout=10.0,
    )
    audio = [f for f in down if isinstance(f, TTSAudioRawFrame)]
    assert audio, f"no audio frames: {[type(f).__name__ for f in down]}"
    assert {f.sample_rate for f in audio} == {RATE}
    return _pcm_to_float(b"".join(f.audio for f in audio)), tts


def _normalise(text: str) -> str:
    words = {"kay": "k", "ex": "x", "pee": "p", "seven": "7", "nine": "9", "two": "2"}
    toks = re.findall(r"[a-z0-9]+", text.lower())
    return "".join(words.get(t, t) for t in toks)


@pytest.mark.ci_slow
async def test_piper_synthesizes_plausible_audio() -> None:
    audio, tts = await _synthesize(TTSConfig(voice="agent"), CODE_SENTENCE)
    secs = len(audio) / RATE
    assert 1.5 < secs < 8.0, secs
    rms = float(np.sqrt(np.mean(audio**2)))
    assert rms > 0.02, rms  # not silent
    assert float(np.max(np.abs(audio))) < 1.0  # not clipped hard
    assert tts.voice_id == "piper:en_US-joe-medium"


async def test_piper_user_voice_is_distinct_but_same_length_scale() -> None:
    agent, _ = await _synthesize(TTSConfig(voice="agent"), CODE_SENTENCE)
    user, tts = await _synthesize(TTSConfig(voice="user-piper"), CODE_SENTENCE)
    assert tts.voice_id != "piper:en_US-joe-medium"
    # Pitch shift keeps duration; the preset is 5% slower.
    assert 0.9 < (len(user) / len(agent)) < 1.3
    assert _median_f0(user) < 0.92 * _median_f0(agent)


def _median_f0(x: np.ndarray) -> float:
    f0 = []
    win = 640
    for i in range(0, len(x) - win, win // 2):
        w = x[i : i + win] - x[i : i + win].mean()
        if np.sqrt(np.mean(w**2)) < 0.05:
            continue
        ac = np.correlate(w, w, "full")[win - 1 :]
        lo, hi = RATE // 400, RATE // 60
        k = lo + int(np.argmax(ac[lo:hi]))
        if ac[k] > 0.3 * ac[0]:
            f0.append(RATE / k)
    assert f0
    return float(np.median(f0))


async def _transcribe_through_pipeline(audio: np.ndarray, rate: int) -> str:
    from pipecat.audio.vad.silero import SileroVADAnalyzer
    from pipecat.processors.audio.vad_processor import VADProcessor

    pad = np.zeros(int(0.5 * rate), dtype=np.float32)
    signal = np.concatenate([pad, audio, pad, pad, pad])
    pcm = (np.clip(signal, -1, 1) * 32767).astype("<i2").tobytes()
    step = int(0.02 * rate) * 2
    frames: list[Any] = [
        InputAudioRawFrame(audio=pcm[i : i + step], sample_rate=rate, num_channels=1)
        for i in range(0, len(pcm) - step + 1, step)
    ]
    stt = make_stt(STTConfig(model="tiny.en"))
    pipeline = Pipeline([VADProcessor(vad_analyzer=SileroVADAnalyzer()), stt])
    down, _ = await run_test(
        pipeline,
        frames_to_send=[*frames, SleepFrame(sleep=0.5)],
        expected_down_frames=None,
        pipeline_params=PipelineParams(audio_in_sample_rate=rate, audio_out_sample_rate=rate),
        start_timeout=10.0,
    )
    return " ".join(f.text for f in down if isinstance(f, TranscriptionFrame))


@pytest.mark.ci_slow
async def test_whisper_round_trip_of_piper_code() -> None:
    audio, _ = await _synthesize(TTSConfig(voice="agent"), CODE_SENTENCE)
    text = await _transcribe_through_pipeline(audio, RATE)
    norm = _normalise(text)
    assert "confirmationcode" in norm, text
    assert "k7x9p2" in norm, text


async def test_whisper_round_trip_user_voice_at_8khz() -> None:
    import soxr

    audio, _ = await _synthesize(TTSConfig(voice="user"), CODE_SENTENCE)
    narrow = soxr.resample(audio, RATE, 8000).astype(np.float32)
    text = await _transcribe_through_pipeline(narrow, 8000)
    assert "k7x9p2" in _normalise(text), text


TOOLS_SYSTEM = (
    "You are an airline phone agent. Call a tool when one applies. After you receive a tool result, "
    "reply to the caller in one or two short spoken sentences of plain English."
)


@pytest.fixture(scope="module")
def local_server():  # type: ignore[no-untyped-def]
    from voxbench.pipelines.services import make_local_llm_server

    with make_local_llm_server(LLMConfig(n_ctx=4096)) as srv:
        yield srv


def _tools() -> Any:
    from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
    from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema

    return ToolsSchema(
        standard_tools=[
            FunctionSchema(
                name="lookup_booking",
                description="Look up a booking by its confirmation code.",
                properties={"confirmation_code": {"type": "string"}},
                required=["confirmation_code"],
            ),
            FunctionSchema(
                name="rebook_flight",
                description="Move a flight to a new date.",
                properties={"flight_number": {"type": "string"}, "date": {"type": "string"}},
                required=["flight_number", "date"],
            ),
            FunctionSchema(
                name="transfer_to_agent",
                description="Transfer the caller to a human agent.",
                properties={"reason": {"type": "string"}},
                required=["reason"],
            ),
        ]
    )


class _then_wait_until:
    """``frames_to_send`` for run_test: send ``frame``, then sleep in small steps until ``done()``.

    run_test iterates frames lazily, so this keeps the pipeline open exactly as long as the
    model needs (a fixed sleep is either slow or flaky on a loaded 2-core machine).
    """

    def __init__(self, frame: Any, done: Any, *, timeout: float) -> None:
        self._frame, self._done, self._timeout = frame, done, timeout

    def __iter__(self) -> Any:
        yield self._frame
        deadline = time.monotonic() + self._timeout
        while not self._done() and time.monotonic() < deadline:
            yield SleepFrame(sleep=0.25)
        yield SleepFrame(sleep=0.25)


def test_local_server_answers_chat_completion(local_server: Any) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=local_server.base_url, api_key="sk-local")
    reply = client.chat.completions.create(
        model=local_server.model,
        messages=[{"role": "user", "content": "Say hello in three words."}],
        max_tokens=16,
        temperature=0,
    )
    assert (reply.choices[0].message.content or "").strip()
    client.close()


@pytest.mark.ci_slow
async def test_local_llm_tool_call_routes_to_handler_and_answers(local_server: Any) -> None:
    from pipecat.processors.aggregators.llm_context import LLMContext
    from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
    from pipecat.services.llm_service import FunctionCallParams

    context = LLMContext(
        messages=[
            {"role": "user", "content": "Hi, my confirmation code is K7X9P2. Can you look up my booking?"}
        ],
        tools=_tools(),
    )
    llm = make_llm(LLMConfig(), server=local_server, system_instruction=TOOLS_SYSTEM)
    calls: list[tuple[str, dict[str, Any]]] = []

    async def lookup(params: FunctionCallParams) -> None:
        calls.append((params.function_name, dict(params.arguments)))
        await params.result_callback("Booking K7X9P2: flight UA123 on March 3, confirmed.")

    llm.register_function("lookup_booking", lookup)
    _, assistant = LLMContextAggregatorPair(context)
    answered = asyncio.Event()

    @assistant.event_handler("on_assistant_turn_stopped")
    async def _stopped(_agg: Any, message: Any) -> None:
        if message.content:
            answered.set()

    down, _ = await run_test(
        Pipeline([llm, assistant]),
        frames_to_send=_then_wait_until(LLMContextFrame(context), answered.is_set, timeout=180.0),  # type: ignore[arg-type]
        expected_down_frames=None,
        start_timeout=5.0,
    )
    assert calls and calls[0][0] == "lookup_booking", calls
    assert calls[0][1].get("confirmation_code", "").upper().replace(" ", "") == "K7X9P2"
    assert llm.text_tool_calls_converted >= 1
    assert not any(isinstance(f, FunctionCallResultFrame) and f.result is None for f in down)
    messages = context.get_messages()
    roles = [m.get("role") for m in messages]
    assert roles[:3] == ["user", "assistant", "tool"], roles
    final = messages[-1]
    assert final.get("role") == "assistant" and isinstance(final.get("content"), str), messages
    assert not final["content"].lstrip().startswith("{"), final  # spoken prose, not JSON


class _FinalReplyWatch(FrameProcessor):
    """Sets ``answered`` at the end of the first LLM response that spoke and called no tool:
    the agent's answer after its lookups, however many tool rounds it took."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = asyncio.Event()
        self._text = ""
        self._called = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMFullResponseStartFrame):
            self._text, self._called = "", False
        elif isinstance(frame, LLMTextFrame):
            self._text += frame.text
        elif isinstance(frame, FunctionCallsStartedFrame):
            self._called = True
        elif isinstance(frame, LLMFullResponseEndFrame) and self._text.strip() and not self._called:
            self.answered.set()
        await self.push_frame(frame, direction)


@pytest.fixture(scope="module")
def agent_server():  # type: ignore[no-untyped-def]
    from voxbench.pipelines.services import LOCAL_AGENT_LLM, make_local_llm_server

    with make_local_llm_server(LOCAL_AGENT_LLM) as srv:
        yield srv


async def test_default_agent_llm_verifies_the_caller_on_a_builtin_scenario(agent_server: Any) -> None:
    """bb.1 after the caller gave code and name: the offline default agent LLM (LOCAL_AGENT_LLM)
    must call get_reservation with them first and, once it answers without a call (after the
    bag is added, when it goes on to add it), speak plain words, never JSON."""
    from pipecat.processors.aggregators.llm_context import LLMContext
    from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
    from pipecat.services.llm_service import FunctionCallParams

    from voxbench.pipelines.agent.cascade import agent_system_instruction
    from voxbench.pipelines.agent.tools import tools_schema
    from voxbench.pipelines.services import LOCAL_AGENT_LLM
    from voxbench.scenarios import ToolExecutor, load_dataset

    dd = load_dataset(None, ["airline"]).domains["airline"]
    sc = dd.scenarios["bb.1"]
    last = dd.resolver(sc).resolve("<LAST_NAME>")
    executor = ToolExecutor("airline", dd.initial_db("bb.1"), sc.current_date_time, dd.agent)
    context = LLMContext(
        messages=[
            {"role": "user", "content": "Hi, I'd like to add a checked bag to my flight."},
            {"role": "assistant", "content": "Sure. What's your confirmation code and last name?"},
            {"role": "user", "content": f"It's QX7T4M, and the last name is {last}."},
        ],
        tools=tools_schema(dd.agent),
    )
    llm = make_llm(
        LOCAL_AGENT_LLM,
        server=agent_server,
        system_instruction=agent_system_instruction(dd.agent, sc.current_date_time),
    )
    calls: list[tuple[str, dict[str, Any]]] = []

    async def handler(params: FunctionCallParams) -> None:
        calls.append((params.function_name, dict(params.arguments)))
        await params.result_callback(executor.execute(params.function_name, dict(params.arguments)))

    for name in dd.agent.tool_names():
        llm.register_function(name, handler)
    _, assistant = LLMContextAggregatorPair(context)
    watch = _FinalReplyWatch()
    await run_test(
        Pipeline([llm, watch, assistant]),
        frames_to_send=_then_wait_until(LLMContextFrame(context), watch.answered.is_set, timeout=600.0),  # type: ignore[arg-type]
        expected_down_frames=None,
        start_timeout=5.0,
    )
    assert calls and calls[0] == ("get_reservation", {"confirmation_number": "QX7T4M", "last_name": last}), (
        calls
    )
    final = context.get_messages()[-1]
    assert final.get("role") == "assistant" and isinstance(final.get("content"), str), final
    assert not re.search(r"[{}`]", final["content"]), final  # spoken words, not JSON or markdown
