"""The LLM caller's model service in the ``json`` reply format (the offline default).

:func:`make_caller_llm` builds a pipecat ``OpenAILLMService`` subclass for any OpenAI-compatible
endpoint (the embedded llama.cpp server or a cloud/vLLM/Ollama one) that

* rewrites each request into the caller's framing (system prompt, then one user message with
  the call so far from the caller's side and a cue quoting the agent's question:
  :func:`~voxbench.pipelines.caller.prompt.caller_request_messages`),
* asks for ``{"customer_says", "end_call"}`` JSON through ``response_format`` (a grammar on
  llama.cpp, strict structured output on OpenAI), and
* streams only the words to TTS and turns ``end_call: true`` into an ``end_call`` tool call
  (:class:`~voxbench.pipelines.caller.stream.CallerTurnStream`), and
* asks once more, cued against it, when a reply echoes the agent's last turn, and gives up (a
  goodbye and ``end_call``) instead of saying a line a third time
  (:mod:`~voxbench.pipelines.caller.stream`; small models parrot and loop).

The pipeline keeps pipecat's ordinary context (agent turns as ``user``, caller turns as
``assistant``), so the record and the aggregators need nothing special.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pipecat.services.openai.llm import OpenAILLMService

from voxbench.pipelines.caller.prompt import AGENT_LABEL, CALLER_LABEL, call_lines, caller_request_messages
from voxbench.pipelines.caller.stream import ECHO_FALLBACK, CallerTurnStream, GiveUp
from voxbench.pipelines.caller.turn_json import caller_response_format

if TYPE_CHECKING:
    from voxbench.pipelines.config import LLMSimConfig
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.pipelines.services import LLMConfig


@dataclass(frozen=True)
class CallerRules:
    """The guards around the caller model's replies, fixed when its service is built.

    ``give_up``: a goodbye instead of saying a line a third time (``None``: never);
    ``retry_echoes``: ask once more, cued, when a reply echoes the agent; ``echo_fallback``:
    what a second echo is replaced by (the scenario's opening request, in its own words).
    """

    give_up: GiveUp | None = field(default_factory=GiveUp)
    retry_echoes: bool = True
    echo_fallback: str = ECHO_FALLBACK

    @classmethod
    def for_call(cls, call: CallScenario, cfg: LLMSimConfig) -> CallerRules:
        n = cfg.give_up_after_says
        return cls(
            give_up=GiveUp(cfg.give_up_line, n) if n is not None else None,
            retry_echoes=cfg.retry_echoes,
            echo_fallback=str(call.resolver.resolve(call.scenario.starting_utterance(call.lang))),
        )


class CallerLLMService(OpenAILLMService):
    """OpenAI-compatible caller LLM: transcript framing in, JSON caller turns out."""

    def __init__(self, *, rules: CallerRules | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rules = rules or CallerRules()
        self._careful = False  # set while asking again after an echo
        # shared with SimulatorServices.info, so the record says how the caller behaved
        self.caller_stats: dict[str, int] = {"turns": 0, "not_json": 0, "echo_retries": 0, "gave_up": 0}
        self.caller_unspoken: list[dict[str, str]] = []  # what the guards replaced, for diagnosis

    def _count(self, stream: CallerTurnStream) -> None:
        self.caller_stats["turns"] += 1
        self.caller_stats["not_json"] += stream.turn is None
        self.caller_stats["echo_retries"] += stream.echoed
        self.caller_stats["gave_up"] += stream.gave_up
        self.caller_unspoken += stream.unspoken

    def build_chat_completion_params(self, params_from_context: Any) -> dict[str, Any]:
        params: dict[str, Any] = super().build_chat_completion_params(params_from_context)
        params["messages"] = caller_request_messages(params.get("messages") or [], self._careful)
        params.pop("tools", None)
        params.pop("tool_choice", None)
        params["response_format"] = caller_response_format()
        return params

    async def get_chat_completions(self, context: Any) -> Any:
        lines = call_lines(context.get_messages())
        said = [text for who, text in lines if who == CALLER_LABEL]
        # an echo of any agent line counts (live: a refusal from three turns back, verbatim)
        agent = " ".join(text for who, text in lines if who == AGENT_LABEL)
        asked = bool(lines) and lines[-1][0] == AGENT_LABEL
        inner = await super().get_chat_completions(context)

        async def again() -> Any:  # the same request, cued against echoing the agent
            self._careful = True
            try:
                return await OpenAILLMService.get_chat_completions(self, context)
            finally:
                self._careful = False

        return CallerTurnStream(
            inner,
            said_before=said,
            give_up=self.rules.give_up,
            on_done=self._count,
            agent_turn=agent,
            retry=again if self.rules.retry_echoes and asked else None,
            echo_fallback=self.rules.echo_fallback,
        )


def make_caller_llm(
    cfg: LLMConfig,
    *,
    server: Any = None,
    rules: CallerRules | None = None,
    system_instruction: str | None = None,
) -> CallerLLMService:
    """A caller LLM service for ``cfg`` with its ``rules`` and its brief (``system_instruction``;
    see :func:`~voxbench.pipelines.caller.llm_setup.llm_caller_services`): ``kind='local'``
    needs a started local server.

    Tool-call options of ``cfg`` (``tool_call_mode``, ``flatten_tool_history``,
    ``adapt_text_tool_calls``, ``strip_markdown``) do not apply: a caller has no tools, and its
    words arrive as a JSON string, not markdown.
    """
    from voxbench.pipelines.services import chat_settings

    return CallerLLMService(rules=rules, **chat_settings(cfg, server, system_instruction).service_kwargs())
