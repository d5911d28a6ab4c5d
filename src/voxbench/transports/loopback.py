"""Which hosts voxbench's servers may listen on: loopback, unless a config says otherwise by name.

Every server a run starts (the agent's end of the call's WebSocket, the external agent's tool
bridge, the talk page, the report viewer, the embedded llama.cpp server) serves one machine's
benchmark and has no authentication, so it listens on 127.0.0.1 (or ::1). A host from a
config is checked here once, when the config is read, so a typo such as ``0.0.0.0`` fails
with the field's name before anything listens. The one server with a reason to be reached
from elsewhere (the tool bridge, for an agent in a container or on another machine) takes an
explicit ``tool_bridge_allow_remote: true``.
"""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = frozenset({"localhost"})


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 (with or without brackets) and ``localhost``."""
    h = host.strip().strip("[]")
    if h.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve to anything


def require_loopback(host: str, field: str, allow_with: str | None = None) -> str:
    """``host`` unchanged if it is a loopback address, else a ValueError naming ``field``."""
    if is_loopback(host):
        return host
    how = f"; set {allow_with}: true to listen on it anyway" if allow_with else ""
    raise ValueError(
        f"{field} {host!r} is not a loopback address: voxbench's servers listen on 127.0.0.1 or ::1"
        f" only (they have no authentication){how}"
    )
