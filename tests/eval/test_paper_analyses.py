"""The paper's six analyses on synthetic rows whose answers are worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from tests.eval.paper_rows import row, trials
from voxbench.eval.aggregate import bootstrap_ci, bootstrap_seed
from voxbench.eval.paper_analyses import paper_analyses
from voxbench.eval.paper_analyses.facets import facets
from voxbench.eval.paper_analyses.faithfulness import faithfulness_vs_completion
from voxbench.eval.paper_analyses.key_entities import KE, key_entities
from voxbench.eval.paper_analyses.passk_gap import passk_gap
from voxbench.eval.paper_analyses.thresholds import GRID, threshold_sweep
from voxbench.eval.paper_analyses.trial_count import trial_count

T, F = True, False


def test_passk_gap_by_hand() -> None:
    # A: pass@1 (1 + .5 + 0 + .5 + 1) / 5 = 0.6; pass@2: 4/5; pass^2: 2/5; gap per scenario 0,1,0,1,0
    a = trials("A", [[T, T], [T, F], [F, F], [T, F], [T, T]])
    # B: every scenario the same on both trials: pass@1 = pass^2 = 3/5, gap 0
    b = trials("B", [[T, T], [T, T], [F, F], [T, T], [F, F]])
    out = passk_gap(a + b)
    ga, gb = out["per_system"]["A"]["EVA-A_pass"], out["per_system"]["B"]["EVA-A_pass"]
    assert (ga["pass_at_1"], ga["pass_at_k"], ga["pass_power_k"], ga["gap"]) == (0.6, 0.8, 0.4, 0.4)
    assert (gb["pass_at_1"], gb["pass_power_k"], gb["gap"]) == (0.6, 0.6, 0.0)
    assert gb["gap_ci"] == [0.0, 0.0]
    lo, hi = ga["gap_ci"]
    assert 0.0 <= lo <= 0.4 <= hi <= 1.0
    assert out["median_gap"]["EVA-A_pass"] == pytest.approx(0.2)
    # EVA-X passes everywhere for both: gap 0; at pass@1 A and B tie (0.6, 1.0): both on the frontier
    assert out["median_gap"]["EVA-X_pass"] == 0.0
    assert out["frontier"]["pass_at_1"] == ["A", "B"]
    assert out["frontier"]["pass_power_k"] == ["B"]


def test_passk_gap_says_when_k_is_one() -> None:
    rows = trials("A", [[T]] * 12)
    assert "k >= 2" in passk_gap(rows)["note"]
    assert "k >= 2" in trial_count(rows)["note"]


def test_too_few_conversations_say_so() -> None:
    rows = trials("A", [[T, F]] * 4)  # 8 conversations
    for block in paper_analyses(rows).values():
        if isinstance(block, dict):
            assert "at least 10" in block["note"]


def test_trial_count_by_hand() -> None:
    # full K=2: (0.5 * 4 + 0) / 5 = 0.4; k=1 slot 0: 3/5 = 0.6, slot 1: 1/5 = 0.2 -> none within 0.02
    rows = trials("A", [[T, F], [T, F], [T, F], [F, T], [F, F]])
    out = trial_count(rows)["per_system"]["A"]["EVA-A_pass"]
    assert out["K"] == 2 and out["n_scenarios"] == 5
    k1, k2 = out["curve"]
    assert (k1["k"], k1["subsamples"], k1["share_within_tol"]) == (1, 2, 0.0)
    assert (k2["k"], k2["subsamples"], k2["share_within_tol"]) == (2, 1, 1.0)
    seed = bootstrap_seed("A/EVA-A_pass")
    per = [[1.0, 0.0]] * 3 + [[0.0, 1.0], [0.0, 0.0]]
    lo, hi, _ = bootstrap_ci({f"s{i}": v for i, v in enumerate(per)}, seed)
    assert lo is not None and hi is not None
    assert k2["median_ci_width"] == pytest.approx(round(hi - lo, 4))


def test_trial_count_stable_when_trials_agree() -> None:
    # every scenario's trials identical: any subsample is the full estimate, at the same width
    rows = trials("A", [[T, T, T], [F, F, F], [T, T, T], [T, T, T]])
    curve = trial_count(rows)["per_system"]["A"]["EVA-A_pass"]["curve"]
    assert [c["subsamples"] for c in curve] == [3, 3, 1]
    assert all(c["share_within_tol"] == 1.0 for c in curve)
    assert len({c["median_ci_width"] for c in curve}) == 1


def test_threshold_sweep_turn_taking() -> None:
    tt = [round(0.5 + 0.05 * i, 2) for i in range(10)]
    rows = [row("A", f"s{i}", turn_taking=v) for i, v in enumerate(tt)]
    rows += [row("B", f"s{i}", turn_taking=0.9, conciseness=0.2 if i < 5 else 1.0) for i in range(10)]
    out = threshold_sweep(rows)
    assert out["moves"] == "EVA-X_pass" and out["chosen"] == 0.8 and out["grid"] == list(GRID)
    # A: share of values >= threshold = (10 - i) / 10 at the i-th grid point
    assert out["per_system"]["A"]["pass_at_1"] == pytest.approx([(10 - i) / 10 for i in range(10)])
    # B: half fail conciseness whatever the threshold; the rest pass up to 0.90
    assert out["per_system"]["B"]["pass_at_1"] == pytest.approx([0.5] * 9 + [0.0])
    # at the chosen threshold the sweep reproduces eval's stored composite
    at = GRID.index(0.8)
    for s in ("A", "B"):
        stored = np.mean([r.aggregates["EVA-X_pass"] for r in rows if r.system == s])
        assert out["per_system"][s]["pass_at_1"][at] == pytest.approx(stored)


def test_threshold_sweep_components_skipped_and_missing() -> None:
    rows = [row("A", f"s{i}", turn_taking=0.7) for i in range(8)]
    rows.append(row("A", "s8", turn_taking="skipped"))  # ignored: passes on the other two
    rows.append(row("A", "s9", conciseness="missing"))  # unknown: left out
    out = threshold_sweep(rows)["per_system"]["A"]
    assert out["n_scenarios"] == 9
    assert out["pass_at_1"][GRID.index(0.7)] == pytest.approx(1.0)
    assert out["pass_at_1"][GRID.index(0.75)] == pytest.approx(1 / 9, abs=1e-4)


def test_threshold_sweep_other_metrics() -> None:
    rows = [row("A", f"s{i}", faithfulness=v) for i, v in enumerate([0.5, 0.75, 1.0] * 4)]
    out = threshold_sweep(rows, "faithfulness")
    assert out["moves"] == "EVA-A_pass" and out["chosen"] == 0.5
    assert out["per_system"]["A"]["pass_at_1"][0] == pytest.approx(1.0)  # 0.50
    assert out["per_system"]["A"]["pass_at_1"][GRID.index(0.8)] == pytest.approx(1 / 3, abs=1e-4)
    vals = [(0.6, 0.1), (0.9, 0.7)] * 5
    rows = [row("A", f"s{i}", tool_call_validity=v, stt_wer=w) for i, (v, w) in enumerate(vals)]
    tcv = threshold_sweep(rows, "tool_call_validity")
    assert tcv["moves"] == "tool_call_validity"
    assert tcv["per_system"]["A"]["pass_at_1"][GRID.index(0.6)] == pytest.approx(1.0)
    assert tcv["per_system"]["A"]["pass_at_1"][GRID.index(0.65)] == pytest.approx(0.5)
    wer = threshold_sweep(rows, "stt_wer")  # lower is better: at or below the threshold passes
    assert wer["per_system"]["A"]["pass_at_1"][GRID.index(0.65)] == pytest.approx(0.5)
    assert wer["per_system"]["A"]["pass_at_1"][GRID.index(0.7)] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="response_speed"):
        threshold_sweep(rows, "response_speed")


def _pearson_by_formula(x: list[float], y: list[float]) -> tuple[float, float]:
    """r from the covariance formula, p from Student's t with n - 2 degrees of freedom."""
    n = len(x)
    xm, ym = sum(x) / n, sum(y) / n
    sxy = sum((a - xm) * (b - ym) for a, b in zip(x, y, strict=True))
    r = sxy / math.sqrt(sum((a - xm) ** 2 for a in x) * sum((b - ym) ** 2 for b in y))
    t = r * math.sqrt((n - 2) / (1 - r * r))
    return r, 2 * stats.t.sf(abs(t), n - 2)


def test_key_entities_by_hand() -> None:
    ke = [0.2, 0.4, 0.6, 0.8, 1.0] * 2
    tc = [0.0, 0.0, 1.0, 1.0, 1.0] * 2
    rows = [
        row("A", f"s{i}", domain="itsm" if i < 5 else "hr", task_completion=c, extra={KE: k})
        for i, (k, c) in enumerate(zip(ke, tc, strict=True))
    ]
    out = key_entities(rows)
    r, p = _pearson_by_formula(ke, tc)
    a = out["per_system"]["A"]
    assert a["r"] == pytest.approx(r, abs=1e-4) and a["p"] == pytest.approx(p, abs=1e-4)
    # >= 0.70: KE 0.8, 1.0 (x2) all completed; below: 0.2, 0.4, 0.6 (x2) one in three
    assert (a["n_above"], a["n_below"]) == (4, 6)
    assert a["completion_above"] == 1.0 and a["completion_below"] == pytest.approx(1 / 3, abs=1e-4)
    assert a["relative_change"] == pytest.approx(-2 / 3, abs=1e-4)
    assert out["per_domain"]["itsm"]["r"] == pytest.approx(r, abs=1e-4)
    assert out["across_systems"]["r"] is None and "3 or more" in out["across_systems"]["note"]


def test_key_entities_constant_side_has_no_r() -> None:
    rows = [row("A", f"s{i}", extra={KE: 0.1 * i}) for i in range(10)]  # task always completed
    a = key_entities(rows)["per_system"]["A"]
    assert a["r"] is None and a["note"] == "one side is constant"


def test_faithfulness_shares_by_hand() -> None:
    # (faithfulness, task): 4 completed, 2 of them deviate; 5 deviations, 3 with a failed task
    pairs = [(1.0, 1), (1.0, 1), (0.5, 1), (0.0, 1), (0.5, 0), (0.5, 0), (0.0, 0), (1.0, 0)]
    rows = [row("A", f"s{i}", faithfulness=f, task_completion=t) for i, (f, t) in enumerate(pairs)]
    rows += [row("B", f"s{i}", faithfulness=1.0, task_completion=1.0) for i in range(2)]
    out = faithfulness_vs_completion(rows)
    a = out["per_system"]["A"]
    assert (a["completed"], a["completed_with_deviation"], a["share_completed_with_deviation"]) == (4, 2, 0.5)
    assert (a["deviations"], a["deviations_in_failed_tasks"], a["share_deviations_in_failed_tasks"]) == (
        5,
        3,
        0.6,
    )
    assert out["all"]["share_completed_with_deviation"] == pytest.approx(2 / 6, abs=1e-4)
    assert out["per_system"]["B"]["share_deviations_in_failed_tasks"] is None


def test_facets_by_architecture() -> None:
    rows = [row("c1", f"s{i}", turn_taking=0.3, tool=[5.0, 7.0], plain=[1.0]) for i in range(4)]
    rows += [row("c2", f"s{i}", turn_taking=0.5, tool=[3.0], plain=[2.0]) for i in range(4)]
    rows += [
        row("rt", f"s{i}", pipeline="s2s", turn_taking=0.9, faithfulness=0.5, tool=[1.0]) for i in range(4)
    ]
    out = facets(rows)
    cas, s2s = out["per_type"]["cascade"], out["per_type"]["s2s"]
    assert cas["systems"] == ["c1", "c2"] and cas["conversations"] == 8
    assert cas["components"]["turn_taking"]["mean"] == pytest.approx(0.4)
    assert s2s["components"]["turn_taking"]["mean"] == pytest.approx(0.9)
    assert s2s["components"]["faithfulness"]["mean"] == pytest.approx(0.5)
    # cascade tool turns: 5, 7 (x4) and 3 (x4): median 5, mean (12 * 4 + 3 * 4) / 12 = 5
    assert cas["latency"]["tool"] == {"turns": 12, "median": 5.0, "mean": 5.0}
    assert cas["latency"]["no_tool"]["median"] == pytest.approx(1.5)
    assert s2s["latency"]["no_tool"] == {"turns": 0, "median": None, "mean": None}
    assert out["per_system"]["c1"]["latency"]["tool"]["median"] == 6.0
    assert "note" not in out
