"""The real count and the real fit on the bundled 0.5B model (marked slow; about a minute on 2 cores)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pipecat.services.openai.llm")

from openai import AsyncOpenAI, BadRequestError
from pipecat.processors.aggregators.llm_context import LLMContext

from voxbench.localmodels import QWEN_05B, LlamaServer, llm_installed
from voxbench.pipelines.services import LLMConfig, make_llm, make_local_llm_server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not llm_installed(QWEN_05B), reason="bundled Qwen 0.5B not installed"),
]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_ticket",
            "description": "Look up an IT ticket by its number.",
            "parameters": {
                "type": "object",
                "properties": {"ticket": {"type": "string"}},
                "required": ["ticket"],
            },
        },
    }
]


def long_call(turns: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    for i in range(turns):
        msgs.append(
            {
                "role": "user",
                "content": f"Turn {i}: my laptop {1000 + i} cannot reach the VPN from floor {i}.",
            }
        )
        msgs.append(
            {"role": "assistant", "content": f"I noted laptop {1000 + i} on floor {i}; let me check the VPN."}
        )
    msgs.append({"role": "user", "content": "Thanks. What was my last laptop number?"})
    return msgs


async def test_the_count_is_the_prompt_the_server_reads() -> None:
    with LlamaServer(QWEN_05B, n_ctx=2048, slot_dir=None) as srv:
        request = {
            "messages": [{"role": "system", "content": "You help with IT."}, *long_call(3)],
            "tools": TOOLS,
        }
        async with AsyncOpenAI(base_url=srv.base_url, api_key="sk-local") as client:
            reply = await client.chat.completions.create(model=srv.model, max_tokens=1, **request)
        assert reply.usage is not None
        assert await srv.token_counter().count(request) == reply.usage.prompt_tokens


async def test_a_call_longer_than_the_window_is_answered_not_refused() -> None:
    cfg = LLMConfig(local_model="qwen2.5-coder-0.5b", n_ctx=1024, max_tokens=24)
    with make_local_llm_server(cfg) as srv:
        history = long_call(30)  # ~1.4k tokens: more than the whole window
        async with AsyncOpenAI(base_url=srv.base_url, api_key="sk-local") as client:
            with pytest.raises(BadRequestError, match="exceeds the available context size"):
                await client.chat.completions.create(model=srv.model, messages=history, max_tokens=24)  # type: ignore[arg-type]

        llm = make_llm(cfg, server=srv, system_instruction="You are an IT help desk agent. Answer briefly.")
        context = LLMContext(messages=[dict(m) for m in history])
        stream = await llm.get_chat_completions(context)
        text = ""
        async for chunk in stream:
            if chunk.choices and chunk.choices[0].delta and chunk.choices[0].delta.content:
                text += chunk.choices[0].delta.content
        assert text.strip()
        fit = llm.context_fit
        assert fit.trims == 1 and fit.dropped > 0
        invocation = await llm.get_llm_adapter().get_llm_invocation_params(
            context, system_instruction=llm.settings.system_instruction, convert_developer_to_user=False
        )
        sent = llm.build_chat_completion_params(invocation)
        assert await srv.token_counter().count(sent) <= 1024 - 24
        assert sent["messages"][-1] == history[-1]
