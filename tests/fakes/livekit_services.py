"""Test doubles of LiveKit Agents' STT, LLM and TTS base classes (no model, no network).

They subclass ``livekit.agents.stt.STT`` / ``llm.LLM`` / ``tts.TTS`` and go through the same
streams and emitters a plugin does, so an ``AgentSession`` runs on them exactly as on real
plugins:

* :class:`LKFakeSTT` is a streaming STT: an energy gate over the audio it is pushed; each
  voiced stretch followed by ``stop_s`` of quiet (counted in samples, not clock time) is the
  next scripted transcript (START_OF_SPEECH, FINAL_TRANSCRIPT, END_OF_SPEECH).
* :class:`LKFakeLLM` answers each chat with the next scripted :class:`~tests.fakes.services.Reply`
  (text and/or tool calls); ``contexts`` keeps what it was asked.
* :class:`LKFakeTTS` speaks any text as the harmonic buzz of ``tests.fakes.services``.

Import only after ``pytest.importorskip("livekit.agents")``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
from livekit import rtc
from livekit.agents import APIConnectOptions, llm, stt, tts
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS, NOT_GIVEN, NotGivenOr
from livekit.agents.utils import AudioBuffer

from tests.fakes.services import Reply, buzz

SR = 16000


class LKFakeSTT(stt.STT):
    def __init__(self, script: Sequence[str], *, stop_s: float = 0.25, threshold: float = 500.0):
        super().__init__(capabilities=stt.STTCapabilities(streaming=True, interim_results=False))
        self._script = iter(list(script))
        self.stop_s = stop_s
        self.threshold = threshold
        self.heard: list[str] = []

    @property
    def model(self) -> str:
        return "fake"

    @property
    def provider(self) -> str:
        return "voxbench-tests"

    def next_line(self) -> str | None:
        line = next(self._script, None)
        if line is not None:
            self.heard.append(line)
        return line

    async def _recognize_impl(
        self, buffer: AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        raise NotImplementedError("streaming only")

    def stream(
        self,
        *,
        language: NotGivenOr[str] = NOT_GIVEN,
        conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
    ) -> stt.RecognizeStream:
        return _FakeRecognizeStream(stt=self, conn_options=conn_options)


class _FakeRecognizeStream(stt.RecognizeStream):
    async def _run(self) -> None:
        fake = self._stt
        assert isinstance(fake, LKFakeSTT)
        speaking, quiet_s = False, 0.0
        async for item in self._input_ch:
            if not isinstance(item, rtc.AudioFrame):
                continue
            pcm = np.frombuffer(bytes(item.data), dtype=np.int16).astype(np.float64)
            loud = pcm.size > 0 and float(np.sqrt(np.mean(pcm**2))) > fake.threshold
            dur = item.samples_per_channel / item.sample_rate
            if loud:
                quiet_s = 0.0
                if not speaking:
                    speaking = True
                    self._event_ch.send_nowait(stt.SpeechEvent(type=stt.SpeechEventType.START_OF_SPEECH))
                continue
            if not speaking:
                continue
            quiet_s += dur
            if quiet_s >= fake.stop_s:
                speaking = False
                text = fake.next_line() or ""
                self._event_ch.send_nowait(
                    stt.SpeechEvent(
                        type=stt.SpeechEventType.FINAL_TRANSCRIPT,
                        alternatives=[stt.SpeechData(language="en", text=text, confidence=1.0)],
                    )
                )
                self._event_ch.send_nowait(stt.SpeechEvent(type=stt.SpeechEventType.END_OF_SPEECH))


class LKFakeLLM(llm.LLM):
    def __init__(self, script: Sequence[Reply]):
        super().__init__()
        self._script = iter(list(script))
        self.contexts: list[llm.ChatContext] = []
        self.tool_names: list[list[str]] = []  # the tools offered with each chat
        self._ids = itertools.count()

    @property
    def model(self) -> str:
        return "fake"

    @property
    def provider(self) -> str:
        return "voxbench-tests"

    def next_reply(self) -> Reply:
        return next(self._script, Reply("Is there anything else?"))

    def chat(
        self,
        *,
        chat_ctx: llm.ChatContext,
        tools: list[llm.Tool] | None = None,
        conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
        parallel_tool_calls: NotGivenOr[bool] = NOT_GIVEN,
        tool_choice: NotGivenOr[llm.ToolChoice] = NOT_GIVEN,
        extra_kwargs: NotGivenOr[dict[str, Any]] = NOT_GIVEN,
    ) -> llm.LLMStream:
        self.contexts.append(chat_ctx.copy())
        self.tool_names.append(sorted(getattr(t, "id", "") for t in tools or []))
        return _FakeLLMStream(self, chat_ctx=chat_ctx, tools=tools or [], conn_options=conn_options)


class _FakeLLMStream(llm.LLMStream):
    async def _run(self) -> None:
        fake = self._llm
        assert isinstance(fake, LKFakeLLM)
        reply = fake.next_reply()
        await asyncio.sleep(reply.delay_s)
        n = next(fake._ids)
        calls = [
            llm.FunctionToolCall(name=name, arguments=json.dumps(args), call_id=f"call_{n}_{i}")
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
        self._event_ch.send_nowait(
            llm.ChatChunk(
                id=f"fake_{n}",
                delta=llm.ChoiceDelta(role="assistant", content=reply.text or None, tool_calls=calls),
            )
        )


class LKFakeTTS(tts.TTS):
    def __init__(self, *, f0: float = 120.0, seconds_per_char: float = 0.02, max_s: float = 2.5):
        super().__init__(capabilities=tts.TTSCapabilities(streaming=False), sample_rate=SR, num_channels=1)
        self.f0, self.seconds_per_char, self.max_s = f0, seconds_per_char, max_s
        self.spoken: list[str] = []

    @property
    def model(self) -> str:
        return "fake"

    @property
    def provider(self) -> str:
        return "voxbench-tests"

    def synthesize(
        self, text: str, *, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS
    ) -> tts.ChunkedStream:
        return _FakeChunkedStream(tts=self, input_text=text, conn_options=conn_options)


class _FakeChunkedStream(tts.ChunkedStream):
    async def _run(self, output_emitter: tts.AudioEmitter) -> None:
        fake = self._tts
        assert isinstance(fake, LKFakeTTS)
        text = self.input_text
        fake.spoken.append(text)
        output_emitter.initialize(request_id="fake", sample_rate=SR, num_channels=1, mime_type="audio/pcm")
        seconds = min(fake.max_s, max(0.2, len(text) * fake.seconds_per_char))
        output_emitter.push(buzz(seconds, SR, fake.f0).tobytes())
        output_emitter.flush()


def demo_agent(call: Any) -> tuple[Any, Any]:
    """A LiveKit agent of test doubles for a whole `voxbench call` without models
    (``tests/fakes/livekit_profile.yaml``; run with the worktree on PYTHONPATH): the scenario's
    instructions and tools, a scripted airline conversation that looks a reservation up."""
    from livekit.agents import Agent, AgentSession, RunContext, function_tool

    async def no_backend(raw_arguments: dict[str, object], context: RunContext) -> str:
        return "not run under voxbench: the scenario's database answers"

    tools = [function_tool(no_backend, raw_schema=t["function"]) for t in call.tools]
    llm_ = LKFakeLLM(
        [
            Reply("Of course. May I have your confirmation number and last name?"),
            Reply(tool_calls=[("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})]),
            Reply("I found your reservation. I cannot share another passenger's details."),
            Reply("He can call us with his confirmation code."),
        ]
    )
    session: Any = AgentSession(
        stt=LKFakeSTT(["(the caller's words)"] * 100),
        llm=llm_,
        tts=LKFakeTTS(f0=120.0),
        vad=None,
        turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.3, "max_delay": 2.0}},
        user_away_timeout=None,
    )
    return session, Agent(instructions=call.instructions, tools=tools)
