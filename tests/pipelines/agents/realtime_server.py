"""A local server speaking enough of the OpenAI Realtime (GA) protocol for one scripted call.

Client events handled: ``session.update``, ``input_audio_buffer.append`` (an energy VAD
stands in for server VAD: speech_started / speech_stopped / committed, then a response
is created, as with ``create_response: true``), ``input_audio_buffer.commit`` (manual
turns), ``response.create``, ``response.cancel``, ``conversation.item.create`` (messages
and ``function_call_output``), ``conversation.item.truncate``.

Server events sent (the GA names pipecat 1.14 parses; the beta names were
``response.audio.delta`` / ``response.text.delta``): ``session.created``,
``session.updated``, ``conversation.item.added``, ``response.created``,
``response.output_audio.delta`` + ``response.output_audio_transcript.delta`` (audio
sessions) or ``response.output_text.delta`` (text sessions),
``response.function_call_arguments.done``, ``response.done`` (with usage), and
``input_audio_buffer.*`` / ``conversation.item.input_audio_transcription.completed``.

Each response takes the next scripted step: ``Say(text)`` or ``Call(name, args)``.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from websockets.asyncio.server import Server, ServerConnection, serve

from tests.fakes.services import FakeTTS, buzz

RATE = 24000


@dataclass
class Say:
    text: str


@dataclass
class Call:
    name: str
    arguments: dict[str, Any]


@dataclass
class FakeRealtimeServer:
    script: list[Say | Call]
    transcripts: list[str] = field(default_factory=list)  # what the "server" heard, per user turn
    fallback: str = "Is there anything else I can help you with?"
    speech_db: float = -35.0
    silence_ms: int = 500
    first_delta_s: float = 0.25  # the model's time to its first output (on the loop's clock)
    # observed
    sessions: list[dict[str, Any]] = field(default_factory=list)
    tool_outputs: list[dict[str, Any]] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    responses: list[Say | Call] = field(default_factory=list)
    client_events: list[str] = field(default_factory=list)
    user_turns: int = 0
    port: int = 0
    _server: Server | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/v1/realtime"

    async def start(self) -> FakeRealtimeServer:
        self._steps = iter(self.script)
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Future[Any]] = set()
        self._server = await serve(self._handle, "127.0.0.1", 0, max_size=None)
        self.port = int(next(iter(self._server.sockets)).getsockname()[1])
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids)}"

    async def _handle(self, ws: ServerConnection) -> None:
        session: dict[str, Any] = {
            "type": "realtime",
            "model": "gpt-realtime",
            "output_modalities": ["audio"],
        }
        state = {"speaking": False, "quiet_ms": 0.0, "active": False}
        lock = asyncio.Lock()

        async def send(evt: dict[str, Any]) -> None:
            evt.setdefault("event_id", self._id("event"))
            await ws.send(json.dumps(evt))

        async def respond() -> None:
            async with lock:
                await self._respond(send, session)

        await send({"type": "session.created", "session": session})
        async for raw in ws:
            evt = json.loads(raw)
            typ = evt.get("type", "")
            self.client_events.append(typ)
            if typ == "session.update":
                session.update({k: v for k, v in evt["session"].items() if v is not None})
                self.sessions.append(evt["session"])
                await send({"type": "session.updated", "session": session})
            elif typ == "conversation.item.create":
                item = evt["item"]
                self.items.append(item)
                if item.get("type") == "function_call_output":
                    self.tool_outputs.append(item)
                await send({"type": "conversation.item.added", "item": item})
            elif typ == "input_audio_buffer.append":
                if self._server_vad(session):
                    await self._vad(evt["audio"], state, send, respond)
            elif typ == "input_audio_buffer.commit":
                await send({"type": "input_audio_buffer.committed", "item_id": self._id("item")})
                await self._user_item(send)
            elif typ == "response.create":
                if lock.locked():  # as the API does: one response at a time
                    err = {
                        "type": "invalid_request_error",
                        "code": "conversation_already_has_active_response",
                    }
                    await send({"type": "error", "error": {**err, "message": "a response is in progress"}})
                else:
                    self._spawn(respond())

    @staticmethod
    def _server_vad(session: dict[str, Any]) -> bool:
        td = ((session.get("audio") or {}).get("input") or {}).get("turn_detection")
        return td is not False

    async def _vad(self, b64: str, state: dict[str, Any], send: Any, respond: Any) -> None:
        pcm = np.frombuffer(base64.b64decode(b64), dtype=np.int16).astype(np.float64)
        if pcm.size == 0:
            return
        rms = float(np.sqrt(np.mean(pcm**2))) / 32768.0
        db = 20 * np.log10(max(rms, 1e-9))
        ms = pcm.size / RATE * 1000
        if db > self.speech_db:
            state["quiet_ms"] = 0.0
            if not state["speaking"]:
                state["speaking"] = True
                await send(
                    {
                        "type": "input_audio_buffer.speech_started",
                        "audio_start_ms": 0,
                        "item_id": self._id("item"),
                    }
                )
        elif state["speaking"]:
            state["quiet_ms"] += ms
            if state["quiet_ms"] >= self.silence_ms:
                state["speaking"] = False
                item_id = self._id("item")
                await send(
                    {"type": "input_audio_buffer.speech_stopped", "audio_end_ms": 0, "item_id": item_id}
                )
                await send({"type": "input_audio_buffer.committed", "item_id": item_id})
                await self._user_item(send)
                self._spawn(respond())

    async def _user_item(self, send: Any) -> None:
        text = self.transcripts[self.user_turns] if self.user_turns < len(self.transcripts) else ""
        self.user_turns += 1
        item_id = self._id("item")
        item = {"id": item_id, "type": "message", "role": "user", "content": [{"type": "input_audio"}]}
        await send({"type": "conversation.item.added", "item": item})
        if text:
            await send(
                {
                    "type": "conversation.item.input_audio_transcription.completed",
                    "item_id": item_id,
                    "content_index": 0,
                    "transcript": text,
                }
            )

    async def _respond(self, send: Any, session: dict[str, Any]) -> None:
        step = next(self._steps, None) or Say(self.fallback)
        self.responses.append(step)
        rid = self._id("resp")
        await send({"type": "response.created", "response": {"id": rid, "status": "in_progress"}})
        await asyncio.sleep(self.first_delta_s)
        item_id = self._id("item")
        usage = {"total_tokens": 150, "input_tokens": 120, "output_tokens": 30}
        if isinstance(step, Call):
            call_id = self._id("call")
            item = {
                "id": item_id,
                "type": "function_call",
                "status": "completed",
                "call_id": call_id,
                "name": step.name,
                "arguments": json.dumps(step.arguments),
            }
            await send({"type": "conversation.item.added", "item": item})
            await send(
                {
                    "type": "response.function_call_arguments.done",
                    "response_id": rid,
                    "item_id": item_id,
                    "output_index": 0,
                    "call_id": call_id,
                    "arguments": json.dumps(step.arguments),
                }
            )
            await send(
                {
                    "type": "response.done",
                    "response": {"id": rid, "status": "completed", "output": [item], "usage": usage},
                }
            )
            return
        item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
        await send({"type": "conversation.item.added", "item": item})
        where = {"response_id": rid, "item_id": item_id, "output_index": 0, "content_index": 0}
        if "audio" in (session.get("output_modalities") or ["audio"]):
            pcm = buzz(FakeTTS.duration_of(step.text), RATE, f0=120.0).tobytes()
            chunk = RATE // 10 * 2  # 100 ms
            for i in range(0, len(pcm), chunk):
                delta = base64.b64encode(pcm[i : i + chunk]).decode()
                await send({"type": "response.output_audio.delta", **where, "delta": delta})
            await send({"type": "response.output_audio_transcript.delta", **where, "delta": step.text})
        else:
            for word in step.text.split(" "):
                await send({"type": "response.output_text.delta", **where, "delta": word + " "})
                await asyncio.sleep(0.01)
        done = {**item, "status": "completed"}
        await send({"type": "conversation.item.done", "item": done})
        await send(
            {
                "type": "response.done",
                "response": {"id": rid, "status": "completed", "output": [done], "usage": usage},
            }
        )
