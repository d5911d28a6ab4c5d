"""The call's LLM warm-up (``pipelines/warmup.py``) for a LiveKit agent on voxbench's llama.cpp.

Why: a local model spends its first answer reading the agent's instructions and tool schemas
(about two minutes for EVA's airline policy on 2 cores), longer than the call's inactivity
limit. Voxbench primes its own agents' LLM before the clock starts; a LiveKit agent's LLM is
the agent's own (built by its factory), so the warm-up builds the agent first, then asks the
agent's LLM, through the agent's own client, one short completion over its instructions and
tools. The request is the session's first one up to the caller's words, so the server's prompt
cache holds that prefix when the call starts.

Only when voxbench started the LLM server for the profile (``llm: {kind: local}``): a hosted
model needs no priming and should not be billed for it. Best effort, like every warm-up: an
agent whose LLM is not a LiveKit ``llm.LLM`` (a realtime model, an inference-gateway string)
is not warmed, and the call runs as it would have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livekit.agents import APIConnectOptions, llm
from livekit.agents.voice.generation import update_instructions

if TYPE_CHECKING:
    from voxbench.pipelines.agent.livekit_session import LiveKitSessionProcessor

PROBE = "Hello."
# one request, as long as the warm-up may take (``warm_up``'s own bound): the agent's own timeout
# is for a turn, and a retry would read the whole prompt again
WARM_REQUEST = APIConnectOptions(max_retry=0, timeout=180.0)


class LiveKitWarmUp:
    """What ``warm_up`` calls an LLM service: ``get_chat_completions`` returns the stream whose
    first chunk it waits for (and then closes)."""

    def __init__(self, processor: LiveKitSessionProcessor) -> None:
        self.processor = processor

    async def get_chat_completions(self, probe: Any) -> llm.LLMStream:
        proc = self.processor
        await proc.prepare()
        session, agent = proc.session, proc.agent
        if session is None or agent is None:
            raise RuntimeError(proc.build_error or "the LiveKit agent was not built")
        model = agent.llm if isinstance(agent.llm, llm.LLM) else session.llm
        if not isinstance(model, llm.LLM):
            raise RuntimeError(f"the agent's LLM is {type(model).__name__}, not a LiveKit llm.LLM")
        ctx = llm.ChatContext.empty()
        # the system message(s) as the voice pipeline writes them (its own helper), then the probe
        update_instructions(ctx, instructions=agent.instructions, add_if_missing=True, modality="audio")
        ctx.add_message(role="user", content=PROBE)
        tools = llm.ToolContext(agent.tools).flatten()
        return model.chat(chat_ctx=ctx, tools=tools, conn_options=WARM_REQUEST)
