"""An external agent under test: a bot that is not ours, reached over a WebSocket.

Our side keeps the usual shape (the simulator calls our agent server on loopback, the
recorder hears both channels), and the "agent" pipeline relays to the external bot:

    server.input() -> ExternalAgentRelay (WebSocket client to the bot) -> server.output()

* ``pcm16``: the bot speaks voxbench's PCM protocol, i.e. pipecat protobuf frames with raw
  16-bit PCM audio (what a pipecat bot with ``ProtobufFrameSerializer`` on a websocket
  server transport speaks); non-audio frames are ignored both ways.
* ``twilio``: the bot speaks Twilio media streams (``connected``/``start``/``media``/
  ``stop`` JSON, mu-law 8 kHz); a ``clear`` is its interruption.

The relay connects when the caller's first audio arrives (the bot's greeting is then
heard), retrying until ``connect_timeout_s``. The bot's audio is relayed as a speech
stream (bot speaking is detected on it). If the bot closes the socket the call ends
("agent_hangup"); a failed connect is an infrastructure failure of the agent.

Tools: a :class:`~voxbench.pipelines.agent.tool_bridge.ToolBridge` on loopback serves the
scenario's ToolExecutor; its URL is announced in-band (query parameter ``voxbench_tools``
on the connect URL, and ``start.customParameters.voxbench_tools`` for Twilio). Each
bridged call is recorded as a ToolCall/ToolResult event; a successful
``transfer_to_agent`` ends the call ("transfer").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline
from voxbench.pipelines.agent.tool_bridge import ToolBridge
from voxbench.processors.external_relay import ExternalAgentRelay
from voxbench.records import AgentInfo
from voxbench.transports.config import ExternalAgentConfig


@dataclass
class ExternalAgentServices:
    """No services of ours: the agent is elsewhere. ``llm`` is None (nothing to warm up)."""

    external: ExternalAgentConfig
    headers: dict[str, str] = field(default_factory=dict)
    info: AgentInfo = field(default_factory=AgentInfo)
    llm: Any = None
    relay: ExternalAgentRelay | None = None

    def build_pipeline(
        self,
        transport: BaseTransport,
        inputs: AgentInputs,
    ) -> AgentPipeline:
        spec, executor, control, clock = inputs.spec, inputs.executor, inputs.control, inputs.clock
        ext = self.external
        bridge = (
            ToolBridge(executor, spec, ext.tool_bridge_host, ext.tool_bridge_port)
            if ext.tool_bridge
            else None
        )
        relay = ExternalAgentRelay(ext, bridge, control, clock, headers=self.headers)
        if bridge is not None:
            bridge.on_call = relay.on_tool_call
        self.relay = relay
        pipeline = Pipeline([transport.input(), relay, transport.output()])
        return AgentPipeline(pipeline, LLMContext(), transport)
