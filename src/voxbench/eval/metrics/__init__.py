"""Metric families; importing this package registers every metric."""

from voxbench.eval.metrics import (
    accuracy,
    diagnostics,
    judged,
    selectivity,
    stt_wer,
    tau_voice,
    tts_fidelity,
    turn_taking,
    validation,
)

__all__ = [
    "accuracy",
    "diagnostics",
    "judged",
    "selectivity",
    "stt_wer",
    "tau_voice",
    "tts_fidelity",
    "turn_taking",
    "validation",
]
