"""How the agent's LLM service shapes each request and reads each reply: one object, not seven flags.

Small local models need help with tools (offline-models.md §12): their JSON-text calls
rewritten into real ``tool_calls``, their tool history flattened, a compact tool prompt or a
grammar-constrained reply, markdown stripped before TTS, ungrounded calls refused.
:class:`ReplyPolicy` holds those choices; an :class:`~voxbench.pipelines.services.LLMConfig`
resolves it once (``LLMConfig.reply_policy``) and the service
(:mod:`.llm_service`) and the request shaping (:mod:`.tool_prompt`) read it. Pure pydantic.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ToolCallMode = Literal["native", "compact", "json_schema"]
TOOL_CALL_MODES: tuple[str, ...] = ("native", "compact", "json_schema")


class ReplyPolicy(BaseModel):
    """The agent LLM's request shaping and reply reading (defaults: a capable model, untouched)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    adapt_text_tool_calls: bool = True  # JSON-text tool calls in content -> real tool_calls
    flatten_tool_history: bool = False  # past tool calls/results sent as plain chat turns
    tool_call_mode: ToolCallMode = "native"  # native | compact tool prompt | + json_schema grammar
    strip_markdown: bool = False  # code blocks and markdown marks dropped before TTS
    plan_replies: bool = False  # json_schema: each reply starts with an unspoken "plan"
    say_then_tool: bool = False  # json_schema: every reply is {"say", "tool"} (a name or "none")
    ground_tool_arguments: bool = False  # identifier values never shown to the model: ask instead

    @property
    def unwrap_say(self) -> bool:
        """Replies come as ``{"say": ...}`` JSON whose words alone are spoken."""
        return self.tool_call_mode != "native"
