"""Every reference tool call of EVA's public data reproduces through our executor."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from voxbench.cli.tools import run_replay
from voxbench.scenarios.loader import load_dataset
from voxbench.scenarios.replay import replay_dataset


@pytest.mark.parametrize("domain", ["airline", "itsm", "medical_hr"])
def test_replay_reproduces_every_response_and_final_hash(eva_data: Path, domain: str) -> None:
    """Every hash matches; every response matches or its trace is shown stale, with evidence."""
    [res] = replay_dataset(load_dataset(eva_data, [domain]))
    assert res.scenarios > 0
    hash_failures = [f for f in res.failures if not f.hash_match]
    # No exception list: every remaining difference is explained by a generic rule.
    response_failures = [f for f in res.failures if not f.responses_match and not f.stale_trace]
    assert not hash_failures, "\n".join(f"{f.scenario_id}: {f.first_difference}" for f in hash_failures)
    assert not response_failures, "\n".join(
        f"{f.scenario_id}: {f.first_difference}" for f in response_failures
    )
    assert all(f.trace_evidence for f in res.failures if f.stale_trace)


def test_replay_counts_calls_and_compares_numbers_as_json(eva_data: Path) -> None:
    """Per-call counts add up, and a rebooking's `total_collected` is the trace's int 75."""
    [res] = replay_dataset(load_dataset(eva_data, ["airline"]))
    assert res.responses_identical + res.responses_differing == res.tool_calls
    # The only airline differences left are the cascade's own transfer answers, explained.
    assert all(f.stale_trace and f.hash_match for f in res.failures)
    assert all("transfer_to_agent" in e for f in res.failures for e in f.trace_evidence)


def test_cli_replay_prints_per_call_counts_and_exits_0(
    eva_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`voxbench tools replay` exits 0 only when every difference is explained."""
    args = argparse.Namespace(
        data=str(eva_data), domain=["airline"], lang="en", json=False, all_failures=True
    )
    assert run_replay(args) == 0
    out = capsys.readouterr().out
    header, row = out.splitlines()[:2]
    assert "identical" in header and "differing" in header
    domain, _, calls, identical, differing = row.split()[:5]
    assert domain == "airline" and int(identical) + int(differing) == int(calls)
    # Each differing airline call is a cascade transfer answer, explained (one per scenario).
    assert out.count("STALE TRACE airline/") == int(differing) > 0
    assert "FAIL" not in out
