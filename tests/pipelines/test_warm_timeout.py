"""How long the agent's LLM warm-up may take before the call, and what a cut one means."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pipecat.processors.aggregators.llm_context import LLMContext

from tests.fakes.services import FakeLLM
from voxbench.localmodels.prompt_cache import PromptCache
from voxbench.orchestrator.config import RunConfig
from voxbench.pipelines.warmup import (
    FIRST_WARM_S,
    SETUP_BEFORE_WARM_S,
    WarmUpCutError,
    first_warm_limit,
    warm_timeout,
    warm_up,
)


def test_a_warm_up_that_will_be_saved_may_take_longer() -> None:
    assert warm_timeout(180.0, will_save=True) == FIRST_WARM_S
    assert warm_timeout(900.0, will_save=True) == 900.0


def test_a_warm_up_not_saved_keeps_its_limit() -> None:
    assert warm_timeout(180.0, will_save=False) == 180.0


def test_the_first_warm_up_fits_in_the_attempts_set_up_allowance() -> None:
    # Until the call starts, an attempt is killed after time limit + grace: the warm-up, with
    # a minute of model loading, must end well before that.
    assert RunConfig.model_fields["time_limit_s"].default > FIRST_WARM_S + 60.0


class _StuckPrefill(FakeLLM):
    """A model server still reading its prompt: the first token never comes."""

    async def get_chat_completions(self, context: LLMContext) -> AsyncIterator[str]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def _cache(tmp_path: Path) -> PromptCache:
    # nothing saved yet, so restore() finds no file and never reaches a server
    return PromptCache(root_url="http://127.0.0.1:9", directory=tmp_path, model_id="test")


def test_a_first_warm_up_cut_fails_the_attempt_instead_of_a_silent_call(tmp_path: Path) -> None:
    ctx = LLMContext(messages=[{"role": "system", "content": "policy"}])
    with pytest.raises(WarmUpCutError, match="still reading its prompt"):
        asyncio.run(warm_up(_StuckPrefill([]), ctx, _cache(tmp_path), timeout_s=0.01, first_warm_s=0.01))


def test_a_warm_up_not_saved_is_still_best_effort() -> None:
    ctx = LLMContext(messages=[{"role": "system", "content": "policy"}])
    assert asyncio.run(warm_up(_StuckPrefill([]), ctx, None, timeout_s=0.01)) is None


def test_the_first_warm_up_may_use_what_the_set_up_leaves_of_the_time_limit() -> None:
    default = RunConfig.model_fields["time_limit_s"].default
    assert first_warm_limit(default) == default - SETUP_BEFORE_WARM_S
    assert first_warm_limit(1800.0) == 1800.0 - SETUP_BEFORE_WARM_S  # --time-limit 1800
    assert first_warm_limit(120.0) == FIRST_WARM_S
