"""`voxbench view DIR`: serve a report folder on 127.0.0.1 (ephemeral port unless given).

The viewer serves the report's files and nothing else: a request whose file, once symlinks
are resolved, lies outside DIR is answered 404 (a report written with ``--link-audio`` links
its audio into the run folders, so play those by opening index.html as a file instead), and no
directory is listed (a folder's index.html or 404). The standard handler already drops ``..``
and decodes ``%2e%2e``/``%2f`` before it maps a URL to a path; the check here covers what it
does not: symlinks and listings.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import io
import os
import threading
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit


def add_parser(sub: Any) -> None:
    p = sub.add_parser("view", help="serve a report folder on 127.0.0.1")
    p.add_argument("dir", help="report folder written by `voxbench report`")
    p.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    p.add_argument("--open", action="store_true", help="open it in the default browser")
    p.set_defaults(func=run_view)


class ReportHandler(http.server.SimpleHTTPRequestHandler):
    """Files under ``directory`` only (symlinks resolved), no listings, no access log."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _inside(self, path: str) -> bool:
        root = os.path.realpath(self.directory)
        real = os.path.realpath(path)
        return os.path.commonpath([root, real]) == root and os.path.isfile(real)

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to "DIR/"
            path = os.path.join(path, "index.html")
        if not self._inside(path):
            self.send_error(404, "File not found")
            return None
        return super().send_head()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "File not found")
        return None


def serve(directory: str | Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server on 127.0.0.1 for `directory` (not started; call serve_forever)."""
    d = Path(directory)
    if not (d / "index.html").is_file():
        raise FileNotFoundError(f"{d} has no index.html; write one with `voxbench report RUN_DIR --out {d}`")
    handler = functools.partial(ReportHandler, directory=str(d))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def _linked_outside(d: Path) -> int:
    root = d.resolve()
    return sum(1 for p in d.rglob("*") if p.is_symlink() and not p.resolve().is_relative_to(root))


def run_view(args: argparse.Namespace) -> int:
    httpd = serve(args.dir, args.port)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    print(f"serving {args.dir} at {url} (Ctrl-C to stop)", flush=True)
    if n := _linked_outside(Path(args.dir)):
        print(
            f"note: {n} file(s) in {args.dir} link outside it (written with --link-audio) and are not"
            " served; open index.html as a file to play them, or rebuild the report without --link-audio",
            flush=True,
        )
    if args.open:
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        httpd.serve_forever()
    finally:
        httpd.server_close()
    return 0
