"""Shared fixtures: where EVA's public data lives (tests skip cleanly without it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EVA_DATA = Path(os.environ.get("VOXBENCH_EVA_DATA", REPO.parent / "shared" / "eva-data"))


@pytest.fixture(scope="session")
def eva_data() -> Path:
    if not (EVA_DATA / "data").is_dir():
        pytest.skip(f"EVA public data not found at {EVA_DATA} (set VOXBENCH_EVA_DATA)")
    return EVA_DATA
