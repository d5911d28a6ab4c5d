"""The small fitted models of the offline judges: sign constraints on penalising features."""

from __future__ import annotations

import pytest

from voxbench.eval.offline._ordinal import fit_ordinal, fit_two_step

# "stalls" co-occurs with good ratings in these rows (as restated confirmations did in EVA's
# labels); "errors" really marks bad ones.
ROWS = [
    {"errors": e, "stalls": s}
    for e, s in [(2, 0), (2, 1), (1, 0), (1, 1), (1, 2), (0, 2), (0, 3), (0, 4)] * 3
]
LABELS = [1, 1, 2, 2, 2, 3, 3, 3] * 3


def test_unconstrained_fit_rewards_the_stall_and_the_constraint_stops_it() -> None:
    free = fit_ordinal(ROWS, LABELS, ("errors", "stalls"), l2=0.01, iters=3000, lr=0.2)
    assert free.weights[1] > 0.1  # the failure the constraint exists for
    held = fit_ordinal(
        ROWS, LABELS, ("errors", "stalls"), l2=0.01, iters=3000, lr=0.2, penalising=("stalls",)
    )
    assert held.weights[1] == 0.0 and held.weights[0] < 0
    base = {"errors": 1.0, "stalls": 0.0}
    assert all(held.rate({**base, "stalls": float(n)}) <= held.rate(base) for n in range(50))


def test_two_step_fit_keeps_penalising_weights_on_the_bad_side() -> None:
    free = fit_two_step(ROWS, LABELS, ("errors", "stalls"))
    assert min(free.low[1], free.mid[1]) < 0
    held = fit_two_step(ROWS, LABELS, ("errors", "stalls"), penalising=("stalls",))
    assert held.low[1] >= 0 and held.mid[1] >= 0


def test_an_unknown_penalising_feature_is_an_error() -> None:
    with pytest.raises(ValueError, match="not among the features"):
        fit_ordinal(ROWS, LABELS, ("errors", "stalls"), penalising=("stall",))
