"""The report without a browser: numbers, files, summaries, CLI, unscored runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from voxbench.cli.main import main
from voxbench.reports import build_report, load_run
from voxbench.reports.stats import paired_delta, pareto_front, pass_stats
from voxbench.reports.timeline import build_timeline, channel_audio, load_events, peaks


def test_pass_stats_by_scenario() -> None:
    # scenario a: 3/3, b: 1/3, c: 0/3 (one trial not computable)
    st = pass_stats({"a": [1.0, 1.0, 1.0], "b": [1.0, 0.0, 0.0], "c": [0.0, 0.0, None]}, seed=1)
    assert st.k == 3
    assert st.pass1.value == pytest.approx((1 + 1 / 3 + 0) / 3)
    # c has only 2 valid trials < k: dropped from pass@k / pass^k
    assert st.pass_k.n == 2 and st.pass_k.value == pytest.approx(1.0)
    assert st.pass_pow_k.value == pytest.approx(0.5)
    assert st.missing == 1
    assert st.pass1.ci is not None and st.pass1.value is not None
    assert st.pass1.ci[0] <= st.pass1.value <= st.pass1.ci[1]


def test_pareto_and_delta() -> None:
    assert sorted(pareto_front([("a", 0.9, 0.2), ("b", 0.5, 0.5), ("c", 0.4, 0.4), ("d", 0.2, 0.9)])) == [
        "a",
        "b",
        "d",
    ]
    d = paired_delta(
        {"s1": 1.0, "s2": 1.0, "s3": 1.0, "s4": 1.0}, {"s1": 0.0, "s2": 0.0, "s3": 0.0, "s4": 0.0}, 3
    )
    assert d.value == -1.0 and d.significant
    assert not paired_delta({"s1": 1.0, "s2": 0.0}, {"s1": 0.0, "s2": 1.0}, 3).significant


def test_load_run_reads_eval_output(fixture_runs: list[Path]) -> None:
    run = load_run(fixture_runs[0])
    assert run.name == "cascade-small" and len(run.conversations) == 18
    assert run.failed_attempts == {"infra_failure": 1}
    assert run.summary is not None and "overall_scores" in run.summary
    c = run.conversations[0]
    assert c.scored and c.system == "cascade-small"
    assert set(c.aggregates) >= {"EVA-A_pass", "EVA-X_pass"}
    assert c.turn_latencies and all(s > 0 for s, _ in c.turn_latencies)


def test_timeline_from_events_and_audio(fixture_runs: list[Path]) -> None:
    d = next((fixture_runs[0] / "records").glob("airline_1.1.1_t0_clean"))
    tl = build_timeline(load_events(d))
    assert len(tl.segments["agent"]) == 4 and len(tl.segments["user"]) == 3
    assert [t.name for t in tl.tools] == ["get_reservation", "rebook_flight"]
    assert all(s.intended and s.heard for s in tl.segments["user"])
    audio = channel_audio(d, type("A", (), {"user": "user.wav", "agent": "agent.wav", "mix": "mix.wav"})())
    a, sr = audio["agent"]
    pk = peaks(a, sr, tl.duration, 200)
    # the agent is loud inside its first speech segment and silent well before the caller's reply ends
    seg = tl.segments["agent"][0]
    i = int((seg.start + seg.end) / 2 / tl.duration * 200)
    assert pk[i] > 0.1
    u = tl.segments["user"][0]
    assert pk[int((u.start + u.end) / 2 / tl.duration * 200)] < 0.05


def test_report_files_and_summaries(fixture_runs: list[Path], report_dir: Path) -> None:
    assert (report_dir / "index.html").is_file() and (report_dir / "conversations.html").is_file()
    pages = list((report_dir / "conv").glob("*.html"))
    assert len(pages) == 27
    assert len(list((report_dir / "media").rglob("mix.wav"))) == 27
    html = (report_dir / "index.html").read_text()
    assert "http://" not in html and "https://" not in html  # nothing fetched from the network
    md = (report_dir / "summary.md").read_text()
    assert "| s2s-large |" in md and "noise_snr10" in md


def test_cli_report_and_markdown(
    fixture_runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rep"
    assert main(["report", *map(str, fixture_runs), "--out", str(out), "--markdown", "--link-audio"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("## voxbench report") and "voxbench view" in text
    assert next((out / "media").rglob("mix.wav")).is_symlink()


def test_unscored_run_still_renders(fixture_runs: list[Path], tmp_path: Path) -> None:
    run = tmp_path / "unscored"
    shutil.copytree(fixture_runs[1], run)
    for p in run.rglob("metrics*.json"):
        p.unlink()
    rep = build_report([run], tmp_path / "out")
    assert not any(c.scored for c in rep.conversations)
    page = next((tmp_path / "out" / "conv").glob("*.html")).read_text()
    assert "Not scored yet" in page
    assert "No metric scores yet" in (tmp_path / "out" / "index.html").read_text()
    # latency comes from the events when eval has not run; k still reads as the trial count
    assert "s2s-large" in rep.terminal and "p@3" in rep.terminal and "p@0" not in rep.terminal


def test_unknown_schema_version_fails_loudly(fixture_runs: list[Path], tmp_path: Path) -> None:
    run = tmp_path / "future"
    shutil.copytree(fixture_runs[1], run)
    rec = next(run.rglob("record.json"))
    raw = json.loads(rec.read_text())
    raw["schema_version"] = "9.9"
    rec.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="schema_version"):
        load_run(run)


def test_thresholds_come_from_eval_registry_in_a_fresh_process() -> None:
    """The CLI never imports eval's metrics by itself: the report must register them."""
    import subprocess
    import sys

    code = (
        "from voxbench.reports.model import MetricView\n"
        "m = MetricView('task_completion', score=0.5, normalized=0.5)\n"
        "assert m.threshold == 1.0 and m.passed is False, m.threshold\n"
        "assert MetricView('response_speed', score=1.2).threshold is None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
