"""Fast tests of the LLM caller's JSON turns and prompt building (no models, no audio)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, Choice, ChoiceDelta

from tests.pipelines.test_call_fakes import call_input
from voxbench.pipelines.caller.prompt import (
    CUE,
    call_lines,
    caller_request_messages,
    is_hold_line,
    last_question,
    simulator_prompt,
)
from voxbench.pipelines.caller.stream import ECHO_FALLBACK, CallerTurnStream, GiveUp, is_echo
from voxbench.pipelines.caller.turn_json import (
    CALLER_TURN_SCHEMA,
    CallerTurn,
    SaysExtractor,
    caller_response_format,
    caller_turn_json,
    parse_caller_turn,
)


def test_response_format_is_a_strict_schema_with_the_words_first() -> None:
    rf = caller_response_format()
    assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
    assert rf["json_schema"]["schema"] is CALLER_TURN_SCHEMA
    assert list(CALLER_TURN_SCHEMA["properties"]) == ["customer_says", "end_call"]
    assert CALLER_TURN_SCHEMA["additionalProperties"] is False


@pytest.mark.parametrize(
    ("text", "turn"),
    [
        ('{"customer_says": "It is Q X 7.", "end_call": false}', CallerTurn("It is Q X 7.", False)),
        ('```json\n{"customer_says": "Bye now.", "end_call": true}\n```', CallerTurn("Bye now.", True)),
        ('{"customer_says": "Bye.", "end_call": "true"}', CallerTurn("Bye.", True)),
        ('{"customer_says": "  **Yes**, please. "}', CallerTurn("Yes, please.", False)),
        ('{"say": "wrong key"}', None),
        ('{"customer_says": 5}', None),
        ("Sure, my code is QX7T4M.", None),
        ('[{"customer_says": "a"}, {"customer_says": "b"}]', None),
    ],
)
def test_parse_caller_turn(text: str, turn: CallerTurn | None) -> None:
    assert parse_caller_turn(text) == turn


def test_says_extractor_streams_the_value_across_split_escapes() -> None:
    raw = caller_turn_json('He said "fine"\\ok \u00e9 done.\nNext', end_call=True)
    ex = SaysExtractor()
    out = [ex.feed(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    assert "".join(out) == 'He said "fine"\\ok \u00e9 done. Next'
    assert ex.done and ex.started
    assert out[0] == ""  # nothing before the key's value has been seen
    # after the closing quote nothing more is emitted
    assert ex.feed('"more"') == ""


def test_says_extractor_ignores_a_non_string_value() -> None:
    ex = SaysExtractor()
    assert ex.feed('{"customer_says": 12, "end_call": false}') == ""
    assert ex.done and not ex.started


def _chunk(content: str | None = None, finish: str | None = None) -> ChatCompletionChunk:
    return ChatCompletionChunk(
        id="c",
        created=0,
        model="m",
        object="chat.completion.chunk",
        choices=[Choice(index=0, delta=ChoiceDelta(content=content), finish_reason=finish)],
    )


class _Stream:
    def __init__(self, text: str, step: int = 5) -> None:
        self.chunks = [_chunk(text[i : i + step]) for i in range(0, len(text), step)] + [
            _chunk(finish="stop")
        ]
        self.closed = False

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._gen()

    async def _gen(self) -> AsyncIterator[ChatCompletionChunk]:
        for c in self.chunks:
            yield c

    async def close(self) -> None:
        self.closed = True


async def _collect(stream: CallerTurnStream) -> tuple[list[str], list[tuple[str, dict[str, Any]]]]:
    words: list[str] = []
    calls: list[tuple[str, dict[str, Any]]] = []
    async for chunk in stream:
        d = chunk.choices[0].delta
        if d.content:
            words.append(d.content)
        for tc in d.tool_calls or []:
            assert tc.function is not None and tc.function.name is not None
            calls.append((tc.function.name, json.loads(tc.function.arguments or "{}")))
    return words, calls


async def test_stream_speaks_only_the_words_and_turns_end_call_into_a_tool_call() -> None:
    inner = _Stream(caller_turn_json("No, that's all. Goodbye.", end_call=True))
    adapted = CallerTurnStream(inner)
    words, calls = await _collect(adapted)
    assert "".join(words) == "No, that's all. Goodbye."
    assert len(words) > 1  # streamed as it arrives, not in one piece at the end
    assert calls == [("end_call", {"reason": "goodbye"})]
    assert adapted.turn == CallerTurn("No, that's all. Goodbye.", True)
    await adapted.close()
    assert inner.closed


async def test_stream_without_end_call_has_no_tool_call() -> None:
    words, calls = await _collect(CallerTurnStream(_Stream(caller_turn_json("Q X 7 T 4 M."))))
    assert "".join(words) == "Q X 7 T 4 M." and calls == []


async def test_stream_fenced_json_is_spoken_at_the_end() -> None:
    text = '```json\n{"customer_says": "Just one bag.", "end_call": false}\n```'
    words, calls = await _collect(CallerTurnStream(_Stream(text)))
    assert "".join(words) == "Just one bag." and calls == []


LOOP = "I'll use the JSON object you provided."


async def test_stream_gives_up_instead_of_saying_a_line_a_third_time() -> None:
    give_up = GiveUp("Sorry, I'll call back. Goodbye.", max_says=2)
    adapted = CallerTurnStream(
        _Stream(caller_turn_json(LOOP)),
        said_before=["Hi.", LOOP, "Thank you! " + LOOP, LOOP],
        give_up=give_up,
    )
    words, calls = await _collect(adapted)
    assert "".join(words) == "Sorry, I'll call back. Goodbye."  # none of the repeat was spoken
    assert calls == [("end_call", {"reason": "goodbye"})]
    assert adapted.gave_up and adapted.turn == CallerTurn(give_up.line, True)


async def test_stream_holds_words_only_while_they_could_be_a_worn_out_line() -> None:
    longer = LOOP + " Can you add it for me?"
    adapted = CallerTurnStream(_Stream(caller_turn_json(longer)), said_before=[LOOP, LOOP], give_up=GiveUp())
    words, calls = await _collect(adapted)
    assert "".join(words) == longer and calls == [] and not adapted.gave_up
    # once said before is fine, and nothing is held back
    once = CallerTurnStream(_Stream(caller_turn_json(LOOP)), said_before=[LOOP], give_up=GiveUp())
    words, _ = await _collect(once)
    assert "".join(words) == LOOP and len(words) > 1 and not once.gave_up
    # without a give-up rule a loop is spoken as it is
    words, calls = await _collect(CallerTurnStream(_Stream(caller_turn_json(LOOP)), said_before=[LOOP] * 5))
    assert "".join(words) == LOOP and calls == []


AGENT = "Okay, I'll add one checked bag to your flight. What's the flight number?"


@pytest.mark.parametrize(
    ("says", "agent", "echo"),
    [
        (AGENT, AGENT, True),
        ("I see, I'll add one check bag to my flight. What's the flight number?", AGENT, True),  # live
        ("What's the flight number?", AGENT, True),
        ("I don't know the flight number.", AGENT, False),
        ("Yes, I'd like a window seat.", "Got it. You'd like a window seat, right?", False),
        ("Is my flight on time?", "Your flight is on time.", False),
        ("Okay.", "Okay. One moment.", False),
        # the service passes every agent line: an echo of an earlier one counts too (live)
        (
            "I'm sorry, but I can't assist with that.",
            "I'm sorry, but I can't assist with that. Hold on.",
            True,
        ),
        ("No, thank you.", "Anything else? No? Thank you.", False),
    ],
)
def test_is_echo(says: str, agent: str, echo: bool) -> None:
    assert is_echo(says, agent) is echo


async def test_stream_asks_again_when_the_reply_echoes_the_agent() -> None:
    retried: list[_Stream] = []

    async def again() -> _Stream:
        retried.append(_Stream(caller_turn_json("I don't know the flight number.")))
        return retried[-1]

    echo = _Stream(caller_turn_json(AGENT))
    adapted = CallerTurnStream(echo, agent_turn=AGENT, retry=again)
    words, calls = await _collect(adapted)
    assert "".join(words) == "I don't know the flight number."  # the echo was never spoken
    assert adapted.echoed and calls == [] and len(retried) == 1
    assert adapted.unspoken == [{"why": "echo", "text": AGENT}]
    await adapted.close()
    assert echo.closed and retried[0].closed
    # one sentence of the agent's turn back is an echo too; a short "Okay." is not
    words, _ = await _collect(
        CallerTurnStream(
            _Stream(caller_turn_json("What's the flight number?")), agent_turn=AGENT, retry=again
        )
    )
    assert "".join(words) == "I don't know the flight number." and len(retried) == 2
    ok = CallerTurnStream(_Stream(caller_turn_json("Okay.")), agent_turn="Okay. One moment.", retry=again)
    words, _ = await _collect(ok)
    assert "".join(words) == "Okay." and not ok.echoed and len(retried) == 2


async def test_stream_replaces_a_second_echo_with_the_fallback_line() -> None:
    async def again() -> _Stream:
        return _Stream(caller_turn_json("What's the flight number?"))

    adapted = CallerTurnStream(_Stream(caller_turn_json(AGENT)), agent_turn=AGENT, retry=again)
    words, calls = await _collect(adapted)
    assert "".join(words) == ECHO_FALLBACK and adapted.echoed and calls == []
    # ...until the fallback itself is worn out: then the caller gives up
    worn = CallerTurnStream(
        _Stream(caller_turn_json(AGENT)),
        said_before=[ECHO_FALLBACK, ECHO_FALLBACK],
        give_up=GiveUp(),
        agent_turn=AGENT,
        retry=again,
    )
    words, calls = await _collect(worn)
    assert "".join(words) == GiveUp().line and worn.gave_up and calls == [("end_call", {"reason": "goodbye"})]


async def test_stream_prose_from_an_endpoint_that_ignored_the_format_is_spoken_as_is() -> None:
    words, calls = await _collect(CallerTurnStream(_Stream("  Sure, it's QX7T4M.")))
    assert "".join(words) == "Sure, it's QX7T4M." and calls == []


CONTEXT: list[dict[str, Any]] = [
    {"role": "system", "content": "SYSTEM"},
    {"role": "user", "content": "Hello! How can I help you today?"},
    {"role": "assistant", "content": "Hi, I'd like to add a bag."},
    {"role": "user", "content": "Sure. Your code?"},
    {"role": "user", "content": [{"type": "text", "text": "And your last name?"}]},
    {"role": "assistant", "content": "QX7T4M, Whitfield."},
    {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "end_call", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "1", "content": '{"status": "ok"}'},
]


def test_call_lines_are_the_call_from_the_callers_side() -> None:
    assert call_lines(CONTEXT) == [
        ("Agent", "Hello! How can I help you today?"),
        ("You", "Hi, I'd like to add a bag."),
        ("Agent", "Sure. Your code? And your last name?"),  # one line per turn
        ("You", "QX7T4M, Whitfield."),
    ]


def test_request_is_the_system_prompt_then_one_transcript_message() -> None:
    msgs = caller_request_messages(CONTEXT)
    assert msgs[0] == {"role": "system", "content": "SYSTEM"}
    assert [m["role"] for m in msgs] == ["system", "user"]
    body = msgs[1]["content"]
    assert body.startswith("The phone call so far:\nAgent: Hello! How can I help you today?\nYou: Hi,")
    assert body.endswith("\n\n" + CUE)
    assert "end_call" not in body.split("\n\n")[0]  # tool plumbing is not part of the call


def test_transcript_grows_by_appending_so_the_prompt_prefix_is_stable() -> None:
    earlier = caller_request_messages(CONTEXT[:4])[1]["content"]
    later = caller_request_messages(CONTEXT)[1]["content"]
    assert later.startswith(earlier.split("\n\n")[0])


@pytest.mark.parametrize(
    ("turn", "asked"),
    [
        (
            "Sure. Please provide your confirmation number and last name.",
            "Please provide your confirmation number and last name.",
        ),
        (
            "I'll look up your booking. Please hold on. Could you tell me the code, please?",
            "Could you tell me the code, please?",
        ),
        ("Could you tell me the code, please? Please hold.", "Could you tell me the code, please?"),
        ("Done. Anything else?", "Anything else?"),
        ("Okay. Please hold on, could you tell me the code, please?", "Could you tell me the code, please?"),
        ("Sure, one moment, what's your last name?", "What's your last name?"),
        ("The flight is on time.", ""),
    ],
)
def test_last_question_is_a_question_or_request_but_not_a_hold(turn: str, asked: str) -> None:
    assert last_question(turn) == asked


def test_cue_quotes_the_agents_last_question() -> None:
    asked = caller_request_messages(CONTEXT[:5])[1]["content"]
    assert asked.endswith(
        '\n\nThe agent asked you: "And your last name?" Answer it as the customer, in your own words; give '
        "what you know from your facts. " + CUE
    )
    careful = caller_request_messages(CONTEXT[:5], careful=True)[1]["content"]
    assert careful.split("\n\n")[-1].startswith("Careful: you are the customer.")
    statement = caller_request_messages([*CONTEXT[:3], {"role": "user", "content": "Done. Bye now."}])
    assert statement[1]["content"].endswith("\n\n" + CUE)  # no question, plain cue


def test_empty_call_still_asks_for_a_line() -> None:
    msgs = caller_request_messages([{"role": "system", "content": "S"}])
    assert "has not said anything yet" in msgs[1]["content"]


def test_prompts_carry_the_scenario_and_the_reply_contract(eva_data: Path) -> None:
    call = call_input(eva_data)
    js = simulator_prompt(call, "json")
    tools = simulator_prompt(call, "tools")
    for p in (js, tools):
        assert "383S8U" in p and "<LAST_NAME>" not in p and "You are the CUSTOMER" in p
    assert '"customer_says"' in js and '"end_call": false' in js and "end_call tool" not in js
    assert "end_call tool" in tools and "customer_says" not in tools
    assert js.split("\n\n")[:-1] == tools.split("\n\n")[:-1]  # one brief, two reply contracts


@pytest.mark.parametrize(
    "line",
    [
        "One moment please.",
        "Sure, one moment.",
        "Let me check that for you.",
        "Thanks. Let me look that up.",
        "Please hold.",
        "Just a second, please.",
        "Okay, bear with me.",
    ],
)
def test_hold_lines(line: str) -> None:
    assert is_hold_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Let me check. What is your confirmation code?",
        "Thanks, I have your flight BB212. How many bags?",
        "One moment please. I found your booking.",
        "Done, one checked bag is now on your flight.",
        "Thank you.",
        "Sure.",
        "",
    ],
)
def test_not_hold_lines(line: str) -> None:
    assert not is_hold_line(line)
