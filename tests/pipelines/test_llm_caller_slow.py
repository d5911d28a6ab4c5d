"""The LLM caller on the real Qwen2.5-Coder-1.5B (marked slow): in character through built-in bb.1.

The real caller service (``make_caller_llm``: transcript framing, JSON grammar, word
streaming, ``end_call``) on the embedded llama.cpp server, driven through pipecat frames with
the reference trace's agent lines. Asserts what an evaluation needs from a caller: it gives
the code and the name when asked, answers the question, never sounds like the agent or
leaks JSON, and hangs up with ``end_call`` once the agent is done.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("xllamacpp")

from pipecat.frames.frames import LLMContextFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.services.llm_service import FunctionCallParams
from pipecat.tests.utils import SleepFrame, run_test

from tests.fakes.services import FakeTTS
from voxbench.pipelines.caller.llm_setup import llm_caller_services
from voxbench.pipelines.caller.llm_simulator import END_CALL
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.local_stack import SIMULATOR_LLM
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services import make_local_llm_server
from voxbench.scenarios import load_dataset

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

AGENT_LIKE = re.compile(r"how (can|may) i (help|assist)|i can help|as an ai|thank you for calling", re.I)


@pytest.fixture(scope="module")
def caller_server() -> Iterator[Any]:
    with make_local_llm_server(SIMULATOR_LLM.model_copy(update={"n_ctx": 4096})) as srv:
        yield srv


def _wait_until(frame: Any, done: Any, timeout: float) -> Iterator[Any]:
    yield frame
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        yield SleepFrame(sleep=0.25)
    yield SleepFrame(sleep=0.25)


async def test_caller_stays_in_character_through_builtin_bb1(caller_server: Any) -> None:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    call = CallScenario.from_domain(dd, "bb.1")
    last = str(call.resolver.resolve("<LAST_NAME>"))
    services = llm_caller_services(
        call, CallConfig().simulator.llm, SIMULATOR_LLM, tts=FakeTTS(), stt=None, server=caller_server
    )
    llm = services.llm
    assert llm is not None
    hung_up: list[dict[str, Any]] = []

    async def end_call(params: FunctionCallParams) -> None:
        hung_up.append(dict(params.arguments))
        await params.result_callback({"status": "ok"})

    llm.register_function(END_CALL, end_call)
    opening = str(call.resolver.resolve(call.scenario.starting_utterance()))
    context = LLMContext(
        messages=[
            {"role": "user", "content": "Hello! How can I help you today?"},
            {"role": "assistant", "content": opening},
        ]
    )

    async def caller_says(agent_line: str) -> str:
        context.add_message({"role": "user", "content": agent_line})
        _, assistant = LLMContextAggregatorPair(context)
        said: list[str] = []
        done = asyncio.Event()

        @assistant.event_handler("on_assistant_turn_stopped")
        async def _stopped(_agg: Any, message: Any) -> None:
            said.append(message.content or "")
            done.set()

        await run_test(
            Pipeline([llm, assistant]),
            frames_to_send=_wait_until(LLMContextFrame(context), done.is_set, timeout=300.0),  # type: ignore[arg-type]
            expected_down_frames=None,
            start_timeout=5.0,
        )
        line = " ".join(said).strip()
        assert line, f"no caller line after {agent_line!r}"
        assert not AGENT_LIKE.search(line), line
        assert not re.search(r"[{}]|customer_says|end_call", line), line
        return line

    code_line = await caller_says("Sure. What's your confirmation code and last name?")
    assert "QX7T4M" in re.sub(r"[^A-Z0-9]", "", code_line.upper()), code_line
    assert last.lower() in code_line.lower(), code_line
    assert not hung_up

    bags = await caller_says(
        "Thanks, I have your flight BB212 from Denver to Seattle on May sixth. How many checked bags in total?"
    )
    assert re.search(r"\b(one|1|single)\b", bags.lower()), bags
    assert not hung_up

    await caller_says("Done, one checked bag is now on your flight. Anything else?")
    assert hung_up, "the caller did not hang up after the agent was done"
