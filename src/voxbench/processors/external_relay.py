"""Relays the caller's audio to an external agent (a bot that is not ours) over a WebSocket, and its audio back.

Hosts the tool bridge's lifecycle: bridged tool calls are pushed as pipecat function-call
frames (so the recorder sees them) and a transfer ends the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from typing import Any, Protocol
from urllib.parse import urlencode, urlsplit, urlunsplit

from loguru import logger
from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    InputAudioRawFrame,
    OutputAudioRawFrame,
    SpeechOutputAudioRawFrame,
    StartFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor, FrameProcessorSetup
from pipecat.serializers.base_serializer import FrameSerializer
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK

from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import TRANSFER_TOOL, CallControl
from voxbench.processors.tool_frames import push_tool_call
from voxbench.transports.config import ExternalAgentConfig
from voxbench.transports.redact import redact_url, scrub
from voxbench.transports.serializers import AudioOnlyProtobufSerializer, TwilioClientSerializer

STREAM_SID = "MZvoxbenchexternal000000000000000"
MAX_BUFFERED_CHUNKS = 250  # ~10 s of caller audio held while connecting
TOOLS_PARAM = "voxbench_tools"  # query parameter / Twilio customParameter carrying the bridge URL
SHOWN_PARAMS = frozenset({TOOLS_PARAM})  # the one query value logs may repeat (ours, not a secret)


class ToolBridgeLike(Protocol):
    """What the relay needs of the tool bridge (``pipelines.agent.tool_bridge.ToolBridge``)."""

    @property
    def url(self) -> str: ...

    async def start(self) -> str: ...

    async def stop(self) -> None: ...


def with_query(url: str, **params: str) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode(params)) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


class ExternalAgentRelay(FrameProcessor):
    """Relays caller audio to an external bot and the bot's audio back; hosts the tool bridge."""

    def __init__(
        self,
        cfg: ExternalAgentConfig,
        bridge: ToolBridgeLike | None,
        control: CallControl,
        clock: ConversationClock,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.cfg = cfg
        self.bridge = bridge
        self.control = control
        self.clock = clock
        self.headers = dict(headers or {})
        self.serializer: FrameSerializer = (
            TwilioClientSerializer(STREAM_SID) if cfg.protocol == "twilio" else AudioOnlyProtobufSerializer()
        )
        self._ws: ClientConnection | None = None
        self._connect_task: asyncio.Task[None] | None = None
        self._recv_task: asyncio.Task[None] | None = None
        self._pending: list[InputAudioRawFrame] = []
        self._closing = False
        self.bytes_sent = 0
        self.bytes_received = 0

    async def setup(self, setup: FrameProcessorSetup) -> None:  # type: ignore[override]
        await super().setup(setup)
        await self.serializer.setup(setup)

    # --- lifecycle ---------------------------------------------------------------
    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            if self.bridge is not None:
                await self.bridge.start()
                logger.info(f"tool bridge for the external agent at {self.bridge.url}")
            await self.push_frame(frame, direction)
        elif isinstance(frame, InputAudioRawFrame) and direction == FrameDirection.DOWNSTREAM:
            await self._caller_audio(frame)  # consumed: it goes to the bot, not to our output
        elif isinstance(frame, EndFrame | CancelFrame):
            await self._shutdown()
            await self.push_frame(frame, direction)
        else:
            await self.push_frame(frame, direction)

    async def cleanup(self) -> None:
        await super().cleanup()
        await self._shutdown()

    async def _shutdown(self) -> None:
        self._closing = True
        for task in (self._connect_task, self._recv_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self._connect_task = self._recv_task = None
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                if isinstance(self.serializer, TwilioClientSerializer):
                    await ws.send(json.dumps({"event": "stop", "streamSid": STREAM_SID}))
                await ws.close()
        if self.bridge is not None:
            await self.bridge.stop()

    # --- caller -> bot -----------------------------------------------------------
    async def _caller_audio(self, frame: InputAudioRawFrame) -> None:
        if self._closing:
            return
        if self._ws is None:
            if self._connect_task is None:
                self._connect_task = asyncio.create_task(self._connect(), name="external-agent-connect")
            if len(self._pending) < MAX_BUFFERED_CHUNKS:
                self._pending.append(frame)
            return
        await self._send(frame)

    async def _send(self, frame: InputAudioRawFrame) -> None:
        out = OutputAudioRawFrame(
            audio=frame.audio, sample_rate=frame.sample_rate, num_channels=frame.num_channels
        )
        data = await self.serializer.serialize(out)
        if data is None or self._ws is None:
            return
        try:
            await self._ws.send(data)
            self.bytes_sent += len(data)
        except ConnectionClosed:
            pass  # the receive loop reports it

    def _connect_url(self) -> str:
        url = self.cfg.resolved_url()
        if self.bridge is not None and self.cfg.protocol == "pcm16":
            url = with_query(url, **{TOOLS_PARAM: self.bridge.url})
        return url

    async def _connect(self) -> None:
        url = self._connect_url()
        headers = dict(self.headers)
        if self.bridge is not None:
            headers["X-Voxbench-Tools"] = self.bridge.url
        clock = asyncio.get_running_loop()  # the call's clock (a virtual loop's in tests)
        deadline = clock.time() + self.cfg.connect_timeout_s
        last: Exception | None = None
        while clock.time() < deadline and not self._closing:
            try:
                ws = await asyncio.wait_for(
                    connect(url, additional_headers=headers, open_timeout=5, max_size=None), timeout=6
                )
                break
            except (OSError, TimeoutError, ConnectionClosed, ValueError) as exc:
                last = exc
                await asyncio.sleep(0.2)
        else:
            if not self._closing:
                shown, why = redact_url(url, SHOWN_PARAMS), scrub(str(last), url, SHOWN_PARAMS)
                await self.push_error(
                    f"external agent at {shown} not reachable within {self.cfg.connect_timeout_s:g}s: {why}",
                    force_treat_as_permanent=True,
                )
            return
        self._ws = ws
        logger.info(
            f"connected to the external agent at {redact_url(url, SHOWN_PARAMS)} ({self.cfg.protocol})"
        )
        if isinstance(self.serializer, TwilioClientSerializer):
            for msg in self._twilio_start():
                await ws.send(msg)
        pending, self._pending = self._pending, []
        for f in pending:
            await self._send(f)
        self._recv_task = asyncio.create_task(self._receive(ws), name="external-agent-receive")

    def _twilio_start(self) -> list[str]:
        assert isinstance(self.serializer, TwilioClientSerializer)
        msgs = self.serializer.start_messages()
        if self.bridge is None:
            return msgs
        out = []
        for m in msgs:
            data = json.loads(m)
            if data.get("event") == "start":
                data["start"]["customParameters"] = {TOOLS_PARAM: self.bridge.url}
            out.append(json.dumps(data))
        return out

    # --- bot -> caller -----------------------------------------------------------
    async def _receive(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                self.bytes_received += len(message)
                frame = await self.serializer.deserialize(message)
                if isinstance(frame, InputAudioRawFrame):
                    await self.push_frame(
                        SpeechOutputAudioRawFrame(
                            audio=frame.audio, sample_rate=frame.sample_rate, num_channels=frame.num_channels
                        )
                    )
        except ConnectionClosedOK:
            pass
        except ConnectionClosed as exc:
            if not self._closing and not self.control.ending:
                await self.push_error(f"external agent connection lost: {exc}", force_treat_as_permanent=True)
            return
        if not self._closing and not self.control.ending:
            logger.info("the external agent closed the connection")
            self.control.end("agent_hangup", t=self.clock.now())

    # --- tools ---------------------------------------------------------------------
    async def on_tool_call(self, name: str, args: dict[str, Any], result: dict[str, Any]) -> None:
        """Record a bridged call like a pipecat function call; transfer ends the call."""
        call_id = f"bridge_{uuid.uuid4().hex[:12]}"
        await push_tool_call(self, name, call_id, args, result)
        if name == TRANSFER_TOOL and result.get("status") != "error":
            self.control.end("transfer", t=self.clock.now())
