"""One POST to a local llama.cpp server's own endpoints (slots, template, tokenize), over
loopback: the prompt cache and the token counter share it."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping
from typing import Any


def post_json(url: str, body: Mapping[str, Any], timeout_s: float) -> bytes:
    """POST ``body`` as JSON to one of a local llama.cpp server's own endpoints (loopback only);
    the raw reply. Raises ``OSError`` (``urllib.error.URLError``) when it cannot."""
    req = urllib.request.Request(
        url,
        data=json.dumps(body, default=str).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=timeout_s) as resp:  # loopback only
        return bytes(resp.read())
