"""`voxbench view` serves the report folder and nothing else: no path outside it (``..``, its
encodings, absolute paths), no symlink leading out of it, no directory listing.

Requests go over a real socket as raw request lines (http.client sends the path as given,
so nothing normalizes it on the way); a file outside the folder holds a marker that must
never come back in a response body."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from voxbench.cli.view import serve

MARKER = b"outside-the-report-folder-7f3a"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """A report folder beside a private file, with links into and out of it; served on a free port."""
    tmp_path = tmp_path_factory.mktemp("view")
    root = tmp_path / "report"
    (root / "conversations").mkdir(parents=True)
    (root / "media" / "c1").mkdir(parents=True)
    (root / "index.html").write_text("<html>report index</html>")
    (root / "conversations" / "index.html").write_text("<html>conversations</html>")
    (root / "media" / "c1" / "mix.wav").write_bytes(b"RIFF....WAVE")
    (root / "media" / "c2").mkdir()  # a folder without index.html
    (root / "media" / "c2" / "agent.wav").write_bytes(b"RIFF....WAVE")
    private = tmp_path / "private"
    private.mkdir()
    (private / "secret.txt").write_bytes(MARKER)
    (private / "index.html").write_bytes(MARKER)
    (root / "link.txt").symlink_to(private / "secret.txt")
    (root / "linkdir").symlink_to(private)
    (root / "media" / "c1" / "escape.wav").symlink_to(private / "secret.txt")
    (root / "alias.html").symlink_to(root / "index.html")  # a link that stays inside
    httpd = serve(root, 0)
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    try:
        yield int(httpd.server_address[1]), tmp_path
    finally:
        httpd.shutdown()
        httpd.server_close()


def fetch(port: int, path: str, method: str = "GET") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"127.0.0.1:{port}")
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "path",
    ["/", "/index.html", "/conversations/", "/conversations/index.html", "/media/c1/mix.wav", "/alias.html"],
)
def test_the_reports_own_files_are_served(site: tuple[int, Path], path: str) -> None:
    status, body = fetch(site[0], path)
    assert status == 200 and body and MARKER not in body


TRAVERSALS = [
    "/../private/secret.txt",
    "/../../private/secret.txt",
    "/conversations/../../private/secret.txt",
    "/%2e%2e/private/secret.txt",
    "/%2E%2E/private/secret.txt",
    "/..%2fprivate%2fsecret.txt",
    "/%2e%2e%2fprivate%2fsecret.txt",
    "/.%2e/private/secret.txt",
    "/%252e%252e/private/secret.txt",
    "/..\\private\\secret.txt",
    "http://127.0.0.1/../private/secret.txt",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_no_path_leads_out_of_the_folder(site: tuple[int, Path], path: str) -> None:
    status, body = fetch(site[0], path)
    assert status == 404 and MARKER not in body, (path, status, body[:200])


def test_an_absolute_path_stays_inside_the_folder(site: tuple[int, Path]) -> None:
    port, tmp = site
    for path in (f"{tmp}/private/secret.txt", f"/{tmp}/private/secret.txt", "//etc/passwd", "/etc/passwd"):
        status, body = fetch(port, path)
        assert status == 404 and MARKER not in body and b"root:" not in body, (path, status)


@pytest.mark.parametrize(
    "path", ["/link.txt", "/linkdir/secret.txt", "/linkdir/", "/linkdir", "/media/c1/escape.wav"]
)
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_symlink_out_of_the_folder_is_not_followed(site: tuple[int, Path], path: str, method: str) -> None:
    status, body = fetch(site[0], path, method)
    assert status in (301, 404) and MARKER not in body, (path, status)
    if status == 301:  # "/linkdir" -> "/linkdir/", which is refused in turn
        assert fetch(site[0], path + "/", method)[0] == 404


@pytest.mark.parametrize("path", ["/media/", "/media/c2/", "/media/c1/"])
def test_no_directory_is_listed(site: tuple[int, Path], path: str) -> None:
    status, body = fetch(site[0], path)
    assert status == 404, (path, status)
    assert b"agent.wav" not in body and b"mix.wav" not in body and b"Directory listing" not in body


def test_the_viewer_counts_the_links_it_will_not_serve(site: tuple[int, Path]) -> None:
    """A report written with --link-audio: `voxbench view` says how many links it refuses."""
    from voxbench.cli.view import _linked_outside

    assert _linked_outside(site[1] / "report") == 3  # link.txt, linkdir, escape.wav; not alias.html
