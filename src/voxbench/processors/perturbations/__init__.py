"""Caller-side audio perturbations: pure numpy ops, bounded configs, conditions, streaming.

The DSP (:mod:`.ops`: levels, noise mixing, gain, muffling; :mod:`.telephony`;
:mod:`.packet_loss`; :mod:`.noise`) is independent of pipecat and of TTS. The pipecat wrapper
:class:`PerturbationProcessor` lives in :mod:`.processor` and is imported lazily, so the DSP and
configs stay importable without pipecat; caller behaviour is :mod:`.behavior` (config, text) and
:mod:`.live` (send-time audio: acts, pauses, then the chain); TTS helpers (accent voices, Piper
babble) live in :mod:`.voices`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .behavior import (
    BackchannelConfig,
    BargeInPoint,
    CallerBehavior,
    DisfluencyConfig,
    PauseConfig,
    SideSpeechConfig,
    VocalTicConfig,
    behave_lines,
    persona_instruction,
)
from .config import (
    BUILTIN_CONDITIONS,
    CANONICAL_ORDER,
    Condition,
    GainClipOp,
    MuffleOp,
    NoiseOp,
    Op,
    PacketLossOp,
    TelephonyOp,
    condition_from_spec,
    derive_seed,
    resolve_condition,
)

if TYPE_CHECKING:
    from .noise import babble_from_speech, clatter, load_noise_file, pink_noise, speech_like, white_noise
    from .ops import MixResult, gain_and_clip, mix_noise_at_snr, muffle, speech_activity_mask
    from .packet_loss import PacketLossResult, gilbert_elliott_mask, packet_loss
    from .processor import PerturbationProcessor
    from .streaming import StreamingChain, apply_condition
    from .telephony import mulaw_decode, mulaw_encode, telephony

__all__ = [
    "BUILTIN_CONDITIONS",
    "CANONICAL_ORDER",
    "BackchannelConfig",
    "BargeInPoint",
    "CallerBehavior",
    "Condition",
    "DisfluencyConfig",
    "GainClipOp",
    "MixResult",
    "MuffleOp",
    "NoiseOp",
    "Op",
    "PacketLossOp",
    "PacketLossResult",
    "PauseConfig",
    "PerturbationProcessor",
    "SideSpeechConfig",
    "StreamingChain",
    "TelephonyOp",
    "VocalTicConfig",
    "apply_condition",
    "babble_from_speech",
    "behave_lines",
    "clatter",
    "condition_from_spec",
    "derive_seed",
    "gain_and_clip",
    "gilbert_elliott_mask",
    "load_noise_file",
    "mix_noise_at_snr",
    "muffle",
    "mulaw_decode",
    "mulaw_encode",
    "packet_loss",
    "persona_instruction",
    "pink_noise",
    "resolve_condition",
    "speech_activity_mask",
    "speech_like",
    "telephony",
    "white_noise",
]


# The DSP (scipy, seconds to import) loads on first use: configs and conditions are read by
# the orchestrator's run config, which must stay cheap to import in every worker process.
_LAZY = {
    **dict.fromkeys(
        ("babble_from_speech", "clatter", "load_noise_file", "pink_noise", "speech_like", "white_noise"),
        "noise",
    ),
    **dict.fromkeys(
        ("MixResult", "gain_and_clip", "mix_noise_at_snr", "muffle", "speech_activity_mask"), "ops"
    ),
    **dict.fromkeys(("PacketLossResult", "gilbert_elliott_mask", "packet_loss"), "packet_loss"),
    **dict.fromkeys(("mulaw_decode", "mulaw_encode", "telephony"), "telephony"),
    "StreamingChain": "streaming",
    "apply_condition": "streaming",
    "PerturbationProcessor": "processor",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(name)
