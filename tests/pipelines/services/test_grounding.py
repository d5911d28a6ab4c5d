"""Fast tests: tool calls with values the model was never shown are not run; the agent asks instead."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from tests.pipelines.services.test_tool_modes import NAMES, TOOLS, _run
from voxbench.pipelines.services.grounding import (
    GroundingGuard,
    needs_grounding,
    request_text,
    tool_parameter_schemas,
)
from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.tool_prompt import (
    compact_tool_prompt,
    prepare_tool_request,
    reply_json_schema,
)
from voxbench.pipelines.services.tool_text import ParsedToolCall, parse_reply

SHOWN = [
    {"role": "system", "content": "You are an airline agent. Today is 2026-05-04."},
    {"role": "user", "content": "Hi, I want a window seat. My code is Q X 7 T 4 M, name Whitfield."},
]


def _guard(messages: list[dict[str, Any]]) -> GroundingGuard:
    return GroundingGuard(request_text(messages), tool_parameter_schemas(TOOLS))


def test_values_the_caller_spelled_are_grounded_made_up_ones_are_not() -> None:
    guard = _guard(SHOWN)
    ok = ParsedToolCall("get_reservation", {"confirmation_number": "QX7T4M", "last_name": "whitfield"})
    made_up = ParsedToolCall("get_reservation", {"confirmation_number": "123456", "last_name": "Smith"})
    assert guard.ask_instead([ok]) is None
    assert [u.param for u in guard.ungrounded([made_up])] == ["confirmation_number", "last_name"]
    assert guard.ask_instead([made_up]) == "Could you tell me the confirmation number and last name, please?"


def test_enums_numbers_dates_and_free_text_are_not_checked() -> None:
    assert not needs_grounding("window", {"type": "string", "enum": ["window", "aisle"]})
    assert not needs_grounding(2, {"type": "integer"})
    assert not needs_grounding("2026-05-06", {"type": "string"})
    assert not needs_grounding("14:30", {"type": "string"})
    assert not needs_grounding("caller wants a person", {"type": "string"})
    assert needs_grounding("AA123", {"type": "string"})
    guard = _guard(SHOWN)
    seat = ParsedToolCall("assign_seat", {"seat_preference": "window", "flight_number": "AA123"})
    assert guard.ask_instead([seat]) == "Could you tell me the flight number, please?"


def test_values_from_earlier_tool_results_and_calls_are_grounded() -> None:
    msgs = [
        *SHOWN,
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "function": {"name": "get_reservation", "arguments": '{"x": "QX7T4M"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"flight_number": "BB212"})},
    ]
    seat = ParsedToolCall("assign_seat", {"seat_preference": "window", "flight_number": "BB212"})
    assert _guard(msgs).ask_instead([seat]) is None


async def test_adapter_says_the_question_instead_of_running_an_ungrounded_call() -> None:
    guard = _guard(SHOWN)
    reply = '{"tool": "assign_seat", "arguments": {"seat_preference": "aisle", "flight_number": "ZZ9"}}'
    text, calls = await _run([reply], unwrap_say=True, guard=guard.ask_instead)
    assert calls == [] and text == "Could you tell me the flight number, please?"
    grounded = '{"tool": "get_reservation", "arguments": {"confirmation_number": "QX7T4M", "last_name": "Whitfield"}}'
    text, calls = await _run([grounded], unwrap_say=True, guard=guard.ask_instead)
    assert text == "" and [c.function.name for c in calls] == ["get_reservation"]


def test_plan_comes_first_in_every_branch_and_is_never_spoken() -> None:
    schema = reply_json_schema(TOOLS, plan=True)
    for branch in schema["anyOf"]:
        assert next(iter(branch["properties"])) == "plan" and branch["required"][0] == "plan"
    say = {"plan": "ask for the code", "say": "What is your code?"}
    jsonschema.validate(say, schema)
    assert parse_reply(json.dumps(say), NAMES) == ("What is your code?", [])
    call = {
        "plan": "look it up",
        "tool": "get_reservation",
        "arguments": {"confirmation_number": "A", "last_name": "B"},
    }
    jsonschema.validate(call, schema)
    assert parse_reply(json.dumps(call), NAMES) == (
        "",
        [ParsedToolCall("get_reservation", call["arguments"])],
    )
    assert '"plan"' in compact_tool_prompt(TOOLS, plan=True) and '"plan"' not in compact_tool_prompt(TOOLS)


def test_prepare_request_with_plan_constrains_replies_to_the_plan_schema() -> None:
    params: dict[str, Any] = {"messages": [dict(m) for m in SHOWN], "tools": TOOLS}
    assert prepare_tool_request(params, ReplyPolicy(tool_call_mode="json_schema", plan_replies=True)) == NAMES
    assert params["response_format"]["json_schema"]["schema"] == reply_json_schema(TOOLS, plan=True)


def test_a_value_that_comes_from_another_tool_asks_for_that_tools_inputs() -> None:
    tools = [
        *TOOLS,
        {
            "type": "function",
            "function": {
                "name": "add_bag",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "journey_id": {"type": "string", "description": "Journey id from get_reservation"},
                        "num_bags": {"type": "integer"},
                    },
                    "required": ["journey_id", "num_bags"],
                },
            },
        },
    ]
    guard = GroundingGuard("I'd like to add a bag.", tool_parameter_schemas(tools))
    bag = ParsedToolCall("add_bag", {"journey_id": "789012", "num_bags": 1})
    assert guard.ask_instead([bag]) == "Could you tell me the confirmation number and last name, please?"


def test_say_stream_decodes_the_leading_say_as_it_arrives() -> None:
    from voxbench.pipelines.services.tool_stream import say_stream

    s = say_stream()
    out = [
        s.feed(piece) for piece in ['{"say": "Let', "'s see: \\", 'u00e9t\\"e', '\\" ok", "tool": "none"}']
    ]
    assert out == ["Let", "'s see: ", 'ét"e', '" ok']
    assert s.text == 'Let\'s see: \u00e9t"e" ok' and s.done
    # a say streams when it leads, or right after the unspoken plan; never after other keys
    assert say_stream().feed('{"plan": "x \\"say\\": \\"no", "say": "y"}') == "y"
    assert say_stream().feed('{"tool": "none", "say": "y"}') == ""


async def test_say_then_tool_reply_speaks_while_generating_and_calls_once() -> None:
    pieces = [
        '{"say": "One moment, ',
        'looking it up.", "tool": "get_reservation", ',
        '"arguments": {"confirmation_number": "QX7T4M", "last_name": "Whitfield"}}',
    ]
    adapter_text: list[str] = []
    from tests.pipelines.services.test_tool_modes import _Stream
    from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream

    adapter = ToolCallTextAdapterStream(_Stream(pieces), NAMES, unwrap_say=True)
    calls = []
    async for c in adapter:
        d = c.choices[0].delta
        if d.content:
            adapter_text.append(d.content)
        calls += d.tool_calls or []
    assert adapter_text[0] == "One moment, "  # spoken before the reply was complete
    assert "".join(adapter_text) == "One moment, looking it up."
    assert [c.function.name for c in calls] == ["get_reservation"]
    # an ungrounded call after a streamed say: the question follows the words already spoken
    guard = _guard(SHOWN)
    bad = [
        '{"say": "Sure.", "tool": "assign_seat", "arguments": {"seat_preference": "aisle", "flight_number": "ZZ9"}}'
    ]
    text, calls = await _run(bad, unwrap_say=True, guard=guard.ask_instead)
    assert calls == [] and text == "Sure. Could you tell me the flight number, please?"
    text, calls = await _run(['{"say": "Bye.", "tool": "none"}'], unwrap_say=True)
    assert (text, calls) == ("Bye.", [])
