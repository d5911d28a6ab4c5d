"""The frame every simulated caller's pipeline shares: the wire in (with gap fill), the
caller's own stages, its voice, the wire out."""

from __future__ import annotations

from collections.abc import Sequence

from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.frame_processor import FrameProcessor

from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.transports.pacing import GapFillProcessor


def caller_pipeline(
    b: CallerBuild, stages: Sequence[FrameProcessor], after_output: Sequence[FrameProcessor] = ()
) -> Pipeline:
    """``transport in -> (gap fill) -> stages -> TTS -> transport out -> after_output``."""
    cfg = b.live.cfg
    head: list[FrameProcessor] = [b.transport.input()]
    if cfg.wire.gap_fill:
        head.append(GapFillProcessor(cfg.wire.sample_rate))
    return Pipeline([*head, *stages, b.services.tts, b.transport.output(), *after_output])
