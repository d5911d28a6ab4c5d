"""The orchestrator's two uses of ``voxbench.eval``: the validation gate and run scoring.

Imported lazily: a machine without eval (or an older one) still runs benchmarks with
the built-in gate, and the records can be scored later with ``voxbench eval``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from voxbench.orchestrator.config import JudgesConfig


def eval_config(judges: JudgesConfig, cache_dir: Path | None = None) -> Any:
    """EvalConfig with OpenAI-compatible judges when ``judges`` names them.

    ``judges: {base_url: ..., model: ..., audio_model: ..., mode: auto|offline|llm|none}``.
    With no endpoint (mode ``auto``) the judge metrics, and the gate's
    user_behavioral_fidelity, are rated by eval's offline methods; ``mode: none`` leaves
    them "unscored" (never 0) and the gate falls back to its code checks.
    """
    from voxbench.eval.types import EvalConfig

    config = EvalConfig(params={k: dict(v) for k, v in judges.params.items()}, judge_mode=judges.mode)
    if judges.base_url and judges.model:
        from voxbench.eval.judges.openai_http import OpenAIJudge

        config.judge = OpenAIJudge(base_url=judges.base_url, model=judges.model, cache_dir=cache_dir)
        if judges.audio_model:
            config.audio_judge = OpenAIJudge(
                base_url=judges.base_url, model=judges.audio_model, cache_dir=cache_dir
            )
    return config


class EvalGate:
    """``voxbench.eval``'s validation metrics + gate (EVA §5.5) on one record folder."""

    name = "eval"

    def __init__(self, judges: JudgesConfig, cache_dir: Path | None = None):
        from voxbench.eval.types import REGISTRY

        self.config = eval_config(judges, cache_dir)
        self.metrics = [n for n, s in REGISTRY.items() if s.category == "validation"]

    def __call__(self, record_dir: Path) -> Any:
        from voxbench.eval.from_record import load_context
        from voxbench.eval.runner import score_context
        from voxbench.orchestrator.validate import ValidationResult

        scored = score_context(load_context(record_dir), self.config, self.metrics)
        gate = scored.validation
        if gate.get("valid"):
            return ValidationResult(True, details=gate)
        failed = gate.get("failed_metrics") or []
        reason = str(gate.get("status")) + (f": {', '.join(failed)}" if failed else "")
        return ValidationResult(False, reason, details=gate)


def score_run_dir(run_dir: Path, judges: JudgesConfig, progress: Any = None) -> dict[str, Any]:
    """Score every final record; eval writes metrics.json per record and metrics_summary.json.

    ``judges: {local: true | "qwen-0.5b" | "qwen-1.5b"}`` starts the embedded llama.cpp model
    for the scoring pass only (grammar-constrained JSON, low-confidence; recorded in the
    summary's provenance). The per-record validation gate does not use it: a local judge
    there would slow every conversation and gate on a weak signal. ``progress``: a
    :class:`~voxbench.orchestrator.progress.ScoringProgress` (or None: silent).
    """
    from voxbench.eval.runner import score_run

    hooks = (
        {"on_found": progress.found, "on_scored": progress.scored}
        if progress is not None
        else {"on_found": None, "on_scored": None}
    )

    local = judges.local
    if not local:
        _, summary = score_run(run_dir, eval_config(judges, run_dir / ".judge_cache"), **hooks)
        return dict(summary)
    from voxbench.eval.judges.openai_http import OpenAIJudge
    from voxbench.localmodels import LlamaServer, default_judge_llm

    config = eval_config(JudgesConfig(params=judges.params))  # mode auto
    with LlamaServer(default_judge_llm(local if isinstance(local, str) else None)) as srv:
        config.judge = OpenAIJudge(
            base_url=srv.base_url,
            model=srv.model,
            cache_dir=run_dir / ".judge_cache",
            json_schema=True,
            max_tokens=2048,
            timeout_s=1800.0,
            max_retries=1,
            provenance=srv.provenance() | {"confidence": "low"},
        )
        _, summary = score_run(run_dir, config, **hooks)
    return dict(summary)
