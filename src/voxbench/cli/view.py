"""`voxbench view DIR`: serve a report folder on 127.0.0.1 (ephemeral port unless given)."""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("view", help="serve a report folder on 127.0.0.1")
    p.add_argument("dir", help="report folder written by `voxbench report`")
    p.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    p.add_argument("--open", action="store_true", help="open it in the default browser")
    p.set_defaults(func=run_view)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(directory: str | Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server on 127.0.0.1 for `directory` (not started; call serve_forever)."""
    d = Path(directory)
    if not (d / "index.html").is_file():
        raise FileNotFoundError(f"{d} has no index.html; write one with `voxbench report RUN_DIR --out {d}`")
    handler = functools.partial(_QuietHandler, directory=str(d))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def run_view(args: argparse.Namespace) -> int:
    httpd = serve(args.dir, args.port)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    print(f"serving {args.dir} at {url} (Ctrl-C to stop)", flush=True)
    if args.open:
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        httpd.serve_forever()
    finally:
        httpd.server_close()
    return 0
