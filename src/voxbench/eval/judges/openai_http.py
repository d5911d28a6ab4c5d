"""A judge over any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp).

Stdlib only (urllib). Retries with exponential backoff on 429/5xx/network errors, an
on-disk cache keyed by model + prompt hash + input, and token/cost accounting.
Configuration: `base_url`, `model`, and the API key from `api_key_env` (default
`VOXBENCH_JUDGE_API_KEY`, then `OPENAI_API_KEY`).

With `json_schema=True` every request for one of voxbench's judge prompts carries
`response_format: {"type": "json_schema", ...}` (llama.cpp turns it into a grammar, OpenAI
into structured output), so even a tiny local model returns a parseable rating.
`provenance` is free-form metadata about the judge (e.g. the local GGUF and its SHA-256)
that scoring copies into the run summary.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.eval.judges.base import JudgeReply
from voxbench.eval.judges.prompts import response_schema
from voxbench.records.secrets import mask, read_secret


@dataclass
class Usage:
    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


@dataclass
class OpenAIJudge:
    base_url: str
    model: str
    api_key_env: str = "VOXBENCH_JUDGE_API_KEY"
    cache_dir: Path | None = None
    temperature: float = 0.0
    max_tokens: int = 4096
    timeout_s: float = 120.0
    max_retries: int = 5
    price_per_mtok_in: float = 0.0
    price_per_mtok_out: float = 0.0
    json_schema: bool = False
    provenance: dict[str, Any] | None = None
    usage: Usage = field(default_factory=Usage)
    sleep: Any = time.sleep

    def _schema(self, system: str) -> tuple[str, dict[str, Any]] | None:
        return response_schema(system) if self.json_schema else None

    def _key(self) -> str | None:
        return read_secret(self.api_key_env) or read_secret("OPENAI_API_KEY")

    def cache_key(self, system: str, user: str, audio_wav: bytes | None) -> str:
        h = hashlib.sha256()
        schema = self._schema(system)
        constrained = f"json_schema:{schema[0]}" if schema else ""
        for part in (self.model, hashlib.sha256(system.encode()).hexdigest(), user, constrained):
            h.update(part.encode("utf-8"))
            h.update(b"\0")
        if audio_wav:
            h.update(hashlib.sha256(audio_wav).digest())
        return h.hexdigest()

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
        key = self.cache_key(system, user, audio_wav)
        cpath = self.cache_dir / f"{key}.json" if self.cache_dir else None
        if cpath is not None and cpath.is_file():
            reply = JudgeReply.model_validate_json(cpath.read_text(encoding="utf-8"))
            self.usage.calls += 1
            self.usage.cached_calls += 1
            return reply.model_copy(update={"cached": True})
        content: Any = user
        if audio_wav is not None:
            b64 = base64.b64encode(audio_wav).decode()
            content = [
                {"type": "text", "text": user},
                {"type": "input_audio", "input_audio": {"data": b64, "format": "wav"}},
            ]
        body = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": content}],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if (schema := self._schema(system)) is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema[0], "schema": schema[1], "strict": True},
            }
        data = self._post(body)
        usage = data.get("usage") or {}
        pt, ct = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        cost = (pt * self.price_per_mtok_in + ct * self.price_per_mtok_out) / 1e6
        reply = JudgeReply(
            text=str(((data.get("choices") or [{}])[0].get("message") or {}).get("content") or ""),
            model=str(data.get("model") or self.model),
            prompt_tokens=pt,
            completion_tokens=ct,
            cost_usd=cost,
        )
        self.usage.calls += 1
        self.usage.prompt_tokens += pt
        self.usage.completion_tokens += ct
        self.usage.cost_usd += cost
        if cpath is not None:
            cpath.parent.mkdir(parents=True, exist_ok=True)
            tmp = cpath.with_suffix(".tmp")
            tmp.write_text(reply.model_dump_json(), encoding="utf-8")
            os.replace(tmp, cpath)
        return reply

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        url = self.base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        if k := self._key():
            headers["Authorization"] = f"Bearer {k}"
        last: Exception | None = None
        for attempt in range(self.max_retries + 1):
            req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                    return dict(json.loads(resp.read().decode("utf-8")))
            except urllib.error.HTTPError as exc:
                with exc:  # close the response socket either way
                    if exc.code not in (408, 409, 429) and exc.code < 500:
                        said = mask(repr(exc.read()[:300]))  # some providers repeat the key they refuse
                        raise RuntimeError(f"judge HTTP {exc.code}: {said}") from exc
                last = exc
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                last = exc
            if attempt < self.max_retries:
                self.sleep(min(60.0, 2.0**attempt) * random.uniform(0.8, 1.2))
        raise RuntimeError(f"judge unreachable after {self.max_retries + 1} attempts: {last}")
