"""The tool-call bridge: an external agent reaches the scenario's ToolExecutor over HTTP.

One bridge per call, on loopback (``127.0.0.1``), started before the agent is connected
and stopped with the call. The protocol (also in docs/external-agents.md):

* ``GET  /tools``         -> ``{"tools": [<OpenAI function tool schema>, ...]}``
* ``POST /tools/{name}``  body: the arguments as a JSON object -> the tool's result object
  (``{"status": "success" | "error", ...}``; tool errors are results, HTTP 200)
* ``GET  /health``        -> ``{"ok": true}``

Malformed JSON gets HTTP 400 with ``{"status": "error", "message": ...}``; an unknown tool
is whatever the executor answers for it (an error result). Every call goes through the
deterministic ``ToolExecutor`` (audited, changes the scenario database), and
``on_call(name, args, result)`` lets the caller record it.

Client helpers for agents written with pipecat: :func:`call_tool` and
:func:`register_bridge_tools`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web

from voxbench.scenarios import AgentSpec, ToolExecutor

OnCall = Callable[[str, dict[str, Any], dict[str, Any]], Awaitable[None]]


class ToolBridge:
    """HTTP server exposing ``executor`` to an agent that is not ours."""

    def __init__(
        self,
        executor: ToolExecutor,
        spec: AgentSpec,
        host: str = "127.0.0.1",
        port: int = 0,
        on_call: OnCall | None = None,
    ):
        self.executor = executor
        self.spec = spec
        self.host = host
        self.port = port
        self.on_call = on_call
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/tools", self._list)
        app.router.add_post("/tools/{name}", self._call)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        return self.url

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _health(self, _req: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    async def _list(self, _req: web.Request) -> web.Response:
        return web.json_response({"tools": self.spec.openai_tools()})

    async def _call(self, req: web.Request) -> web.Response:
        name = req.match_info["name"]
        raw = await req.text()
        try:
            args = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as exc:
            return web.json_response(
                {"status": "error", "message": f"arguments are not JSON: {exc}"}, status=400
            )
        if not isinstance(args, dict):
            return web.json_response(
                {"status": "error", "message": "arguments must be a JSON object"}, status=400
            )
        result = self.executor.execute(name, args)
        self.calls.append((name, args, result))
        if self.on_call is not None:
            await self.on_call(name, args, result)
        return web.json_response(result)


async def call_tool(
    url: str, name: str, arguments: dict[str, Any], timeout_s: float = 30.0
) -> dict[str, Any]:
    """POST one tool call to a bridge at ``url``; returns the result object."""
    async with (
        ClientSession(timeout=ClientTimeout(total=timeout_s)) as session,
        session.post(f"{url.rstrip('/')}/tools/{name}", json=arguments) as resp,
    ):
        data: dict[str, Any] = await resp.json()
        return data


async def list_tools(url: str, timeout_s: float = 10.0) -> list[dict[str, Any]]:
    async with (
        ClientSession(timeout=ClientTimeout(total=timeout_s)) as session,
        session.get(f"{url.rstrip('/')}/tools") as resp,
    ):
        data = await resp.json()
        return list(data["tools"])


def register_bridge_tools(llm: Any, url: Callable[[], str | None], names: list[str]) -> None:
    """Register pipecat function handlers that forward each call to the bridge.

    ``url`` is read at call time (an agent learns it when the caller connects).
    """
    from pipecat.services.llm_service import FunctionCallParams

    def make(name: str) -> Callable[[FunctionCallParams], Awaitable[None]]:
        async def handler(params: FunctionCallParams) -> None:
            base = url()
            if not base:
                await params.result_callback({"status": "error", "message": "no tool bridge"})
                return
            await params.result_callback(await call_tool(base, name, dict(params.arguments or {})))

        return handler

    for name in names:
        llm.register_function(name, make(name))
