"""How many tokens a chat request's prompt is, counted by the model that will read it.

A small local model's window holds the domain policy, the tool schemas and the conversation
so far; EVA's ITSM prompt alone is most of an 8k window (benchmarks/context_sizes.py). A
character estimate (pipecat's summariser uses ``len // 4``) is off by tens of percent on
policies full of codes and JSON, so the count is the model's own: llama.cpp renders the
request with the model's chat template (``/apply-template``, tools included) and tokenizes
the result (``/tokenize``), the same two steps its ``/v1/chat/completions`` takes. Pipecat-free.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from voxbench.localmodels.loopback import post_json

# the parts of a chat request that its chat template renders (a json_schema grammar is no prompt)
TEMPLATE_KEYS = ("messages", "tools", "tool_choice", "parallel_tool_calls")


class PromptTokenCounter(ABC):
    """Counts the prompt tokens of an OpenAI-style chat request (its messages and tools)."""

    @abstractmethod
    async def count(self, request: Mapping[str, Any]) -> int:
        """Tokens of the prompt ``request`` becomes; raises ``OSError`` when it cannot count."""


class LlamaPromptTokenCounter(PromptTokenCounter):
    """The count of a running llama.cpp server (its template and tokenizer), over loopback HTTP."""

    def __init__(self, root_url: str, timeout_s: float = 30.0) -> None:
        self.root_url = root_url.rstrip("/")  # the server's address, without /v1
        self.timeout_s = timeout_s

    async def count(self, request: Mapping[str, Any]) -> int:
        return await asyncio.to_thread(self.count_sync, request)

    def count_sync(self, request: Mapping[str, Any]) -> int:
        body = template_body(request)
        prompt = self._post("/apply-template", body).get("prompt")
        if not isinstance(prompt, str):
            raise OSError("llama.cpp /apply-template returned no prompt")
        # as the completion endpoint tokenizes its prompt: special tokens added and parsed
        tokens = self._post("/tokenize", {"content": prompt, "add_special": True, "parse_special": True})
        if not isinstance(tokens.get("tokens"), list):
            raise OSError("llama.cpp /tokenize returned no tokens")
        return len(tokens["tokens"])

    def _post(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        out = json.loads(post_json(self.root_url + path, body, self.timeout_s))
        return out if isinstance(out, dict) else {}


def template_body(request: Mapping[str, Any]) -> dict[str, Any]:
    """The rendered parts of ``request``: messages, and tools when it has a list of them
    (OpenAI clients mark an absent value with a sentinel object, which is left out)."""
    body: dict[str, Any] = {"messages": list(request.get("messages") or [])}
    tools = request.get("tools")
    if isinstance(tools, list) and tools:
        body["tools"] = tools
        for key in TEMPLATE_KEYS[2:]:
            if isinstance(request.get(key), str | bool | dict):
                body[key] = request[key]
    return body
