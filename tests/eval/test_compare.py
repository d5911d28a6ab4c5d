"""`voxbench compare`: pairing, deltas, permutation p-values and Holm, on runs with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eval.compare_runs import metric, write_conv, write_run
from voxbench.cli.main import main
from voxbench.eval.compare import compare_runs


def _row(comp, name):  # type: ignore[no-untyped-def]
    return next(r for r in comp.rows if r.metric == name)


def test_every_pair_worse_is_a_regression_with_the_exact_p_value(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {f"s{i}": [1.0, 1.0, 1.0] for i in range(4)})
    b = write_run(tmp_path / "b", {f"s{i}": [0.0, 0.0, 0.0] for i in range(4)})
    comp = compare_runs(a, b)
    assert comp.shared == 12 and comp.shared_scenarios == [f"airline/s{i}" for i in range(4)]
    row = _row(comp, "task_completion")
    assert (row.mean_a, row.mean_b, row.delta, row.n_pairs, row.n_scenarios) == (1.0, 0.0, -1.0, 12, 4)
    assert (row.ci_lower, row.ci_upper) == (-1.0, -1.0)
    # 12 pairs, all -1: only "all signs as observed" and "all flipped" reach |mean| = 1
    assert row.p_value == pytest.approx(2 / 2**12)
    assert row.p_holm == pytest.approx(2 * 2 / 2**12)  # two metrics tested: task_completion, EVA-A_pass
    assert row.verdict == "regression"
    assert [r.verdict for r in comp.rows] == ["regression", "regression"]


def test_the_reverse_is_an_improvement_and_equal_runs_no_change(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {f"s{i}": [0.0, 0.0, 0.0] for i in range(4)})
    b = write_run(tmp_path / "b", {f"s{i}": [1.0, 1.0, 1.0] for i in range(4)})
    same = write_run(tmp_path / "same", {f"s{i}": [0.0, 0.0, 0.0] for i in range(4)})
    assert {r.verdict for r in compare_runs(a, b).rows} == {"improvement"}
    flat = _row(compare_runs(a, same), "task_completion")
    assert (flat.delta, flat.p_value, flat.verdict) == (0.0, 1.0, "no_change")


def test_delta_averages_trials_per_scenario_first(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"s1": [0.0, 0.0, 0.0], "s2": [1.0]})
    b = write_run(tmp_path / "b", {"s1": [1.0, 0.0, 0.0], "s2": [1.0]})
    row = _row(compare_runs(a, b), "task_completion")
    assert row.delta == pytest.approx(round((1 / 3 + 0) / 2, 4))
    assert row.p_value == 1.0  # one non-zero pair: both of its signs are as extreme
    assert row.verdict == "no_change"


def test_a_small_regression_is_not_significant_after_holm(tmp_path: Path) -> None:
    # 5 pairs worse by 1, 1 pair better: a regression in the mean, not a significant one
    a = write_run(tmp_path / "a", {"s1": [1.0, 1.0, 1.0], "s2": [1.0, 1.0, 0.0]})
    b = write_run(tmp_path / "b", {"s1": [0.0, 0.0, 0.0], "s2": [0.0, 0.0, 1.0]})
    row = _row(compare_runs(a, b), "task_completion")
    # diffs: five -1 and one +1, |mean| = 4/6; sign patterns reaching |sum| >= 4: all 6 same
    # sign (2) or exactly one differing (2 * 6) -> 14 of 64
    assert row.p_value == pytest.approx(14 / 64)
    assert row.verdict == "no_change"


def test_scenarios_only_in_one_run_and_differing_data_are_left_out(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"s1": [1.0, 1.0], "s2": [1.0, 1.0]})
    b = write_run(tmp_path / "b", {"s1": [1.0, 1.0], "s3": [0.0]})
    write_conv(b, "s2", 0, {"task_completion": metric(0.0, 0.0)}, data="v2")
    comp = compare_runs(a, b)
    assert comp.data_differs == ["airline/s2"]
    assert comp.shared == 2 and comp.shared_scenarios == ["airline/s1"]
    assert comp.only_a == ["airline/s2/clean/t1"] and comp.only_b == ["airline/s3/clean/t0"]
    assert any("scenario data differs" in n and "airline/s2" in n for n in comp.notes)
    assert not comp.regressions


def test_not_completed_pairs_are_named_and_not_compared(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"s1": [1.0, 1.0]})
    b = write_run(tmp_path / "b", {"s1": [1.0]})
    write_conv(b, "s1", 1, {"task_completion": metric(0.0, 0.0)}, status="invalid")
    comp = compare_runs(a, b)
    assert comp.shared == 1
    assert comp.not_completed == ["airline/s1/clean/t1 (A completed, B invalid)"]


def test_raw_lower_is_better_metric_regresses_when_it_grows(tmp_path: Path) -> None:
    for name, secs in (("a", 1.0), ("b", 3.0)):
        for s in ("s1", "s2", "s3"):
            for t in range(3):
                write_conv(tmp_path / name, s, t, {"response_speed": metric(secs + 0.1 * t)})
    row = _row(compare_runs(tmp_path / "a", tmp_path / "b"), "response_speed")
    assert row.lower_is_better and row.delta == pytest.approx(2.0)
    assert row.verdict == "regression"


def test_unscored_runs_say_so(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", {"s1": [1.0]})
    b = tmp_path / "b"
    write_conv(b, "s1", 0, {}, scored=False)
    comp = compare_runs(a, b)
    assert comp.rows == []
    assert any("B: 1 conversation(s) not scored" in n for n in comp.notes)


def test_cli_fail_on_regression_exit_codes_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_run(tmp_path / "a", {f"s{i}": [1.0, 1.0, 1.0] for i in range(4)})
    b = write_run(tmp_path / "b", {f"s{i}": [0.0, 0.0, 0.0] for i in range(4)})
    out = tmp_path / "cmp.json"
    assert main(["compare", str(a), str(b), "--fail-on-regression", "--json", str(out)]) == 1
    text = capsys.readouterr().out
    assert "REGRESSION  task_completion" in text and "2 regression(s)" in text
    assert json.loads(out.read_text())["rows"][0]["verdict"] == "regression"
    assert main(["compare", str(a), str(b)]) == 0  # reported, not failed
    assert main(["compare", str(b), str(a), "--fail-on-regression"]) == 0


def test_bad_input_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_run(tmp_path / "a", {"s1": [1.0]})
    bad = write_run(tmp_path / "b", {"s1": [1.0]})
    (bad / "records" / "airline__s1__t0__clean" / "metrics.json").write_text("{not json", encoding="utf-8")
    assert main(["compare", str(a), str(bad)]) == 2
    assert "airline__s1__t0__clean/metrics.json: unreadable JSON" in capsys.readouterr().err
    assert main(["compare", str(a), str(tmp_path / "missing")]) == 2


def test_too_few_pairs_for_significance_is_said(tmp_path: Path) -> None:
    # 3 pairs, 2 metrics: the smallest p is 2/8, times 2 for Holm = 0.5
    a = write_run(tmp_path / "a", {"s1": [1.0, 1.0, 1.0]})
    b = write_run(tmp_path / "b", {"s1": [0.0, 0.0, 0.0]})
    comp = compare_runs(a, b)
    assert any("smallest possible Holm p is 0.5 > 0.05" in n for n in comp.notes)
    assert not comp.regressions
    many = compare_runs(
        write_run(tmp_path / "c", {f"s{i}": [1.0, 1.0, 1.0] for i in range(4)}),
        write_run(tmp_path / "d", {f"s{i}": [0.0, 0.0, 0.0] for i in range(4)}),
    )
    assert not any("too few pairs" in n for n in many.notes)


def test_a_metric_equal_in_every_pair_takes_no_share_of_holm(tmp_path: Path) -> None:
    for name, v in (("a", 1.0), ("b", 0.0)):
        for s in ("s1", "s2", "s3", "s4"):
            for t in range(3):
                write_conv(
                    tmp_path / name,
                    s,
                    t,
                    {"task_completion": metric(v, v), "conciseness": metric(0.8, 0.8)},
                    aggregates={"EVA-A_pass": v},
                )
    comp = compare_runs(tmp_path / "a", tmp_path / "b")
    flat = _row(comp, "conciseness")
    assert (flat.n_pairs, flat.n_differing, flat.p_value, flat.p_holm) == (12, 0, 1.0, 1.0)
    # two testable metrics (task_completion, EVA-A_pass), not three
    assert _row(comp, "task_completion").p_holm == pytest.approx(2 * 2 / 2**12)
