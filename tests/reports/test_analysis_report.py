"""The report's analysis sections (completion, failure causes, variance) and the cause
filter, from a real toy-domain run scored by eval; the browser part looks at them in
headless Chromium (skips without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.eval.test_analysis import NoisyJudge
from tests.eval.test_metrics import FAITH_REPLY
from tests.eval.toy_records import ToyCall, cancel_call
from tests.reports.test_browser import CHROMIUM, Page, browser, shots  # noqa: F401  (fixtures)
from voxbench.eval.runner import score_run
from voxbench.eval.types import EvalConfig
from voxbench.reports import build_report

METRICS = [
    "task_completion",
    "agent_speech_fidelity",
    "turn_taking",
    "conversation_valid_end",
    "stt_wer",
    "faithfulness",
]


def toy_run(root: Path) -> Path:
    run = root / "toy-run"
    for t in range(3):
        cancel_call(t, heard_order="ORD-4812" if t == 2 else None).write(run / "records" / f"ty1_t{t}")
        c = (
            ToyCall("ty.2", t)
            .agent(0.5, 2.0, "Hi")
            .user(2.5, 4.0, f"New address for ORD-4821, {ToyCall().email}.")
        )
        c.tool(4.6, "find_order", order_id="ORD-4821", email=c.email)
        if t != 1:
            c.tool(5.2 + t, "update_shipping_address", order_id="ORD-4821", address="7 Orchard Road, Bath")
        c.agent(7.5, 8.5, "Updated.").user(9.0, 9.5, "Bye.").write(run / "records" / f"ty2_t{t}")
    infra = ToyCall("ty.2", 9, status="infra_failure", error="tts process died", error_source="tts")
    infra.agent(0.5, 2.0, "Hi").write(run / "records" / "ty2_t9")
    score_run(run, EvalConfig(judge=NoisyJudge({"faithfulness": FAITH_REPLY})), METRICS, judge_repeats=2)
    return run


@pytest.fixture(scope="module")
def toy_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("toyrep")
    out = root / "report"
    build_report([toy_run(root)], out, copy_audio=False)
    return out


def test_sections_and_cause_filter_in_html(toy_report: Path) -> None:
    index = (toy_report / "index.html").read_text()
    for sid in ("id='completion'", "id='causes'", "id='variance'"):
        assert sid in index
    assert "conversations.html#cause=misheard_entity" in index
    assert "tts 1" in index  # infrastructure by stage
    assert "Judge" in index  # judge repeats give a judge column
    convs = (toy_report / "conversations.html").read_text()
    assert "data-filter='cause'" in convs and "data-cause='misheard_entity'" in convs
    md = (toy_report / "summary.md").read_text()
    assert "why conversations failed (5)" in md and "variance split (k = 3" in md
    page = next(p for p in (toy_report / "conv").glob("*ty1_t2*.html"))
    assert "misheard_entity" in page.read_text()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed; browser test skipped")
def test_analysis_sections_in_chromium(browser: Any, toy_report: Path, shots: Path) -> None:  # noqa: F811
    with Page(browser) as pg:
        p = pg.page
        p.goto((toy_report / "index.html").as_uri())
        assert p.locator("#completion tbody tr").count() >= 1
        assert p.locator("#causes tbody tr").count() == 1
        assert p.locator("#variance table tbody tr").count() >= 3
        p.locator("#completion").screenshot(path=str(shots / "completion.png"))
        p.locator("#causes").screenshot(path=str(shots / "causes.png"))
        p.locator("#variance").screenshot(path=str(shots / "variance.png"))
        p.locator("#causes th a[href*='agent_reasoning']").click()
        p.wait_for_function("document.getElementById('count').textContent.length > 0")
        visible = p.locator("tr.conv:visible")
        assert visible.count() >= 1
        for i in range(visible.count()):
            assert visible.nth(i).get_attribute("data-cause") == "agent_reasoning"
        p.screenshot(path=str(shots / "conversations_by_cause.png"), full_page=True)
        assert pg.errors == []


def test_k1_headers_read_right(tmp_path: Path) -> None:
    """One trial per scenario: pass@1 once, no pass@1/pass^1 duplicates, a note on k >= 2."""
    run = tmp_path / "k1"
    cancel_call(0).write(run / "records" / "ty1_t0")
    score_run(run, EvalConfig(), METRICS[:-1])
    rep = build_report([run], tmp_path / "out", copy_audio=False)
    index = (tmp_path / "out" / "index.html").read_text()
    assert (
        "EVA-A pass@1" in index and "pass^1" not in index and "EVA-A pass@1</th><th>EVA-A pass@1" not in index
    )
    assert "need k ≥ 2 trials" in index
    assert "p^1" not in rep.terminal and "p@1" in rep.terminal and "need k >= 2" in rep.markdown
