"""A long call is fitted to the model's window: the oldest whole turns leave the request.

The counter is a fake subclass of the real :class:`PromptTokenCounter` (one token per word of
each message and tool, plus a few per message, as a chat template adds), so the arithmetic is
visible; the real count (llama.cpp's template and tokenizer) is checked in the slow test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from voxbench.localmodels import PromptTokenCounter
from voxbench.pipelines.services.context_fit import ContextFit, ContextOverflowError, cut_points, split_fixed

PER_MESSAGE = 4


class WordCounter(PromptTokenCounter):
    """Words of every message and tool schema, plus ``PER_MESSAGE`` per message."""

    def __init__(self) -> None:
        self.requests: list[Mapping[str, Any]] = []

    async def count(self, request: Mapping[str, Any]) -> int:
        self.requests.append(request)
        messages = list(request.get("messages") or [])
        words = sum(len(json.dumps(m.get("content") or m.get("tool_calls") or "").split()) for m in messages)
        tools = request.get("tools")
        tool_words = len(json.dumps(tools).split()) if isinstance(tools, list) else 0
        return words + tool_words + PER_MESSAGE * len(messages)


def as_request(messages: list[Any]) -> dict[str, Any]:
    return {"messages": messages}


SYSTEM = [
    {"role": "system", "content": "policy " * 100},
    {"role": "system", "content": "The current date is Monday."},
]


def turn(i: int, words: int = 20) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": f"caller {i} " + "word " * words},
        {"role": "assistant", "content": f"agent {i} " + "word " * words},
    ]


def tool_turn(i: int) -> list[dict[str, Any]]:
    """A reply that spoke, then called a tool (two assistant messages), and the tool's result."""
    call = {"id": f"c{i}", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    return [
        {"role": "user", "content": f"caller {i} " + "word " * 20},
        {"role": "assistant", "content": "One moment."},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": "result " * 30},
        {"role": "assistant", "content": f"agent {i} found it"},
    ]


def conversation(n: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "assistant", "content": "Hello! How can I help?"}]
    for i in range(n):
        msgs += tool_turn(i) if i % 2 else turn(i)
    return msgs


async def test_a_request_that_fits_is_left_alone() -> None:
    fit = ContextFit(WordCounter(), context_tokens=2000, reply_tokens=200)
    messages = [*SYSTEM, *conversation(3)]
    done = await fit.fit(messages, as_request)
    assert not done.trimmed and done.dropped == 0 and fit.trims == 0
    assert fit.apply(messages) == messages


async def test_the_oldest_turns_leave_and_the_rest_fits() -> None:
    counter = WordCounter()
    fit = ContextFit(counter, context_tokens=600, reply_tokens=100, headroom=0.2)
    messages = [*SYSTEM, *conversation(12)]
    assert await counter.count(as_request(messages)) > fit.limit
    done = await fit.fit(messages, as_request)
    sent = fit.apply(messages)
    assert done.trimmed and fit.trims == 1 and done.dropped > 0
    assert sent[:2] == SYSTEM  # the policy and the date never leave
    assert sent[2:] == messages[2 + done.dropped :]  # a contiguous tail of the conversation
    assert sent[-2:] == messages[-2:]  # the caller's latest turn stays
    assert await counter.count(as_request(sent)) == done.prompt_tokens <= fit.limit
    # the trim freed headroom: at most 80% of the room left after the fixed part is used
    fixed = await counter.count(as_request(SYSTEM))
    target = fit.limit - int((fit.limit - fixed) * 0.2)
    assert done.prompt_tokens <= target
    # and no more than needed: one turn fewer left out would be over that target
    convo = messages[2:]
    fewer = max(c for c in [0, *cut_points(convo)] if c < done.dropped)
    assert await counter.count(as_request([*SYSTEM, *convo[fewer:]])) > target


async def test_tool_calls_stay_with_their_results() -> None:
    messages = [*SYSTEM, *conversation(14)]
    whole = await WordCounter().count(as_request(messages))
    for window in range(420, whole + 100, 23):  # cuts land at many different places
        fit = ContextFit(WordCounter(), context_tokens=window, reply_tokens=100, headroom=0.0)
        assert (await fit.fit(messages, as_request)).trimmed
        _, kept = split_fixed(fit.apply(messages))
        assert kept[0]["role"] != "tool"
        call_ids = {c["id"] for m in kept for c in m.get("tool_calls") or []}
        assert all(m["tool_call_id"] in call_ids for m in kept if m["role"] == "tool")
        first = messages.index(kept[0])
        assert not (kept[0]["role"] == "assistant" and messages[first - 1]["role"] == "assistant")


async def test_a_cut_stays_between_turns_until_the_headroom_is_used() -> None:
    """The same turns stay out, so the request's prefix (and the model's prompt cache) holds."""
    fit = ContextFit(WordCounter(), context_tokens=700, reply_tokens=100, headroom=0.3)
    messages = [*SYSTEM, *conversation(12)]
    first = await fit.fit(messages, as_request)
    messages += turn(99, words=5)
    second = await fit.fit(messages, as_request)
    assert not second.trimmed and second.dropped == first.dropped and fit.trims == 1
    while not (done := await fit.fit(messages, as_request)).trimmed:
        messages += turn(100, words=10)
    assert fit.trims == 2 and done.dropped > first.dropped


async def test_a_replaced_conversation_is_not_cut_by_an_old_decision() -> None:
    fit = ContextFit(WordCounter(), context_tokens=600, reply_tokens=100)
    await fit.fit([*SYSTEM, *conversation(12)], as_request)
    other = [*SYSTEM, *turn(7)]
    assert fit.apply(other) == other
    assert not (await fit.fit(other, as_request)).trimmed


async def test_a_fixed_part_too_big_for_the_window_is_a_clear_error() -> None:
    fit = ContextFit(WordCounter(), context_tokens=150, reply_tokens=50)
    with pytest.raises(
        ContextOverflowError, match=r"fixed prompt .* 1[0-9][0-9] tokens.*raise the LLM's n_ctx"
    ):
        await fit.fit([*SYSTEM, *conversation(2)], as_request)


async def test_a_latest_turn_that_cannot_fit_is_a_clear_error() -> None:
    fit = ContextFit(WordCounter(), context_tokens=400, reply_tokens=100)
    messages = [*SYSTEM, *conversation(2), *turn(5, words=300)[:1]]
    with pytest.raises(ContextOverflowError, match="caller's latest turn"):
        await fit.fit(messages, as_request)


def test_cut_points_are_whole_turns_before_the_latest_caller_message() -> None:
    convo = conversation(2)  # greeting, turn(0), tool_turn(1)
    roles = [m["role"] for m in convo]
    assert roles == ["assistant", "user", "assistant", "user", "assistant", "assistant", "tool", "assistant"]
    assert cut_points(convo) == [1, 2, 3]  # never into the latest caller turn (index 3 on)
    assert cut_points([{"role": "user", "content": "hi"}]) == []


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="no room"):
        ContextFit(WordCounter(), context_tokens=256, reply_tokens=256)
    with pytest.raises(ValueError, match="headroom"):
        ContextFit(WordCounter(), context_tokens=1024, reply_tokens=256, headroom=1.0)


async def test_the_agent_service_sends_the_fitted_request_and_counts_its_trims() -> None:
    """The real service (json_schema shaping, date note) over HTTP: the counter sees the request
    exactly as it is sent, the server gets it without the oldest turns, the context keeps them."""
    pytest.importorskip("pipecat.services.openai.llm")
    from pipecat.processors.aggregators.llm_context import LLMContext

    from tests.fakes.openai_server import FakeChatServer
    from voxbench.pipelines.agent.cascade import instruct_agent
    from voxbench.pipelines.agent.tools import tools_schema
    from voxbench.pipelines.services.llm import ChatSettings, make_openai_compatible_llm
    from voxbench.pipelines.services.reply_policy import ReplyPolicy
    from voxbench.scenarios import load_dataset

    spec = load_dataset(None, ["airline"]).domains["airline"].agent
    policy = ReplyPolicy(tool_call_mode="json_schema", say_then_tool=True)
    counter = WordCounter()
    history = conversation(40)
    async with FakeChatServer(['{"say": "Sure.", "tool": "none"}']) as server:
        fit = ContextFit(counter, context_tokens=3500, reply_tokens=256)
        llm = make_openai_compatible_llm(ChatSettings(server.base_url, "m", "k"), policy, context_fit=fit)
        instruct_agent(llm, spec, "2026-03-17 10:45 CST")
        context = LLMContext(messages=[dict(m) for m in history], tools=tools_schema(spec))
        stream = await llm.get_chat_completions(context)
        async for _ in stream:
            pass
    sent = server.requests[-1]
    assert fit.trims == 1 and 0 < fit.dropped < len(history)
    assert [m["role"] for m in sent["messages"][:2]] == ["system", "system"]
    assert "The current date and time is 2026-03-17" in sent["messages"][1]["content"]
    assert "response_format" in sent and "tools" not in sent  # shaped as ever
    # what was counted is what was sent, and it fits
    assert any(r["messages"] == sent["messages"] for r in counter.requests)
    assert await counter.count(sent) <= fit.limit
    assert len(context.get_messages()) == len(history)  # the call's own context keeps every turn
    assert llm.stats()["context_trims"] == 1
    assert llm.stats()["context_messages_dropped"] == fit.dropped
