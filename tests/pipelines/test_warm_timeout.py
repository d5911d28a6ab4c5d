"""How long the agent's LLM warm-up may take before the call (a pure rule: no clock)."""

from __future__ import annotations

from voxbench.orchestrator.config import RunConfig
from voxbench.pipelines.warmup import FIRST_WARM_S, warm_timeout


def test_a_warm_up_that_will_be_saved_may_take_longer() -> None:
    assert warm_timeout(180.0, will_save=True) == FIRST_WARM_S
    assert warm_timeout(900.0, will_save=True) == 900.0


def test_a_warm_up_not_saved_keeps_its_limit() -> None:
    assert warm_timeout(180.0, will_save=False) == 180.0


def test_the_first_warm_up_fits_in_the_attempts_set_up_allowance() -> None:
    # Until the call starts, an attempt is killed after time limit + grace: the warm-up, with
    # a minute of model loading, must end well before that.
    assert RunConfig.model_fields["time_limit_s"].default > FIRST_WARM_S + 60.0
