"""Every reference tool call of EVA's public data reproduces through our executor."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.scenarios.loader import load_dataset
from voxbench.scenarios.replay import replay_dataset


@pytest.mark.parametrize("domain", ["airline", "itsm", "medical_hr"])
def test_replay_reproduces_every_response_and_final_hash(eva_data: Path, domain: str) -> None:
    [res] = replay_dataset(load_dataset(eva_data, [domain]))
    failures = "\n".join(f"{f.scenario_id}: {f.first_difference}" for f in res.failures)
    assert res.scenarios > 0
    assert res.responses_ok == res.scenarios, failures
    assert res.hash_ok == res.scenarios, failures
