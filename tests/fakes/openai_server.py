"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (aiohttp, in the test's loop).

Real services (pipecat's ``OpenAILLMService`` and our subclasses) talk to it over HTTP, so the
request a model would get (messages, ``response_format``) and the streamed reply path are the
real ones. Each request is answered with the next scripted reply, streamed as SSE chunks of a
few characters (a :class:`ChatReply` may add native tool calls after its text); every request
body is kept in ``requests``, and ``abandoned`` counts replies the client stopped reading.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class ChatReply:
    """A scripted reply with native tool calls (name, arguments) streamed after its text."""

    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class FakeChatServer:
    def __init__(
        self, replies: Sequence[str | ChatReply], *, chunk_chars: int = 4, delay_s: float = 0.02
    ) -> None:
        self._replies = list(replies)
        self.chunk_chars = chunk_chars
        self.delay_s = delay_s
        self.requests: list[dict[str, Any]] = []
        self.abandoned = 0
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def __aenter__(self) -> FakeChatServer:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        body = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": "fake-caller",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(body)}\n\n".encode()

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        reply = self._replies.pop(0) if self._replies else ""
        text, calls = (reply, []) if isinstance(reply, str) else (reply.text, reply.tool_calls)
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        resp.force_close()  # no keep-alive: pipecat never closes its OpenAI client's pool
        await resp.prepare(request)
        try:
            await resp.write(self._chunk({"role": "assistant", "content": ""}))
            for i in range(0, len(text), self.chunk_chars):
                await asyncio.sleep(self.delay_s)
                await resp.write(self._chunk({"content": text[i : i + self.chunk_chars]}))
            for n, (name, args) in enumerate(calls):
                call = {"index": n, "id": f"call_{n}", "type": "function"}
                call["function"] = {"name": name, "arguments": json.dumps(args)}
                await resp.write(self._chunk({"tool_calls": [call]}))
            await resp.write(self._chunk({}, finish="tool_calls" if calls else "stop"))
            await resp.write(b"data: [DONE]\n\n")
            await resp.write_eof()
        except ConnectionResetError:  # the client stopped reading (a warm-up, an interruption)
            self.abandoned += 1
        return resp
