"""The shipped-method side of benchmarks/progression_tiebreak.py (`--shipped`): a model "yes"
counts as one more announced restatement of the shipped method, so it caps a conversation at 2
(two at 1) and never raises a rating; without any the figures are the shipped method's own."""

from __future__ import annotations

from tests.bench.bench_scripts import load
from tests.eval.test_progression_caps import REBOOK, REBOOKED
from tests.eval.test_progression_flags import A_OPEN, I_OPEN, Step, ctx_of
from voxbench.eval.calibration import CalibItem
from voxbench.eval.offline import progression
from voxbench.eval.offline._ordinal import shipped_model

TWICE: list[Step] = [
    *A_OPEN,
    ("call", ("rebook_flight", REBOOK, REBOOKED)),
    ("call", ("rebook_flight", REBOOK, REBOOKED)),
]


def test_a_model_yes_caps_like_a_restatement() -> None:
    tb = load("progression_tiebreak")
    model = shipped_model(progression.NAME)
    ctx = ctx_of(A_OPEN)
    assert tb.shipped_rating(model, ctx, 0) == 3
    assert tb.shipped_rating(model, ctx, 1) == 2
    assert tb.shipped_rating(model, ctx, 2) == 1
    assert tb.shipped_rating(model, ctx_of(TWICE), 1) == 1  # never above the write's cap


def test_the_cv_without_the_model_is_the_shipped_methods() -> None:
    tb = load("progression_tiebreak")
    items = [
        CalibItem("conversation_progression", f"{k}{i}", ctx_of(steps), human)
        for i in range(3)
        for k, steps, human in (("a", A_OPEN, 3), ("i", I_OPEN, 3), ("w", TWICE, 1))
    ]
    cv, fitted = tb.shipped_cv(items, {}, seeds=2, folds=3)
    assert fitted == 1.0 and cv == 1.0
    cv, fitted = tb.shipped_cv(items, {"a0": 1, "i1": 1}, seeds=2, folds=3)
    assert fitted == 7 / 9
