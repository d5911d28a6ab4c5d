"""URLs as they may be written down: without the credentials a user put in them.

An external agent's URL comes from a config or an environment variable and may carry a
secret (``wss://user:token@host/...`` or ``?token=...``, the way hosted voice agents hand
out session URLs). Logs, records and error messages name the URL through ``redact_url``:
the user's password and query values are replaced, the host, port and path stay so the
message still says where the call went.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

HIDDEN = "***"


def redact_url(url: str, keep: frozenset[str] = frozenset()) -> str:
    """``url`` with its password and every query value not named in ``keep`` replaced."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return HIDDEN  # unparseable: nothing of it is safe to repeat
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if port is not None:
        netloc = f"{netloc}:{port}"
    if parts.username is not None:
        netloc = f"{parts.username}:{HIDDEN}@{netloc}" if parts.password is not None else f"{HIDDEN}@{netloc}"
    query = [(k, v if k in keep else HIDDEN) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe="*:/"), ""))


def scrub(text: str, url: str, keep: frozenset[str] = frozenset()) -> str:
    """``text`` (an exception's message, say) with ``url`` in it redacted."""
    return text.replace(url, redact_url(url, keep)) if url else text
