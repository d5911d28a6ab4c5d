"""Embedded local models, pipecat-free: weights assembled from installed packages, and
llama.cpp's OpenAI-compatible server started in-process (xllamacpp).

Used by `voxbench eval --judge local` and `voxbench judges calibrate --judge local`; the
live loop (`voxbench.pipelines.services`) can re-use it too. Imports nothing else of the
project, so eval, cli and pipelines may all depend on it.
"""

from voxbench.localmodels.assets import (
    LOCAL_LLMS,
    QWEN_05B,
    QWEN_15B,
    LocalLLMSpec,
    ModelAssetError,
    default_judge_llm,
    llm_gguf,
    llm_installed,
)
from voxbench.localmodels.server import LlamaServer, default_threads
from voxbench.localmodels.token_count import LlamaPromptTokenCounter, PromptTokenCounter

__all__ = [
    "LOCAL_LLMS",
    "QWEN_05B",
    "QWEN_15B",
    "LlamaPromptTokenCounter",
    "LlamaServer",
    "LocalLLMSpec",
    "ModelAssetError",
    "PromptTokenCounter",
    "default_judge_llm",
    "default_threads",
    "llm_gguf",
    "llm_installed",
]
