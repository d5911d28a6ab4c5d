"""The lifecycle pieces every live call shares (bot-to-bot and a person's): a pipeline
worker on the conversation clock, its task, a bounded stop, and the package versions a
record names."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from loguru import logger
from pipecat.frames.frames import EndFrame
from pipecat.observers.base_observer import BaseObserver
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker, ProcessorUnusablePolicy

from voxbench.processors.clock import ConversationClock


def make_worker(
    pipeline: Pipeline, clock: ConversationClock, observers: list[BaseObserver], sr: int, name: str
) -> PipelineWorker:
    """A pipeline worker on the conversation clock (the recorder's observer among ``observers``)."""
    return PipelineWorker(
        pipeline,
        params=PipelineParams(
            audio_in_sample_rate=sr, audio_out_sample_rate=sr, enable_metrics=True, enable_usage_metrics=True
        ),
        clock=clock,
        observers=observers,
        idle_timeout_secs=None,
        enable_rtvi=False,
        enable_turn_tracking=False,
        processor_unusable_policy=ProcessorUnusablePolicy.END,
        name=name,
    )


class PipelineTask:
    """A running pipeline and why it ended, if it failed."""

    def __init__(self, coro: Coroutine[Any, Any, None], name: str):
        self.name = name
        self.task = asyncio.create_task(coro, name=name)

    def failure(self) -> str | None:
        if not self.task.done() or self.task.cancelled():
            return None
        exc = self.task.exception()
        return f"{type(exc).__name__}: {exc}" if exc else None


async def stop_worker(
    worker: PipelineWorker | None, task: PipelineTask | None, timeout: float, graceful: bool = True
) -> None:
    """EndFrame (``graceful``), then CancelFrame, then cancel the task: each step bounded by
    `timeout`.

    Uses `asyncio.wait`, never `wait_for` on the task: `wait_for` waits for a cancelled
    task to *finish* cancelling, and a pipeline stuck in a blocking model call (a thread
    that can't be interrupted) would hang the runner forever.
    """
    if worker is None or task is None or task.task.done():
        return
    if graceful:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(worker.queue_frame(EndFrame()), timeout=timeout)
        await asyncio.wait({task.task}, timeout=timeout)
        if task.task.done():
            return
        logger.warning(f"{task.name}: did not end within {timeout}s; cancelling")
    cancel = asyncio.ensure_future(worker.cancel(reason="shutdown timeout"))
    await asyncio.wait({cancel, task.task}, timeout=timeout, return_when=asyncio.ALL_COMPLETED)
    if not task.task.done():
        task.task.cancel()
        await asyncio.wait({task.task}, timeout=timeout)
    if not task.task.done():
        logger.error(f"{task.name}: still running after cancel; abandoning it")


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("voxbench", "pipecat-ai", "faster-whisper", "piper-tts", "xllamacpp"):
        with contextlib.suppress(PackageNotFoundError):
            out[pkg] = version(pkg)
    return out
