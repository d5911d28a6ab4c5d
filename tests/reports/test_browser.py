"""The report in a real browser: Debian's chromium driven by Playwright (never its own
download). Skips with a reason when chromium or playwright is missing; CI installs both.

Screenshots go to $VOXBENCH_SCREENSHOTS if set, else a pytest tmp folder (path printed)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium); browser tests skipped"
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    # Modules that import this fixture do not inherit this module's skip mark.
    if CHROMIUM is None:
        pytest.skip("chromium not installed (apt-get install -y chromium); browser tests skipped")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright not installed (pip install playwright)"
    )
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 1000},
        )
        yield ctx
        ctx.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = Path(os.environ.get("VOXBENCH_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {d}")
    return d


class Page:
    """A page that records console errors and failed requests."""

    def __init__(self, ctx: Any) -> None:
        self.page = ctx.new_page()
        self.errors: list[str] = []
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
        )
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"requestfailed: {r.url}"))

    def __enter__(self) -> Page:
        return self

    def __exit__(self, *a: object) -> None:
        self.page.close()


def test_index_from_disk(browser: Any, report_dir: Path, shots: Path) -> None:
    with Page(browser) as pg:
        p = pg.page
        p.goto((report_dir / "index.html").as_uri())
        assert p.locator("#leaderboard table.lb").first.is_visible()
        assert p.locator("#leaderboard tbody tr").count() >= 2
        # two scatter plots with a Pareto frontier, two gap charts, a latency chart
        assert p.locator("#plots svg.plot").count() == 4
        assert p.locator("#plots path.frontier").count() == 2
        assert p.locator("#latency svg.plot circle.dot").count() > 10
        assert p.locator("#perturbations td sup.sig, #perturbations td .v").count() >= 3
        p.screenshot(path=str(shots / "index.png"), full_page=True)
        # domain tab switches the leaderboard
        p.click("#leaderboard .tab[data-tab='itsm']")
        assert p.locator(".pane[data-pane='itsm']").is_visible()
        assert not p.locator(".pane[data-pane='all']").is_visible()
        p.locator("#leaderboard").screenshot(path=str(shots / "leaderboard_itsm.png"))
        assert pg.errors == []


def test_filter_and_open_conversation(browser: Any, report_dir: Path, shots: Path) -> None:
    with Page(browser) as pg:
        p = pg.page
        p.goto((report_dir / "conversations.html").as_uri())
        total = p.locator("tr.conv").count()
        assert total == 27
        p.select_option("select[data-filter='metric']", "task_completion")
        visible = p.locator("tr.conv:visible")
        n_fail = visible.count()
        assert 0 < n_fail < total
        for i in range(n_fail):
            assert "task_completion" in (visible.nth(i).get_attribute("data-metric") or "")
        p.select_option("select[data-filter='system']", "cascade-small")
        p.select_option("select[data-filter='condition']", "noise_snr10")
        assert 0 < p.locator("tr.conv:visible").count() <= n_fail
        assert "of 27" in p.locator("#count").inner_text()
        p.screenshot(path=str(shots / "conversations_filtered.png"), full_page=True)
        # the filter lives in the URL: a reload keeps it
        p.reload()
        assert p.locator("select[data-filter='condition']").input_value() == "noise_snr10"
        p.locator("tr.conv:visible a").first.click()
        p.wait_for_selector("#timeline")
        assert "/conv/" in p.url
        assert pg.errors == []


def test_viewer_plays_audio(browser: Any, report_dir: Path, shots: Path) -> None:
    page = next(iter(sorted((report_dir / "conv").glob("cascade-small__*noise*.html"))))
    with Page(browser) as pg:
        p = pg.page
        p.goto(page.as_uri())
        svg = p.locator("#timeline")
        assert svg.locator("polygon.wave").count() == 2
        assert svg.locator("rect.seg-user").count() >= 3 and svg.locator("rect.seg-agent").count() >= 3
        assert svg.locator("g.tool").count() == 2
        assert p.locator(".turn.user .heard").count() >= 3
        assert p.locator("table.mtable tbody tr").count() >= 10
        p.screenshot(path=str(shots / "viewer.png"), full_page=True)
        x0 = float(p.locator("#cursor").get_attribute("x1") or 0)
        p.evaluate("document.getElementById('player').play()")
        p.wait_for_function("document.getElementById('player').currentTime > 1.0", timeout=15000)
        p.wait_for_timeout(200)
        x1 = float(p.locator("#cursor").get_attribute("x1") or 0)
        assert x1 > x0 + 20, (x0, x1)
        p.evaluate("document.getElementById('player').pause()")
        p.screenshot(path=str(shots / "viewer_playing.png"))
        # clicking a time stamp seeks there
        p.locator(".turn.tool .ts").first.click()
        p.wait_for_timeout(300)
        t = p.evaluate("document.getElementById('player').currentTime")
        assert t >= 3.0
        assert pg.errors == []


def test_view_serves_on_loopback(browser: Any, report_dir: Path) -> None:
    from voxbench.cli.view import serve

    httpd = serve(report_dir, 0)
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    try:
        host, port = httpd.server_address[:2]
        assert host == "127.0.0.1"
        with Page(browser) as pg:
            pg.page.goto(f"http://127.0.0.1:{port}/conversations.html#only=fail")
            assert pg.page.locator("tr.conv:visible").count() < 27
            pg.page.locator("tr.conv:visible a").first.click()
            pg.page.wait_for_selector("#timeline")
            pg.page.evaluate("document.getElementById('player').play()")
            pg.page.wait_for_function("document.getElementById('player').currentTime > 0.5", timeout=15000)
            assert pg.errors == []
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_experiment_section(browser: Any, fixture_runs: list[Path], tmp_path: Path, shots: Path) -> None:
    """The experiment table reads in a real browser: rows worst first, verdict chips visible."""
    import json

    from tests.reports.test_experiment import hand_made
    from voxbench.reports import build_report

    run = tmp_path / "exp"
    shutil.copytree(fixture_runs[0], run)
    (run / "experiment.json").write_text(json.dumps(hand_made()), encoding="utf-8")
    build_report([run], tmp_path / "out", copy_audio=False)
    with Page(browser) as pg:
        p = pg.page
        p.goto((tmp_path / "out" / "index.html").as_uri())
        sec = p.locator("#experiment")
        assert sec.locator("h2").inner_text() == "Perturbation experiment"
        rows = sec.locator("table.experiment tbody tr")
        assert rows.count() == 6
        assert rows.first.get_attribute("data-metric") == "response_speed"
        assert "significant · worse" in rows.nth(1).locator("td.mark").inner_text()
        assert sec.locator(".chip.fail").first.is_visible()
        sec.screenshot(path=str(shots / "experiment.png"))
        assert pg.errors == []
