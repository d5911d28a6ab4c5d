"""A local LLM's warmed prompt prefix, kept on disk between processes.

Every live call of a run starts its own llama.cpp server (one worker process per attempt) and
warms it on the same policy and tool schemas before the call clock starts. On 2 cores that
prefill runs at ~22 tokens/s on one thread: ~40 s for the built-in airline agent, ~125 s for
EVA's airline prompt, paid again by every call. llama.cpp can save a slot's KV state (the
prompt tokens and their keys and values) to a file and restore it into another server of the
same model; a restored slot is then reused exactly as far as the next prompt matches its tokens,
the same prefix reuse llama.cpp already does within one server. So a mismatched or stale file
costs a recomputation, never a different prompt.

Files are named by a hash of the model, the runtime and the warmed payload (system prompt and
tool schemas), written atomically (temporary name, then rename), and pruned to the most
recently used few.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from voxbench.localmodels.assets import cache_root
from voxbench.localmodels.loopback import post_json

logger = logging.getLogger(__name__)

DISABLE_ENV = "VOXBENCH_PROMPT_CACHE"
"""Set to ``0`` to neither read nor write saved prompts."""


def default_prompt_cache_dir() -> Path | None:
    """``<cache root>/llm-prompts``, or None when ``VOXBENCH_PROMPT_CACHE=0``."""
    if os.environ.get(DISABLE_ENV, "1").strip() in ("0", "off", "false", "no"):
        return None
    return cache_root() / "llm-prompts"


@dataclass
class PromptCache:
    """Save and restore slot 0 of a running llama.cpp server (started with ``slot_save_path``
    = ``directory`` and the slots endpoint on; one slot, so slot 0 served the warm-up)."""

    root_url: str  # the server's address, without /v1
    directory: Path
    model_id: str  # model file hash and runtime version: a file only fits its own model
    max_files: int = 8
    timeout_s: float = 60.0

    def name_for(self, payload: str) -> str:
        digest = hashlib.sha256(f"{self.model_id}\n{payload}".encode()).hexdigest()[:24]
        return f"{digest}.kv"

    def restore(self, name: str) -> bool:
        """Load a saved prefix into slot 0; False when there is none or it fails."""
        path = self.directory / name
        if not path.is_file():
            return False
        try:
            self._slot_action("restore", name)
        except OSError as exc:
            logger.warning("saved prompt %s not restored: %s", name, exc)
            return False
        os.utime(path)  # most recently used: pruned last
        return True

    def save(self, name: str) -> None:
        """Save slot 0 under ``name`` (atomically: the server writes a temporary file)."""
        tmp = f"{name}.{os.getpid()}.tmp"
        try:
            self._slot_action("save", tmp)
            os.replace(self.directory / tmp, self.directory / name)
        except OSError as exc:
            logger.warning("prompt not saved: %s", exc)
            (self.directory / tmp).unlink(missing_ok=True)
            return
        self._prune()

    def _slot_action(self, action: str, filename: str) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        post_json(
            f"{self.root_url.rstrip('/')}/slots/0?action={action}", {"filename": filename}, self.timeout_s
        )

    def _prune(self) -> None:
        files = sorted(self.directory.glob("*.kv"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[self.max_files :]:
            old.unlink(missing_ok=True)
