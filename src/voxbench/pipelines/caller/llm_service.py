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

from typing import TYPE_CHECKING, Any

from voxbench.pipelines.caller.prompt import AGENT_LABEL, CALLER_LABEL, call_lines, caller_request_messages
from voxbench.pipelines.caller.stream import ECHO_FALLBACK, CallerTurnStream, GiveUp
from voxbench.pipelines.caller.turn_json import caller_response_format

if TYPE_CHECKING:
    from voxbench.pipelines.services import LLMConfig

_SERVICE_CLASS: type | None = None


def _service_class() -> type:
    from pipecat.services.openai.llm import OpenAILLMService

    class CallerLLMService(OpenAILLMService):
        """OpenAI-compatible caller LLM: transcript framing in, JSON caller turns out."""

        speaks_caller_json = True  # build_llm_simulator checks this before choosing the json format

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.give_up: GiveUp | None = GiveUp()  # prepare_llm_caller sets it from the call config
            self.retry_echoes = True
            self.echo_fallback = ECHO_FALLBACK  # prepare_llm_caller: the scenario's opening line
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
                give_up=self.give_up,
                on_done=self._count,
                agent_turn=agent,
                retry=again if self.retry_echoes and asked else None,
                echo_fallback=self.echo_fallback,
            )

    return CallerLLMService


def caller_llm_service_class() -> type:
    """The ``CallerLLMService`` class (built lazily: importing this module needs no pipecat)."""
    global _SERVICE_CLASS
    if _SERVICE_CLASS is None:
        _SERVICE_CLASS = _service_class()
    return _SERVICE_CLASS


def make_caller_llm(cfg: LLMConfig, *, server: Any = None) -> Any:
    """A caller LLM service for ``cfg``: ``kind='local'`` needs a started local server.

    Tool-call options of ``cfg`` (``tool_call_mode``, ``flatten_tool_history``,
    ``adapt_text_tool_calls``, ``strip_markdown``) do not apply: a caller has no tools, and its
    words arrive as a JSON string, not markdown.
    """
    from pipecat.services.openai.llm import OpenAILLMService

    extra: dict[str, Any] = {}
    if cfg.kind == "local":
        if server is None or not server.running:
            raise ValueError("kind='local' needs a started LocalLLMServer (see make_local_llm_server)")
        base_url, model, api_key = server.base_url, server.model, "sk-local"
        extra["extra_body"] = {"cache_prompt": True}  # llama.cpp: reuse the cached prompt prefix
    else:
        assert cfg.model is not None
        base_url, model, api_key = cfg.base_url, cfg.model, cfg.api_key() or "sk-no-key"
    settings: dict[str, Any] = {"model": model, "system_instruction": None}
    if cfg.temperature is not None:
        settings["temperature"] = cfg.temperature
    if cfg.max_tokens is not None:
        settings["max_tokens"] = cfg.max_tokens
    if extra:
        settings["extra"] = extra
    cls = caller_llm_service_class()
    return cls(api_key=api_key, base_url=base_url, settings=OpenAILLMService.Settings(**settings))
