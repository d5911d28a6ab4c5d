"""Prime an LLM before the call: one short completion over the real system prompt and tools.

A local model spends most of its first answer reading the domain policy and tool
schemas (~20 s for airline on 2 cores). Doing that before the clock starts leaves the
prefix in the server's prompt cache, so the first turn is as fast as the later ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from loguru import logger
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.services.llm_service import LLMService


async def warm_up(llm: LLMService, context: LLMContext, timeout_s: float = 180.0) -> float | None:
    """Best effort; returns seconds taken, or None when the service can't be warmed."""
    get = getattr(llm, "get_chat_completions", None)
    if get is None:
        return None
    probe = LLMContext(messages=[{"role": "user", "content": "Hello."}], tools=context.tools)
    t0 = time.monotonic()

    async def _run() -> None:
        stream = await get(probe)
        it = stream.__aiter__()
        with contextlib.suppress(StopAsyncIteration):
            await it.__anext__()
        for closer in ("aclose", "close"):
            fn = getattr(it, closer, None) or getattr(stream, closer, None)
            if fn is not None:
                with contextlib.suppress(Exception):
                    await fn()
                break

    try:
        await asyncio.wait_for(_run(), timeout=timeout_s)
    except Exception as exc:  # warming is an optimisation, never a failure
        logger.warning(f"LLM warm-up skipped: {type(exc).__name__}: {exc}")
        return None
    dt = time.monotonic() - t0
    logger.info(f"LLM warm-up took {dt:.1f}s")
    return dt
