"""`--judge-repeats R`: the judge rates every conversation R more times, to measure its noise.

The primary scores stay what they are (one deterministic rating per metric). The R
repeats are extra ratings at a sampling temperature, each with its own cache folder
(`<cache>/repeat_<r>`), so reruns are free and repeats never read each other's replies.
A judge that cannot sample (a fixed fake, a temperature-0 endpoint that ignores it)
gives identical repeats, and the judge component of the variance split is then 0: an
honest measurement of that judge, not an error.

Judges opt in by being a dataclass with `cache_dir` and `temperature` fields (the
OpenAI-compatible judge) or by offering `for_repeat(r) -> Judge`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from voxbench.eval.aggregate import ScoredRecord, record_aggregates
from voxbench.eval.context import ConversationContext
from voxbench.eval.types import REGISTRY, EvalConfig, run_metric

REPEAT_TEMPERATURE = 0.7


def repeat_judge(judge: Any, r: int, temperature: float = REPEAT_TEMPERATURE) -> Any:
    """The judge for repeat `r` (0-based)."""
    if judge is None:
        return None
    hook = getattr(judge, "for_repeat", None)
    if callable(hook):
        return hook(r)
    if dataclasses.is_dataclass(judge) and not isinstance(judge, type):
        names = {f.name for f in dataclasses.fields(judge)}
        if {"cache_dir", "temperature"} <= names:
            cache = getattr(judge, "cache_dir", None)
            temp = max(float(getattr(judge, "temperature", 0.0) or 0.0), temperature)
            return dataclasses.replace(
                judge,
                cache_dir=Path(cache) / f"repeat_{r}" if cache is not None else None,
                temperature=temp,
            )
    return judge


def repeat_configs(config: EvalConfig, repeats: int) -> list[EvalConfig]:
    """One config per repeat; none when no LLM judge rates (offline methods are deterministic:
    repeating them would only measure a judge variance of 0)."""
    if config.text_judge_mode() != "llm" and config.audio_judge is None:
        return []
    return [
        dataclasses.replace(
            config, judge=repeat_judge(config.judge, r), audio_judge=repeat_judge(config.audio_judge, r)
        )
        for r in range(repeats)
    ]


def judge_metric_names(names: list[str]) -> list[str]:
    return [
        n for n in names if n in REGISTRY and REGISTRY[n].needs_judge and REGISTRY[n].category != "validation"
    ]


def repeat_values(
    ctx: ConversationContext, scored: ScoredRecord, configs: list[EvalConfig], names: list[str]
) -> dict[str, list[float | None]]:
    """Per judge metric and composite, its value under each repeat (None: not computed)."""
    judged = judge_metric_names(names)
    if scored.status != "completed" or not judged or not configs:
        return {}
    out: dict[str, list[float | None]] = {}
    for cfg in configs:
        results = dict(scored.metrics)
        for n in judged:
            results[n] = run_metric(REGISTRY[n], ctx, cfg)
            out.setdefault(n, []).append(results[n].value if results[n].ok else None)
        for comp, v in record_aggregates(results).items():
            out.setdefault(comp, []).append(v)
    return out
