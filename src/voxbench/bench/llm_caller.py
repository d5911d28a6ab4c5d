"""The LLM caller's text path, for `voxbench caller check --simulator llm`, on any OpenAI-compatible endpoint.

The same request as the live LLM caller (``pipelines/caller_prompt``: the brief as system prompt,
the call so far from the caller's side with the agent's question quoted, the JSON
``{"customer_says", "end_call"}`` grammar) and the same guards around the model
(``pipelines/caller_stream.CallerTurnStream``: echo retry, give-up on a third repeat; hold
lines get no reply), at temperature 0. By default on the embedded llama.cpp server with the
offline caller model (Qwen2.5-Coder-1.5B; several seconds per turn on this machine, so the check
takes ``--limit``); given ``base_url`` and ``model``, on that endpoint instead (the key from
``api_key_env``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from voxbench.bench.caller_check import Reply, TextCaller
from voxbench.records.secrets import read_secret
from voxbench.scenarios import Scenario


class LLMTextCaller:
    """One scenario's LLM caller over text, sharing one model server and event loop."""

    def __init__(self, scenario: Scenario, client: Any, model: str, loop: asyncio.AbstractEventLoop) -> None:
        from voxbench.pipelines.caller.prompt import AGENT_LABEL, CALLER_LABEL
        from voxbench.scenarios.agent_spec import AgentSpec
        from voxbench.scenarios.culture import CultureResolver

        self._labels = (AGENT_LABEL, CALLER_LABEL)
        self.client, self.model, self.loop = client, model, loop
        self.scenario = scenario
        from voxbench.pipelines.caller.prompt import simulator_prompt
        from voxbench.pipelines.scenario_input import CallScenario

        call = CallScenario(
            domain="",
            scenario=scenario,
            agent=AgentSpec(id="caller-check", name="caller-check", tools=[]),
            resolver=CultureResolver({}),
            initial_db={},
            expected_db={},
        )
        self.system = simulator_prompt(call, "json")
        self.lines: list[tuple[str, str]] = []

    def _messages(self, careful: bool = False) -> list[dict[str, Any]]:
        from voxbench.pipelines.caller.prompt import caller_request_messages

        msgs: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        for who, text in self.lines:
            msgs.append({"role": "user" if who == self._labels[0] else "assistant", "content": text})
        return caller_request_messages(msgs, careful=careful)

    def open(self) -> Reply:
        text = self.scenario.starting_utterance()
        self.lines.append((self._labels[1], text))
        return Reply(text=text, kind="open")

    async def _turn(self, agent: str) -> tuple[str, bool]:
        from voxbench.pipelines.caller.stream import CallerTurnStream, GiveUp
        from voxbench.pipelines.caller.turn_json import caller_response_format

        async def ask(careful: bool = False) -> Any:
            return await self.client.chat.completions.create(
                model=self.model,
                messages=self._messages(careful),
                temperature=0.0,
                max_tokens=160,
                stream=True,
                response_format=caller_response_format(),
                extra_body={"cache_prompt": True},
            )

        said_before = [t for w, t in self.lines if w == self._labels[1]]
        agent_all = " ".join(t for w, t in self.lines if w == self._labels[0])
        stream = CallerTurnStream(
            await ask(), said_before=said_before, give_up=GiveUp(), agent_turn=agent_all,
            retry=lambda: ask(True), echo_fallback=self.scenario.starting_utterance(),
        )  # fmt: skip
        said, end = "", False
        async for chunk in stream:
            d = chunk.choices[0].delta if chunk.choices else None
            if d is not None and d.content:
                said += d.content
            if d is not None and d.tool_calls:
                end = True
        return said.strip(), end

    def respond(self, agent_text: str) -> Reply:
        from voxbench.pipelines.caller.prompt import is_hold_line

        if not any(w == self._labels[1] for w, _ in self.lines):  # the agent greeted first
            self.lines.append((self._labels[0], agent_text))
            return self.open()
        self.lines.append((self._labels[0], agent_text))
        if is_hold_line(agent_text):
            return Reply(text="", kind="wait")
        said, end = self.loop.run_until_complete(self._turn(agent_text))
        self.lines.append((self._labels[1], said))
        return Reply(text=said, ends_call=end, kind="llm")


class LLMCaller:
    """The LLM caller as a bench caller kind: nothing to fit; one model endpoint for the run."""

    name = "llm"
    fits = False

    def __init__(
        self, base_url: str | None = None, model: str = "qwen2.5-coder-1.5b", api_key_env: str = "OPENAI_API_KEY",
        threads: int | None = None,
    ) -> None:  # fmt: skip

        from openai import AsyncOpenAI

        self.loop = asyncio.new_event_loop()
        self.server: Any = None
        if base_url is None:
            from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings

            self.server = LocalLLMServer(LocalLLMSettings(model=model, n_threads=threads)).start()
            base_url, model = self.server.base_url, self.server.model
        self.model = model
        self.client = AsyncOpenAI(base_url=base_url, api_key=read_secret(api_key_env) or "sk-local")

    def fit(self, train: list[tuple[str, Scenario]]) -> None:
        return None

    def make(self, domain: str, scenario: Scenario) -> TextCaller:
        return LLMTextCaller(scenario, self.client, self.model, self.loop)

    def close(self) -> None:
        self.loop.run_until_complete(self.client.close())
        self.loop.close()
        if self.server is not None:
            self.server.stop()
