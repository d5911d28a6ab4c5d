"""The fixed development/test split of the visible labels, and the figure eval prints: the
test half (marked when the method was written reading it), never the in-sample one."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from tests.conftest import EVA_DATA
from voxbench.eval.calibration_dims import dimension_agreement
from voxbench.eval.calibration_items import CalibItem, load_items
from voxbench.eval.context import ConversationContext
from voxbench.eval.headline import judged_by
from voxbench.eval.label_split import halves_of, load_split, split_items
from voxbench.eval.offline._shipped import honest_figure
from voxbench.reports.judged_by import agreement_text


def _item(i: int, opening: str, rating: int) -> CalibItem:
    ctx = ConversationContext(record_id=str(i), source="test")
    ctx.intended_user_turns = {1: opening}
    return CalibItem("faithfulness", str(i), ctx, rating)


def _items() -> list[CalibItem]:
    # 40 conversations over 20 scenarios (two replays each), ratings 1-3
    return [_item(i, f"Hi, scenario {i // 2} please.", 1 + (i // 2) % 3) for i in range(40)]


def test_split_is_a_partition_by_conversation_group_and_stratified() -> None:
    items = _items()
    s = split_items("faithfulness", items, seed=7)
    dev, test = set(s["dev"]), set(s["test"])
    assert not dev & test and dev | test == {it.item_id for it in items}
    for i in range(0, 40, 2):  # the two replays of a scenario stay together
        assert (str(i) in dev) == (str(i + 1) in dev)
    by_rating = {it.item_id: it.human for it in items}
    d, t = Counter(by_rating[x] for x in dev), Counter(by_rating[x] for x in test)
    assert all(abs(d[r] - t[r]) <= 2 for r in (1, 2, 3)), (d, t)
    assert split_items("faithfulness", items, seed=7) == s  # seeded: the same split every time
    assert split_items("faithfulness", items, seed=8) != s


def test_split_applies_only_to_the_file_it_was_drawn_on() -> None:
    items = _items()
    split = {"sets": {"faithfulness": {"sha256": "abc", **split_items("faithfulness", items)}}}
    assert halves_of("faithfulness", items, split, "other file") is None
    halves = halves_of("faithfulness", items, split, "abc")
    assert halves is not None and len(halves["dev"]) + len(halves["test"]) == 40


JUDGE_SETS = EVA_DATA / "docs" / "metrics" / "judge_validation_datasets"


@pytest.mark.skipif(not JUDGE_SETS.is_dir(), reason=f"EVA judge-validation sets not at {JUDGE_SETS}")
def test_shipped_split_covers_the_visible_sets() -> None:
    split = load_split()
    for stem, entry in split["sets"].items():
        f = JUDGE_SETS / f"{stem}.jsonl"
        assert entry["sha256"] == hashlib.sha256(f.read_bytes()).hexdigest(), stem
        _, items, _ = load_items(f)
        assert set(entry["dev"]) | set(entry["test"]) == {it.item_id for it in items}, stem
        assert not set(entry["dev"]) & set(entry["test"]), stem


def test_printed_figure_is_the_test_half_then_cv_never_in_sample() -> None:
    a = {"n": 60, "accuracy": 0.9, "cohen_kappa": 0.8, "cv": {"folds": 5, "accuracy": 0.8, "cohen_kappa": 0.6},
         "test": {"n": 30, "accuracy": 0.7, "cohen_kappa": 0.5}}  # fmt: skip
    assert honest_figure(a) == (a["test"], "test half")
    assert honest_figure({**a, "test": {}})[1] == "CV"
    assert honest_figure({"n": 3, "accuracy": 0.9})[1] == "in-sample"
    seen = {**a, "test": {**a["test"], "seen_in_development": "rules written reading all labels"}}
    assert honest_figure(seen)[1] == "test half (read when written)"
    text, _ = agreement_text("x", seen)
    assert "0.70" in text and "read when the method was written" in text and "n 30" in text
    prov = {
        "judge_mode": "offline",
        "offline_judges": {"faithfulness": {"method": "offline:r", "agreement": a}},
    }
    line = judged_by({"provenance": prov}, ("faithfulness",))
    assert "acc 0.700 κ 0.500 test half" in line and "0.900" not in line


def test_dimension_agreement_counts_each_dimension_on_its_own() -> None:
    rows = [
        {"judge": 1, "human_modes": ["violating_policies"], "judge_flagged": ["violating_policies"]},
        {"judge": 2, "human_modes": ["hallucination"], "judge_flagged": []},
        {"judge": 3, "human_modes": [], "judge_flagged": ["hallucination"]},
        {"judge": 3, "human_modes": [], "judge_flagged": []},
    ]
    d = dimension_agreement(rows)
    assert d["violating_policies"]["accuracy"] == 1.0 and d["violating_policies"]["both_flagged"] == 1
    assert d["hallucination"]["accuracy"] == 0.5 and d["hallucination"]["human_flagged"] == 1
    assert d["failing_to_disambiguate"]["human_flagged"] == 0


def test_progression_label_modes_map_to_the_four_dimensions() -> None:
    from voxbench.eval.calibration_dims import label_dimensions

    modes = ["repetitive_tool_calls", "minor_redundancy", "vague_questions", "forgetting_information", "x"]
    assert label_dimensions("conversation_progression", modes) == [
        "information_loss", "question_quality", "redundant_statements", "unnecessary_tool_calls",
    ]  # fmt: skip
    assert label_dimensions("faithfulness", ["hallucination", "minor_redundancy"]) == ["hallucination"]
