"""The browser side of `voxbench talk`: a page on 127.0.0.1 that calls the agent over WebRTC.

One server, one call. The page (`talk_static/`, our own small client, nothing from a
CDN) shows the scenario card, asks for the microphone, sends an SDP offer with its
ICE candidates gathered (no trickle, no STUN: `iceServers: []`) to `POST /api/offer`;
the answer comes from pipecat's `SmallWebRTCConnection`, whose transport is the
agent's input/output. Live transcript lines travel back over the WebRTC data channel;
the call's lifecycle (`/api/state`), hang-up and the rating form are plain HTTP.

    GET  /                 the page
    GET  /static/{file}    its script and style
    GET  /api/session      scenario card, state, client options
    POST /api/offer        {sdp, type} -> {sdp, type, pc_id}   (once)
    POST /api/hangup       the person hung up
    GET  /api/state        {state, end_reason, error, record, scores}
    POST /api/rating       {task_done, natural, comment} -> stored in record.json
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web
from loguru import logger
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from voxbench.pipelines.human.talk import TalkCall
from voxbench.records import (
    ConversationRecord,
    ErrorEvent,
    Event,
    HumanRating,
    Speech,
    ToolCall,
    Transcript,
    TTSText,
)
from voxbench.transports.loopback import require_loopback

STATIC_FILES = {"talk.js": "text/javascript", "talk.css": "text/css", "index.html": "text/html"}
OnRated = Callable[[Path, ConversationRecord], Awaitable[dict[str, Any]] | dict[str, Any]]


def _static(name: str) -> bytes:
    return resources.files("voxbench.pipelines.human").joinpath("talk_static", name).read_bytes()


def page_message(ev: Event) -> dict[str, Any] | None:
    """A recorded event as a data-channel message for the page, or None."""
    if isinstance(ev, Transcript) and ev.final and ev.channel == "user" and ev.text.strip():
        return {"type": "voxbench-transcript", "who": "user", "text": ev.text.strip(), "t": round(ev.t, 2)}
    if isinstance(ev, TTSText) and ev.channel == "agent" and ev.text.strip():
        return {"type": "voxbench-transcript", "who": "agent", "text": ev.text.strip(), "t": round(ev.t, 2)}
    if isinstance(ev, ToolCall):
        return {"type": "voxbench-tool", "name": ev.name, "t": round(ev.t, 2)}
    if isinstance(ev, Speech):
        return {"type": "voxbench-speech", "channel": ev.channel, "state": ev.state}
    if isinstance(ev, ErrorEvent) and ev.fatal:
        return {"type": "voxbench-error", "message": ev.message}
    return None


class TalkWebServer:
    """Serves the page and runs one `TalkCall` over WebRTC."""

    def __init__(
        self,
        talk: TalkCall,
        card: dict[str, Any],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        raw_mic: bool = False,
        on_rated: OnRated | None = None,
    ):
        from pipecat.transports.base_transport import TransportParams
        from pipecat.transports.smallwebrtc.connection import SmallWebRTCConnection
        from pipecat.transports.smallwebrtc.transport import SmallWebRTCTransport

        self.talk = talk
        self.card = card
        self.host = host
        self.port = port
        self.raw_mic = raw_mic
        self.on_rated = on_rated
        self.scores: dict[str, Any] | None = None
        self.rated = asyncio.Event()
        self.offered = asyncio.Event()
        self.connection = SmallWebRTCConnection(ice_servers=[])
        self.transport = SmallWebRTCTransport(
            self.connection, TransportParams(audio_in_enabled=True, audio_out_enabled=True)
        )
        self._offer_lock = asyncio.Lock()
        self._runner: web.AppRunner | None = None

        @self.transport.event_handler("on_client_connected")
        async def _connected(_t: Any, _c: Any) -> None:
            await self.talk.on_connected()
            self._send({"type": "voxbench-state", "state": "in_call"})

        @self.transport.event_handler("on_client_disconnected")
        async def _disconnected(_t: Any, _c: Any) -> None:
            self.talk.on_disconnected()

        talk.open(self.transport)
        talk.add_listener(self._forward)

    # --- plumbing ----------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a closing channel must never break the recorder
            self.connection.send_app_message(msg)

    def _forward(self, ev: Event) -> None:
        msg = page_message(ev)
        if msg is not None:
            self._send(msg)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    async def start(self) -> str:
        app = web.Application(client_max_size=1 << 20)
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/static/{name}", self._static),
                web.get("/api/session", self._session),
                web.get("/api/state", self._state),
                web.post("/api/offer", self._offer),
                web.post("/api/hangup", self._hangup),
                web.post("/api/rating", self._rating),
            ]
        )
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
        with contextlib.suppress(Exception):
            await self.connection.disconnect()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- handlers ------------------------------------------------------------------
    async def _index(self, _r: web.Request) -> web.Response:
        return web.Response(body=_static("index.html"), content_type="text/html")

    async def _static(self, r: web.Request) -> web.Response:
        name = r.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return web.Response(
            body=_static(name), content_type=STATIC_FILES[name], headers={"Cache-Control": "no-store"}
        )

    def _state_json(self) -> dict[str, Any]:
        req = self.talk.request
        rec = self.talk.record
        return {
            "state": self.talk.state,
            "end_reason": req.reason if req else None,
            "status": req.status if req else None,
            "error": req.error if req else None,
            "record": str(self.talk.out) if rec is not None else None,
            "duration_s": rec.duration_s if rec is not None else None,
            "scores": self.scores,
        }

    async def _session(self, _r: web.Request) -> web.Response:
        return web.json_response(
            {
                "card": self.card,
                "agent": self.talk.agent_name,
                "raw_mic": self.raw_mic,
                **self._state_json(),
            }
        )

    async def _state(self, _r: web.Request) -> web.Response:
        return web.json_response(self._state_json())

    async def _offer(self, r: web.Request) -> web.Response:
        try:
            body = await r.json()
            sdp, kind = str(body["sdp"]), str(body.get("type", "offer"))
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "expected JSON {sdp, type}"}, status=400)
        async with self._offer_lock:
            if self.talk.started:
                return web.json_response(
                    {"error": "this session already had its call; start `voxbench talk` again"}, status=409
                )
            self.talk.person.user_agent = r.headers.get("User-Agent", "")
            try:
                await self.connection.initialize(sdp=sdp, type=kind)
            except Exception as exc:
                logger.exception("bad WebRTC offer")
                return web.json_response({"error": f"could not answer the offer: {exc}"}, status=400)
            await self.talk.start()
            self.offered.set()
            answer = self.connection.get_answer()
        return web.json_response(answer)

    async def _hangup(self, _r: web.Request) -> web.Response:
        self.talk.hang_up("person")
        return web.json_response(self._state_json())

    async def _rating(self, r: web.Request) -> web.Response:
        if self.talk.record is None:
            return web.json_response({"error": "the call has not ended yet"}, status=409)
        try:
            rating = HumanRating.model_validate(await r.json())
        except (ValueError, ValidationError) as exc:
            return web.json_response({"error": f"invalid rating: {exc}"}, status=400)
        record = self.talk.rate(rating)
        if self.on_rated is not None:
            try:
                res = self.on_rated(self.talk.out, record)
                self.scores = await res if asyncio.iscoroutine(res) else res  # type: ignore[assignment]
            except Exception as exc:  # scoring problems must not lose the rating
                logger.exception("scoring the talk record failed")
                self.scores = {"error": f"{type(exc).__name__}: {exc}"}
        self.rated.set()
        return web.json_response(self._state_json())


class TalkPageOptions(BaseModel):
    """Where the page is served and how long it waits (``voxbench talk``'s page options).

    ``raw_mic`` turns the browser's echo cancellation, noise suppression and gain control
    off (a test's fake microphone file, or a person with a headset who wants the raw signal).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(default=0, ge=0, le=65535, description="0: any free port")
    raw_mic: bool = False
    offer_timeout_s: float | None = Field(default=None, gt=0, description="None: wait for a caller forever")
    rating_timeout_s: float | None = Field(default=900.0, gt=0, description="after the call; None: forever")

    @field_validator("host")
    @classmethod
    def _loopback(cls, v: str) -> str:
        return require_loopback(v, "talk page host")


async def serve_talk(
    talk: TalkCall,
    card: dict[str, Any],
    options: TalkPageOptions | None = None,
    *,
    on_ready: Callable[[str], None] | None = None,
    on_rated: OnRated | None = None,
) -> ConversationRecord | None:
    """Serve the page, run the one call, wait for the rating; returns the record (None if nobody called)."""
    opts = options or TalkPageOptions()
    server = TalkWebServer(
        talk, card, host=opts.host, port=opts.port, raw_mic=opts.raw_mic, on_rated=on_rated
    )
    await talk.prepare()
    url = await server.start()
    if on_ready is not None:
        on_ready(url)
    try:
        try:
            await asyncio.wait_for(server.offered.wait(), timeout=opts.offer_timeout_s)
        except TimeoutError:
            logger.warning("nobody called; closing the page")
            await talk.cancel()
            return None
        record = await talk.finish()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.rated.wait(), timeout=opts.rating_timeout_s)
        await asyncio.sleep(0.3)  # let the rating response reach the page
        return talk.record or record
    finally:
        await talk.cancel()  # a page that failed mid-way leaves no session running
        await server.stop()
