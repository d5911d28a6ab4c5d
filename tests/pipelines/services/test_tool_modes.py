"""Fast tests: compact tool prompts, JSON-schema-constrained replies, markdown-free speech."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, Choice, ChoiceDelta

from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.speech_text import MarkdownSpeechFilter, spoken_text
from voxbench.pipelines.services.tool_prompt import (
    compact_tool_prompt,
    prepare_tool_request,
    reply_json_schema,
)
from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream
from voxbench.pipelines.services.tool_text import parse_say, parse_tool_calls

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_reservation",
            "description": "Look up a booking. Also verifies the caller.",
            "parameters": {
                "type": "object",
                "properties": {
                    "confirmation_number": {"type": "string", "description": "code"},
                    "last_name": {"type": "string"},
                },
                "required": ["confirmation_number", "last_name"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "assign_seat",
            "description": "Give a seat.",
            "parameters": {
                "type": "object",
                "properties": {
                    "seat_preference": {"type": "string", "enum": ["window", "aisle"]},
                    "flight_number": {"type": "string"},
                },
                "required": ["seat_preference"],
            },
        },
    },
]
NAMES = {"get_reservation", "assign_seat"}


def test_reply_schema_has_a_say_branch_and_one_strict_branch_per_tool() -> None:
    schema = reply_json_schema(TOOLS)
    branches = schema["anyOf"]
    assert branches[0]["required"] == ["say"]
    seat = branches[2]
    assert seat["properties"]["tool"]["const"] == "assign_seat"
    args = seat["properties"]["arguments"]
    assert args["required"] == ["seat_preference"] and args["additionalProperties"] is False
    assert args["properties"]["seat_preference"]["enum"] == ["window", "aisle"]
    assert "description" not in args["properties"]["seat_preference"]  # keeps the grammar small


def test_compact_prompt_is_short_deterministic_and_lists_parameters() -> None:
    text = compact_tool_prompt(TOOLS)
    assert text == compact_tool_prompt(json.loads(json.dumps(TOOLS)))
    assert "- get_reservation(confirmation_number: string, last_name: string): Look up a booking" in text
    assert "- assign_seat(seat_preference: window|aisle, flight_number?: string): Give a seat" in text
    assert "5512" not in text and "Example" not in text  # example values leak into real calls
    assert len(text) < 1200


def test_parse_accepts_the_tool_key_and_say_replies() -> None:
    calls = parse_tool_calls('{"tool": "assign_seat", "arguments": {"seat_preference": "window"}}', NAMES)
    assert calls and calls[0].name == "assign_seat" and calls[0].arguments == {"seat_preference": "window"}
    assert parse_tool_calls('{"say": "Hello"}', NAMES) is None
    assert parse_say('{"say": "Your code, please?"}') == "Your code, please?"
    assert parse_say('```json\n{"say": "Hi"}\n```') == "Hi"
    assert parse_say("Just prose") is None


def _request(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": "m", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}


HISTORY: list[dict[str, Any]] = [
    {"role": "system", "content": "Policy."},
    {"role": "user", "content": "QX7T4M, Whitfield"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_reservation", "arguments": '{"confirmation_number": "QX7T4M"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"status": "success"}'},
    {"role": "assistant", "content": "Found it."},
]


def test_json_schema_mode_moves_tools_into_the_prompt_and_constrains_the_reply() -> None:
    params = _request([dict(m) for m in HISTORY])
    names = prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema"))
    assert names == NAMES
    assert "tools" not in params and "tool_choice" not in params
    msgs = params["messages"]
    assert msgs[0]["content"].startswith("Policy.\n\nReply with exactly one JSON object")
    assert json.loads(msgs[2]["content"]) == {
        "tool": "get_reservation",
        "arguments": {"confirmation_number": "QX7T4M"},
    }
    assert msgs[3]["role"] == "user" and msgs[3]["content"].startswith(
        '[get_reservation result] {"status": "success"}'
    )
    assert json.loads(msgs[4]["content"]) == {"say": "Found it."}
    rf = params["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["schema"] == reply_json_schema(TOOLS)
    assert HISTORY[0]["content"] == "Policy."  # the caller's context is not mutated
    # Same history, same bytes: the prompt prefix stays cacheable.
    again = _request([dict(m) for m in HISTORY])
    prepare_tool_request(again, ReplyPolicy(tool_call_mode="json_schema"))
    assert again["messages"] == msgs


def test_compact_mode_has_no_response_format_and_native_mode_keeps_tools() -> None:
    compact = _request([dict(m) for m in HISTORY])
    prepare_tool_request(compact, ReplyPolicy(tool_call_mode="compact"))
    assert "response_format" not in compact and "tools" not in compact
    native = _request([dict(m) for m in HISTORY])
    prepare_tool_request(native, ReplyPolicy(flatten_tool_history=True))
    assert native["tools"] == TOOLS and native["messages"][2] == {
        "role": "assistant",
        "content": "One moment.",
    }
    with pytest.raises(ValueError):
        prepare_tool_request(_request([]), ReplyPolicy(tool_call_mode="grammar"))  # type: ignore[arg-type]


def test_no_tools_means_no_reshaping() -> None:
    params: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema")) == frozenset()
    assert "response_format" not in params


def _chunk(content: str | None = None, finish: str | None = None) -> ChatCompletionChunk:
    return ChatCompletionChunk(
        id="c1",
        created=0,
        model="m",
        object="chat.completion.chunk",
        choices=[Choice(index=0, delta=ChoiceDelta(content=content), finish_reason=finish)],
    )


class _Stream:
    def __init__(self, pieces: list[str]) -> None:
        self._chunks = [_chunk(p) for p in pieces] + [_chunk(finish="stop")]

    def __aiter__(self) -> Any:
        return self._gen()

    async def _gen(self) -> Any:
        for c in self._chunks:
            yield c

    async def close(self) -> None:
        pass


async def _run(pieces: list[str], **kw: Any) -> tuple[str, list[Any]]:
    adapter = ToolCallTextAdapterStream(_Stream(pieces), NAMES, **kw)
    text, calls = "", []
    async for c in adapter:
        d = c.choices[0].delta
        text += d.content or ""
        calls += d.tool_calls or []
    return text, calls


async def test_say_replies_are_unwrapped_into_plain_speech() -> None:
    text, calls = await _run(['{"sa', 'y": "Sure, what is', ' your code?"}'], unwrap_say=True)
    assert (text, calls) == ("Sure, what is your code?", [])
    text, calls = await _run(
        ['{"tool": "assign_seat", "arguments": {"seat_preference": "aisle"}}'], unwrap_say=True
    )
    assert text == "" and calls[0].function.name == "assign_seat"
    # Without unwrap_say the JSON is released as it came (no silent change of native mode).
    text, _ = await _run(['{"say": "x"}'])
    assert text == '{"say": "x"}'


async def test_markdown_and_code_blocks_never_reach_speech() -> None:
    pieces = [
        "Sure! Here is the **updated** booking:\n\n``",
        '`json\n{"confirmation',
        '_number": "QX"}\n```',
        " Done.",
    ]
    text, _ = await _run(pieces, strip_markdown=True)
    assert "`" not in text and "{" not in text and "*" not in text
    assert text.startswith("Sure! Here is the updated booking:") and text.endswith("Done.")


def test_markdown_filter_and_spoken_text() -> None:
    f = MarkdownSpeechFilter()
    assert f.feed("Use `add_baggage` now") == "Use add_baggage now"
    assert f.feed("``") == "" and f.feed("`code``") == "" and f.feed("`` after") == " after"
    assert spoken_text("# Title\n- **one**\n```x```") == "Title\none"
    assert spoken_text("Plain words.") == "Plain words."


def test_tool_loops_are_cut_off_after_max_rounds() -> None:
    call = HISTORY[2]
    result = HISTORY[3]
    msgs = [HISTORY[0], HISTORY[1], call, result, call, result]
    params = _request([dict(m) for m in msgs])
    prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema"), max_tool_rounds=2)
    assert params["response_format"]["json_schema"]["schema"] == reply_json_schema([])
    params = _request([dict(m) for m in msgs])
    prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema"), max_tool_rounds=3)
    assert len(params["response_format"]["json_schema"]["schema"]["anyOf"]) == 3


async def test_say_plus_call_in_one_reply_speaks_then_calls() -> None:
    reply = '{"say": "One moment."}\n{"tool": "assign_seat", "arguments": {"seat_preference": "aisle"}}'
    text, calls = await _run([reply], unwrap_say=True)
    assert text == "One moment." and [c.function.name for c in calls] == ["assign_seat"]
    text, calls = await _run(['{"say": "x"}\n{"tool": "nope", "arguments": {}}'], unwrap_say=True)
    assert calls == [] and "nope" in text  # unknown tool: nothing is swallowed


def test_a_resumed_caller_turn_reaches_the_model_as_one_sentence() -> None:
    """Fragments of one answer (segmented STT, a turn resumed after the agent's turn detector
    fired) become one user message without the recogniser's segment stops; tool results,
    which are user messages too, are never merged into the caller's words."""
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "Policy."},
        {"role": "assistant", "content": "Could you tell me the confirmation number?"},
        {"role": "user", "content": "The confirmation code. is QX7T4M."},
        {"role": "user", "content": "My last name is Whitfield."},
        {"role": "user", "content": "One bag."},
    ]
    for policy in (ReplyPolicy(tool_call_mode="json_schema"), ReplyPolicy(flatten_tool_history=True)):
        params = _request([dict(m) for m in history])
        prepare_tool_request(params, policy)
        assert params["messages"][2:] == [
            {
                "role": "user",
                "content": "The confirmation code is QX7T4M. My last name is Whitfield. One bag.",
            }
        ]
    with_result = [*HISTORY[:4], {"role": "user", "content": "thanks."}]  # caller speaks over the result
    params = _request([dict(m) for m in with_result])
    prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema"))
    assert params["messages"][-2]["content"].startswith("[get_reservation result]")
    assert params["messages"][-1] == {"role": "user", "content": "thanks."}
    assert history[2]["content"] == "The confirmation code. is QX7T4M."  # the context is not mutated


def test_words_and_call_stored_apart_reach_the_model_as_one_turn() -> None:
    """Pipecat stores a reply that spoke and called as two assistant messages; the model must
    see its words paired with its call, never its "I'll look it up" line paired with no tool."""
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_reservation", "arguments": '{"confirmation_number": "QX7T4M"}'},
    }
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "Policy."},
        {"role": "user", "content": "The code is QX7T4M."},
        {"role": "assistant", "content": "I'll look up the booking. Please hold on."},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"status": "success"}'},
    ]
    params = _request([dict(m) for m in history])
    prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema", say_then_tool=True))
    turns = [m for m in params["messages"] if m["role"] == "assistant"]
    assert [json.loads(t["content"]) for t in turns] == [
        {
            "say": "I'll look up the booking. Please hold on.",
            "tool": "get_reservation",
            "arguments": {"confirmation_number": "QX7T4M"},
        }
    ]
    assert params["messages"][-1]["content"].startswith("[get_reservation result]")
    params = _request([dict(m) for m in history])
    prepare_tool_request(params, ReplyPolicy(flatten_tool_history=True))
    plain = [m["content"] for m in params["messages"] if m["role"] == "assistant"]
    assert plain == ["I'll look up the booking. Please hold on."]
    assert history[3]["content"] is None  # the context is not mutated


class _TrackedStream(_Stream):
    """A stream whose generator notes when it is closed (the HTTP generators of the SDK)."""

    closed = False

    async def _gen(self) -> Any:
        try:
            for c in self._chunks:
                yield c
        finally:
            self.closed = True


@pytest.mark.parametrize("names", [NAMES, frozenset()])
async def test_an_interrupted_reply_closes_the_streams_it_was_reading(names: frozenset[str]) -> None:
    """Pipecat closes the reply's iterator when the caller interrupts; the generators under it
    must close then, not at the loop's shutdown (where asyncio printed teardown tracebacks)."""
    source = _TrackedStream(['{"say": "Sure, ', 'what is your code?"}'])
    it = ToolCallTextAdapterStream(source, names, unwrap_say=True, strip_markdown=True).__aiter__()
    await it.__anext__()
    assert not source.closed
    await it.aclose()
    assert source.closed


async def test_a_planned_reply_speaks_its_words_before_its_end_and_never_its_plan() -> None:
    """``{"plan": ..., "say": ..., "tool": ...}``: TTS gets the say as it streams (the plan can
    hold a quote); the plan's words are never spoken; the call still goes out at the end."""
    pieces = [
        '{"plan": "Look up \\"the\\" booking", "sa',
        'y": "I\'m looking it up.',
        ' Please hold on.", "tool": "get_reservation", ',
        '"arguments": {"confirmation_number": "QX7T4M", "last_name": "Whitfield"}}',
    ]
    adapter = ToolCallTextAdapterStream(_Stream(pieces), NAMES, unwrap_say=True)
    seen: list[tuple[str, bool]] = []  # (words, before the call was known)
    calls: list[Any] = []
    async for c in adapter:
        d = c.choices[0].delta
        if d.content:
            seen.append((d.content, not calls))
        calls += d.tool_calls or []
    assert "".join(w for w, _ in seen) == "I'm looking it up. Please hold on."
    assert seen[0] == ("I'm looking it up.", True)  # spoken while the reply was still coming
    assert not any("Look up" in w for w, _ in seen)
    assert [c.function.name for c in calls] == ["get_reservation"]
