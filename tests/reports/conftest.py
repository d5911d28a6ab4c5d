from __future__ import annotations

from pathlib import Path

import pytest

from tests.reports.fixture_run import build_fixture


@pytest.fixture(scope="session")
def fixture_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two scored runs (hand-scripted conversations, synthetic audio, real eval)."""
    return build_fixture(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="session")
def report_dir(fixture_runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    from voxbench.reports import build_report

    out = tmp_path_factory.mktemp("report")
    build_report(fixture_runs, out)
    return out
