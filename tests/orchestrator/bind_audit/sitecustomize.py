"""Loaded by every Python process of a test run whose PYTHONPATH starts with this folder
(tests/orchestrator/test_boundary_loopback.py): writes each socket bind the process makes,
from Python's own ``socket.bind`` audit event, as a JSON line to ``$VB_BIND_AUDIT_LOG``.

An audit hook sees binds made through any library (asyncio servers, aiohttp, websockets,
http.server) without changing them; the run itself is not touched."""

import json
import os
import socket
import sys

_LOG = os.environ.get("VB_BIND_AUDIT_LOG")


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event != "socket.bind" or not _LOG:
        return
    sock, address = args[0], args[1]
    family = getattr(sock, "family", None)
    if family not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple):
        return  # unix sockets are files, not network endpoints
    line = json.dumps({"pid": os.getpid(), "family": int(family), "host": address[0], "port": address[1]})
    with open(_LOG, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


if _LOG:
    sys.addaudithook(_hook)
