"""Every reference tool call of EVA's public data reproduces through our executor."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.scenarios.loader import load_dataset
from voxbench.scenarios.replay import replay_dataset

# Reference traces that contradict their own scenario database. The final-hash check
# still applies to them; only the per-response check is waived, with the evidence.
STALE_TRACES = {
    ("medical_hr", "T1.2"): (
        "trace's get_license_record shows NY-MD-31614326 expired on 2026-08-31, but the scenario "
        "database has it active until 2026-10-30: the trace predates an edit of the database"
    ),
    **{
        ("itsm", sid): (
            "trace's check_ergonomic_assessment returns assessment_date null, but the caller's database "
            "entry is status 'completed' with a completed_date, the same shape for which scenarios 66 "
            "and 77 return the date"
        )
        for sid in ("22", "43", "58", "60")
    },
    ("itsm", "100"): (
        "trace lists room BLD1-FL3-RM301 with a projector only; the scenario database also gives it a "
        "whiteboard, so the equipment filter now matches it"
    ),
    ("itsm", "72"): (
        "trace shows the last name as <LAST_NAME> ('MacDonald') where the database stores the "
        "lower-cased romanized form; our title-casing gives 'Macdonald'"
    ),
}


@pytest.mark.parametrize("domain", ["airline", "itsm", "medical_hr"])
def test_replay_reproduces_every_response_and_final_hash(eva_data: Path, domain: str) -> None:
    [res] = replay_dataset(load_dataset(eva_data, [domain]))
    assert res.scenarios > 0
    hash_failures = [f for f in res.failures if not f.hash_match]
    response_failures = [
        f for f in res.failures if not f.responses_match and (domain, f.scenario_id) not in STALE_TRACES
    ]
    assert not hash_failures, "\n".join(f"{f.scenario_id}: {f.first_difference}" for f in hash_failures)
    assert not response_failures, "\n".join(
        f"{f.scenario_id}: {f.first_difference}" for f in response_failures
    )
