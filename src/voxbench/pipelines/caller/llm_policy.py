"""The LLM caller's policy: a model plays the caller, one :class:`CallerAct` per agent turn.

It opens with the scenario's starting utterance (the agent's greeting is heard, not answered
by the model), says nothing to an agent turn that only asks it to wait (a hold line: the agent
is about to run a tool and will speak again; the hold line stays in the transcript, so the
next request shows it before the agent's answer), and otherwise asks its model for the
caller's next line over the call so far (agent turns as ``user`` messages, its own lines as
``assistant`` ones). The act ends the call when the model says so (``end_call``: a field of
the JSON reply, or a native tool call in the ``tools`` format) or when the reply guards give
up on a loop (``caller/stream.py``).

The model is the caller's chat service (``caller/llm_setup.py``: its brief, its guards), asked
out of the pipeline with ``get_chat_completions``, like its warm-up. The act is returned whole
and spoken a sentence at a time (``LiveCaller.by_sentence``): in the ``json`` format the
guards hold every reply to an agent turn until it is complete anyway (an echo shows only in the
whole sentence), so the caller's first audio comes when it came while the words were streamed;
a reply with no guard to wait for (``retry_echoes`` off, the ``tools`` format) now waits for
its last word before its first sentence is spoken.
"""

from __future__ import annotations

from typing import Any

from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.processors.aggregators.llm_context import LLMContext

from voxbench.pipelines.caller.goal.acts import CallerAct, require_last
from voxbench.pipelines.caller.prompt import AGENT_LABEL, call_lines, is_hold_line
from voxbench.pipelines.caller.stream import CallerTurnStream
from voxbench.pipelines.caller.turn_json import END_CALL

OPENING = "starting_utterance"
HOLD = "agent_hold"
REPLY = "model_reply"
END = "model_end_call"
GAVE_UP = "gave_up"
SILENT = "model_said_nothing"


def agent_asked_to_wait(context: Any) -> bool:
    """Whether the agent's last turn in ``context`` only asks the caller to wait (a hold line)."""
    lines = call_lines(context.get_messages())
    return is_hold_line(lines[-1][1] if lines and lines[-1][0] == AGENT_LABEL else "")


async def read_reply(stream: Any) -> tuple[str, bool]:
    """The words of a streamed chat reply and whether it calls ``end_call`` (closes the stream)."""
    words: list[str] = []
    end = False
    try:
        async for chunk in stream:
            delta = chunk.choices[0].delta if chunk.choices else None
            if delta is None:
                continue
            if delta.content:
                words.append(delta.content)
            end = end or any(
                tc.function is not None and tc.function.name == END_CALL for tc in delta.tool_calls or []
            )
    finally:
        closer = getattr(stream, "close", None) or getattr(stream, "aclose", None)
        if closer is not None:
            await closer()
    return " ".join("".join(words).split()), end


class LLMCallerPolicy:
    """One call of the LLM caller (a :class:`~voxbench.pipelines.caller.policy.CallerPolicy`).

    ``llm``: an OpenAI-compatible pipecat chat service (``get_chat_completions``); ``tools``:
    the ``end_call`` tool in the ``tools`` reply format (None in ``json``); ``stats``: the
    record's caller counters (``holds_waited``; the service counts its own turns there)."""

    def __init__(
        self,
        llm: Any,
        opening: str,
        *,
        tools: ToolsSchema | None = None,
        wait_on_hold: bool = True,
        stats: dict[str, int] | None = None,
    ) -> None:
        if not callable(getattr(llm, "get_chat_completions", None)):
            raise ValueError(
                f"the LLM caller needs an OpenAI-compatible chat service, not {type(llm).__name__}"
            )
        self.llm = llm
        self.opening = opening
        self.context = LLMContext(tools=tools) if tools is not None else LLMContext()
        self.wait_on_hold = wait_on_hold
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("holds_waited", 0)
        self.acts: list[CallerAct] = []
        self.agent_turns = 0
        self._undo: tuple[int, int] | None = None  # messages and agent turns before the last decision
        settings = getattr(llm, "settings", None)
        self.classifier = f"llm:{getattr(settings, 'model', None) or type(llm).__name__}"

    @property
    def ended(self) -> bool:
        return bool(self.acts) and self.acts[-1].ends_call

    @property
    def end_reason(self) -> str | None:
        return self.acts[-1].rule if self.ended else None

    def _acted(self, act: CallerAct) -> CallerAct:
        self.acts.append(act)
        if act.text:
            self.context.add_message({"role": "assistant", "content": act.text})
        return act

    def _keep_undo(self) -> None:
        self._undo = (len(self.context.get_messages()), self.agent_turns)

    def withdraw(self, act: CallerAct) -> None:
        """The last act was never said (the agent spoke first): the agent turn it answered and its
        words leave the model's context (the driver hands that turn back with the next one)."""
        messages, self.agent_turns = require_last(self.acts, act, self._undo)
        self.context.set_messages(self.context.get_messages()[:messages])
        self.acts.pop()
        self._undo = None

    def open(self) -> CallerAct:
        self._keep_undo()
        return self._opening()

    def _opening(self) -> CallerAct:
        return self._acted(CallerAct(turn=self.agent_turns, kind="open", text=self.opening, rule=OPENING))

    async def respond(self, heard: str, t: float | None = None) -> CallerAct:
        """The act answering the agent's turn ``heard`` (the opening first, if not said yet)."""
        self._keep_undo()
        if heard.strip():
            self.context.add_message({"role": "user", "content": heard.strip()})
            self.agent_turns += 1
        if not self.acts:
            return self._opening()
        if self.wait_on_hold and agent_asked_to_wait(self.context):
            self.stats["holds_waited"] += 1
            return self._acted(CallerAct(turn=self.agent_turns, kind="wait", text="", rule=HOLD))
        stream = await self.llm.get_chat_completions(self.context)
        words, end = await read_reply(stream)
        rules = _guard_rules(stream)
        rule = GAVE_UP if GAVE_UP in rules else END if end else REPLY if words else SILENT
        kind = "end" if end else "answer" if words else "wait"
        act = CallerAct(
            turn=self.agent_turns,
            kind=kind,
            text=words,
            rule=rule,
            rules=rules,
            classifier=self.classifier,
            ends_call=end,
        )
        return self._acted(act)


def _guard_rules(stream: Any) -> list[str]:
    """Which reply guards stepped in (the ``json`` format's stream says)."""
    if not isinstance(stream, CallerTurnStream):
        return []
    flags = {"not_json": stream.turn is None, "echo_retry": stream.echoed, GAVE_UP: stream.gave_up}
    return [name for name, on in flags.items() if on]
