"""Token usage and a cost ESTIMATE per conversation.

The table holds approximate public list prices (USD) we last checked in 2025. They are
NOT authoritative, change often, ignore discounts, caching and free tiers, and realtime
models are priced at their audio-token rates because the recorded usage does not split
audio from text. Use the figure to compare profiles, not to budget; pass your own
``prices`` to :func:`usage_summary` for real numbers.

Inputs are the record's own events: ``UsageEvent`` (LLM tokens, from pipecat's usage
metrics), agent ``TTSText`` (characters a cascade/hybrid TTS was asked to speak) and the
call duration (streaming STT and per-minute realtime services bill the whole call).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from voxbench.records import AgentInfo, ServicePart, TTSText, UsageEvent

PRICE_TABLE_VERSION = "2025-approx-1"


@dataclass(frozen=True)
class PriceTable:
    # model-name substring -> USD per 1M (prompt, completion) tokens
    tokens: dict[str, tuple[float, float]] = field(default_factory=dict)
    # "stt:<provider>" / "realtime:<provider>" -> USD per minute of call
    per_minute: dict[str, float] = field(default_factory=dict)
    # "tts:<provider>" -> USD per 1000 characters
    per_1k_chars: dict[str, float] = field(default_factory=dict)
    version: str = PRICE_TABLE_VERSION


DEFAULT_PRICES = PriceTable(
    tokens={
        "gpt-4.1-mini": (0.40, 1.60),
        "gpt-4.1-nano": (0.10, 0.40),
        "gpt-4.1": (2.00, 8.00),
        "gpt-4o-mini": (0.15, 0.60),
        "gpt-4o": (2.50, 10.00),
        "gpt-realtime-mini": (10.00, 20.00),
        "gpt-realtime": (32.00, 64.00),
        "claude-haiku-4-5": (1.00, 5.00),
        "claude-sonnet-4": (3.00, 15.00),
        "gemini-2.5-flash-native-audio": (3.00, 12.00),
        "gemini-2.5-flash": (0.30, 2.50),
        "gemini-2.5-pro": (1.25, 10.00),
        "qwen2.5-coder-0.5b": (0.0, 0.0),  # the local default
        "fake": (0.0, 0.0),
    },
    per_minute={
        "stt:deepgram": 0.0077,
        "stt:openai": 0.006,
        "realtime:ultravox": 0.05,
    },
    per_1k_chars={
        "tts:cartesia": 0.03,
        "tts:elevenlabs": 0.05,
        "tts:openai": 0.015,
        "tts:deepgram": 0.03,
    },
)


def token_price(model: str, prices: PriceTable) -> tuple[float, float] | None:
    """Longest table key contained in ``model`` (so dated/prefixed names match)."""
    hits = [k for k in prices.tokens if k in model.lower()]
    return prices.tokens[max(hits, key=len)] if hits else None


def usage_summary(
    events: Iterable[Any], duration_s: float, agent: AgentInfo, prices: PriceTable = DEFAULT_PRICES
) -> dict[str, Any]:
    """Tokens per model, TTS characters, call minutes, and the estimated cost of the agent side."""
    llm: dict[str, dict[str, Any]] = {}
    tts_chars = 0
    for ev in events:
        if isinstance(ev, UsageEvent) and ev.side == "agent":
            m = llm.setdefault(
                ev.model or "unknown", {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
            )
            m["prompt_tokens"] += ev.prompt_tokens
            m["completion_tokens"] += ev.completion_tokens
            m["calls"] += 1
        elif isinstance(ev, TTSText) and ev.side == "agent":
            tts_chars += len(ev.text)
    minutes = max(duration_s, 0.0) / 60.0
    items: list[dict[str, Any]] = []
    unpriced: list[str] = []
    for model, m in llm.items():
        p = token_price(model, prices)
        if p is None:
            unpriced.append(f"llm:{model}")
            m["usd"] = None
            continue
        m["usd"] = round((m["prompt_tokens"] * p[0] + m["completion_tokens"] * p[1]) / 1e6, 6)
        items.append({"item": f"llm:{model}", "usd": m["usd"]})

    def vendor(part: ServicePart | None) -> str | None:
        return None if part is None else part.vendor

    stt = vendor(agent.stt)
    if stt in ("deepgram", "openai"):
        rate = prices.per_minute.get(f"stt:{stt}")
        if rate is None:
            unpriced.append(f"stt:{stt}")
        else:
            items.append(
                {"item": f"stt:{stt}", "minutes": round(minutes, 3), "usd": round(rate * minutes, 6)}
            )
    rt = vendor(agent.realtime)
    if rt is not None and f"realtime:{rt}" in prices.per_minute:
        rate = prices.per_minute[f"realtime:{rt}"]
        items.append(
            {"item": f"realtime:{rt}", "minutes": round(minutes, 3), "usd": round(rate * minutes, 6)}
        )
    tts = vendor(agent.tts)
    if tts in ("cartesia", "elevenlabs", "openai", "deepgram"):
        rate = prices.per_1k_chars.get(f"tts:{tts}")
        if rate is None:
            unpriced.append(f"tts:{tts}")
        else:
            items.append({"item": f"tts:{tts}", "chars": tts_chars, "usd": round(rate * tts_chars / 1000, 6)})
    return {
        "estimate": True,
        "note": "approximate list prices, not a bill (see voxbench.pipelines.agent.pricing)",
        "currency": "USD",
        "price_table": prices.version,
        "llm": llm,
        "tts_chars": tts_chars,
        "call_minutes": round(minutes, 3),
        "items": items,
        "unpriced": unpriced,
        "estimated_cost_usd": round(sum(i["usd"] for i in items), 6) if not unpriced else None,
    }
