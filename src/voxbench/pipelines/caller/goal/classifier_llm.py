"""The goal caller's optional LLM classifier: picks one of given choices, never writes words.

Deterministic matching decides almost every turn. When it is unsure (a request names none of
the caller's facts by their words; offered options that no criterion tells apart), the policy
may ask a :class:`~voxbench.pipelines.caller.goal.classify.ChoiceClassifier`. This one asks
a small local LLM under a grammar: the reply must be ``{"choice": <one of the labels>}``, the
labels being the choices built from the scenario (fact names plus "none of these"; option
texts plus "none of these"). Whatever the model does, the caller's words still come from its
facts and phrasings: the model only picks an index.

:class:`ChoiceLLM` is the one seam: :class:`LocalChoiceLLM` talks to the embedded llama.cpp
server (``voxbench.localmodels``) over its OpenAI-compatible HTTP API; tests subclass
:class:`ChoiceLLM` with a scripted fake.
"""

from __future__ import annotations

import json
import time
import urllib.request
from abc import ABC, abstractmethod
from typing import Any

_SYSTEM = (
    "You classify one line a customer-service agent said to a caller. Answer with the label of "
    "the choice that fits, or the 'none' label when none clearly fits. Do not explain."
)


class ChoiceLLM(ABC):
    """A model that answers a prompt with one of ``labels`` (enforced by a grammar)."""

    @abstractmethod
    def pick(self, prompt: str, labels: list[str]) -> str | None:
        """One of ``labels``, or ``None`` when the model's answer is not one of them."""


class LocalChoiceLLM(ChoiceLLM):
    """``pick`` on an OpenAI-compatible server (the embedded llama.cpp one), JSON-schema constrained."""

    def __init__(self, base_url: str, model: str, timeout_s: float = 300.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout_s = timeout_s

    def pick(self, prompt: str, labels: list[str]) -> str | None:
        schema = {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": labels}},
            "required": ["choice"],
            "additionalProperties": False,
        }
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": prompt}],
            "temperature": 0.0,
            "max_tokens": 40,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "choice", "schema": schema, "strict": True},
            },
        }
        req = urllib.request.Request(
            self.url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
            out = json.loads(resp.read())
        try:
            got = json.loads(out["choices"][0]["message"]["content"]).get("choice")
        except (KeyError, IndexError, ValueError, AttributeError):
            return None
        return got if got in labels else None


def _label(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"Z{i}"


class LLMChoiceClassifier:
    """A :class:`~.classify.ChoiceClassifier` over a :class:`ChoiceLLM` (counts calls and time)."""

    def __init__(self, llm: ChoiceLLM, name: str = "local") -> None:
        self.llm = llm
        self.name = name
        self.calls = 0
        self.ms_total = 0.0

    def choose(self, question: str, choices: list[str]) -> int | None:
        """The index of the chosen item of ``choices``; the last choice is taken to mean 'none'."""
        if len(choices) < 2:
            return None
        labels = [_label(i) for i in range(len(choices))]
        listing = "\n".join(f"{lab}: {c}" for lab, c in zip(labels, choices, strict=True))
        prompt = f"{question}\n\nChoices:\n{listing}\n\nWhich label fits?"
        t0 = time.perf_counter()
        got = self.llm.pick(prompt, labels)
        self.calls += 1
        self.ms_total += (time.perf_counter() - t0) * 1000.0
        if got is None:
            return None
        i = labels.index(got)
        return None if i == len(choices) - 1 else i
