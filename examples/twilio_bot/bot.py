"""The example pipecat bot behind a Twilio media-stream endpoint.

    python examples/twilio_bot/bot.py                   # whisper + llama.cpp + piper, port 8766
    python examples/twilio_bot/bot.py --fake-services   # scripted fakes (CI: no model)

The same bot as ``examples/pipecat_bot`` (its services, tools and one-call-at-a-time loop),
with pipecat's ``TwilioFrameSerializer`` on the WebSocket: Twilio's ``connected`` /
``start`` / ``media`` / ``stop`` JSON events, mu-law at 8 kHz on the wire, 16 kHz inside
the pipeline. This is what Twilio's ``<Connect><Stream url="wss://.../ws">`` talks to, and
what voxbench's ``twilio`` external profile speaks.

The ``start`` event carries the stream's SID (our replies must name it) and the stream's
``customParameters``; voxbench puts its tool-bridge URL there (``voxbench_tools``), the
Twilio-native place for per-call parameters. ``auto_hang_up=False``: there is no Twilio
REST call to make at the end of a benchmark call (with a real Twilio account, pass the
call SID and credentials and leave it on).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from loguru import logger
from pipecat.frames.frames import Frame
from pipecat.serializers.twilio import TwilioFrameSerializer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pipecat_bot"))
import bot as pipecat_bot  # examples/pipecat_bot/bot.py: the bot itself

DEFAULT_PORT = 8766


class StreamStartSerializer(TwilioFrameSerializer):
    """Twilio's serializer that also reads the ``start`` event: the stream SID for our
    replies, and the tool bridge from ``customParameters``."""

    def __init__(self) -> None:
        super().__init__(
            stream_sid="",
            params=TwilioFrameSerializer.InputParams(auto_hang_up=False, sample_rate=pipecat_bot.SAMPLE_RATE),
        )
        self.bridge: pipecat_bot.ToolBridgeClient | None = None

    def use_bridge(self, bridge: pipecat_bot.ToolBridgeClient) -> None:
        self.bridge = bridge

    async def deserialize(self, data: str | bytes) -> Frame | None:
        message = json.loads(data)
        if message.get("event") == "start":
            start = message.get("start", {})
            self._stream_sid = start.get("streamSid", "")
            url = (start.get("customParameters") or {}).get(pipecat_bot.TOOLS_PARAM)
            logger.info(f"stream {self._stream_sid} started")
            if url and self.bridge is not None and self.bridge.url is None:
                await self.bridge.connect(url)
            return None
        return await super().deserialize(data)


def _bridge_hook(serializer: Any) -> Any:
    return serializer.use_bridge


def main(argv: list[str] | None = None) -> None:
    args = pipecat_bot.parse_args(argv, port=DEFAULT_PORT, doc=__doc__)
    pipecat_bot.log_to_stderr()
    make, server = pipecat_bot.services_factory(args)
    try:
        asyncio.run(pipecat_bot.serve(args, StreamStartSerializer, make, _bridge_hook))
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
