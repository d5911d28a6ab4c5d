"""Prime an LLM before the call: one short completion over the real system prompt and tools.

A local model spends most of its first answer reading the domain policy and tool
schemas (~40 s for the built-in airline agent, ~125 s for EVA's airline prompt, at ~22
tokens/s on one thread of 2 cores). Doing that before the clock starts leaves the prefix in
the server's prompt cache, so the first turn is as fast as the later ones; with a
:class:`~voxbench.localmodels.prompt_cache.PromptCache` the prefix is also saved to disk once
and restored by the next call's server instead of being read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from loguru import logger
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.services.llm_service import LLMService
from pydantic import BaseModel

from voxbench.localmodels.prompt_cache import PromptCache


class WarmUpCutError(RuntimeError):
    """A first warm-up, to be saved for later calls, did not finish in time.

    The call would start with an agent still reading its prompt: silent for minutes, hung up
    on by the caller, and scored as the agent's failure (live itsm/14 on a loaded machine,
    2026-12-06: warm-up cut at 420 s, agent silent, caller gone at 80 s). Raised, the attempt
    is an infrastructure failure, retried and reported apart."""


async def warm_up(
    llm: LLMService,
    context: LLMContext,
    cache: PromptCache | None = None,
    timeout_s: float = 180.0,
    first_warm_s: float | None = None,
) -> float | None:
    """Best effort; returns seconds taken, or None when the service can't be warmed.

    Raises :class:`WarmUpCutError` when a warm-up that would be saved times out (see there);
    ``first_warm_s`` overrides :data:`FIRST_WARM_S`."""
    get = getattr(llm, "get_chat_completions", None)
    if get is None:
        return None
    probe = LLMContext(messages=[{"role": "user", "content": "Hello."}], tools=context.tools)
    t0 = time.monotonic()
    name = cache.name_for(warm_payload(llm, context)) if cache is not None else None
    restored = bool(cache and name and await asyncio.to_thread(cache.restore, name))

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

    will_save = cache is not None and not restored
    limit = warm_timeout(timeout_s, will_save, first_warm_s)
    try:
        await asyncio.wait_for(_run(), timeout=limit)
    except TimeoutError as exc:
        if will_save:
            raise WarmUpCutError(
                f"the agent's LLM was still reading its prompt after {limit:.0f} s (first warm-up, "
                "saved for later calls); a call now would start with a silent agent. On a loaded "
                "or slow machine, run fewer calls at once or raise --time-limit (the first "
                "warm-up may use all but 2 minutes of it)"
            ) from exc
        logger.warning(f"LLM warm-up skipped: TimeoutError after {limit:.0f} s")
        return None
    except Exception as exc:  # warming is an optimisation, never a failure
        logger.warning(f"LLM warm-up skipped: {type(exc).__name__}: {exc}")
        return None
    dt = time.monotonic() - t0
    if cache is not None and name is not None and not restored:
        await asyncio.to_thread(cache.save, name)
    logger.info(f"LLM warm-up took {dt:.1f}s" + (" (saved prompt restored)" if restored else ""))
    return dt


FIRST_WARM_S = 420.0
"""How long a warm-up that will be saved may take: EVA's ITSM and medical HR prompts take about
four minutes to read on 2 cores; cut at 180 s they were never saved, so every call started cold
and the agent's first answer came after the caller had hung up. Well inside the attempt's
time limit, which counts set-up until the call starts."""


SETUP_BEFORE_WARM_S = 120.0
"""Set-up before the warm-up starts (importing pipecat, starting the server, loading STT and TTS:
40-90 s measured on 2 cores), kept out of what the first warm-up may use."""


def first_warm_limit(time_limit_s: float) -> float:
    """How long a first warm-up may take in an attempt with this time limit: until the call
    starts, the attempt is killed after time limit + grace, so the warm-up may use what the set-up
    leaves of it, and never less than :data:`FIRST_WARM_S` (default limit 600 s: 480 s)."""
    return max(FIRST_WARM_S, time_limit_s - SETUP_BEFORE_WARM_S)


def warm_timeout(timeout_s: float, will_save: bool, first_warm_s: float | None = None) -> float:
    """The warm-up's time limit: a first warm-up whose prefix is saved for every later call of
    the same prompt is worth waiting for; one that is not saved keeps ``timeout_s``."""
    first = FIRST_WARM_S if first_warm_s is None else first_warm_s
    return max(timeout_s, first) if will_save else timeout_s


def warm_payload(llm: LLMService, context: LLMContext) -> str:
    """What the warm-up reads: the service's system prompt, the tool schemas and the reply
    policy that shapes them into the prompt (a saved prompt's name derives from it).

    The policy is part of it because it rewrites the prompt (a compact tool section, the
    reply format): without it, a saved prompt from before a policy change was "restored" and
    then read again in full on every call, never saved anew (make run 2026-12-04: 39-44 s of
    warm-up per call instead of ~1 s after the first)."""
    tools = context.tools
    standard = getattr(tools, "standard_tools", None)
    schemas = [t.to_default_dict() for t in standard] if standard is not None else []
    system = getattr(llm.settings, "system_instruction", None)  # LLM services' settings have it
    policy = getattr(llm, "policy", None)
    shaping = policy.model_dump(mode="json") if isinstance(policy, BaseModel) else None
    payload = {"system": system if isinstance(system, str) else "", "tools": schemas, "policy": shaping}
    return json.dumps(payload, sort_keys=True)
