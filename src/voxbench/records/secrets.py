"""Secrets read from the environment, and keeping them out of what is written down.

voxbench reads a key at the moment of use, by the variable's name (``api_key_env``,
``headers_env``). Every such read goes through :func:`read_secret`, which remembers the
value; :func:`mask` replaces every remembered value in a text by ``***``. The writers of
this package (JSON files, events) mask what they write, and the first read installs the same
masking on loguru's messages when loguru is loaded (the live half's log: a provider's error
that quotes the key it refused becomes a log line, an event and a record's ``error``).

Values shorter than ``MIN_LEN`` are not remembered: they are the placeholders a local
server accepts (``ollama``, ``sk-local``, ``EMPTY``), and masking them would garble model
names and URLs; providers' keys are longer (OpenAI, Deepgram, Cartesia, ElevenLabs, Google,
Anthropic: 32 characters and more).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

HIDDEN = "***"
MIN_LEN = 16

_lock = threading.Lock()
_values: set[str] = set()
_log_masked = False


def read_secret(name: str) -> str | None:
    """The value of environment variable ``name`` (None if unset or empty), remembered."""
    value = os.environ.get(name) or None
    if value is not None:
        remember(value)
    return value


def remember(value: str) -> None:
    """Mask ``value`` from now on (a secret that did not come from :func:`read_secret`)."""
    if len(value) < MIN_LEN:
        return
    with _lock:
        _values.add(value)
    _mask_loguru()


def mask(text: str) -> str:
    """``text`` with every remembered secret replaced by ``***`` (longest first)."""
    if not _values or not text:
        return text
    for v in sorted(_values, key=len, reverse=True):
        if v in text:
            text = text.replace(v, HIDDEN)
    return text


def _patch(record: dict[str, Any]) -> None:
    record["message"] = mask(record["message"])


def _mask_loguru() -> None:
    """Once per process: loguru's messages masked, if this process logs with loguru."""
    global _log_masked
    mod = sys.modules.get("loguru")
    if _log_masked or mod is None:
        return
    _log_masked = True
    mod.logger.configure(patcher=_patch)
