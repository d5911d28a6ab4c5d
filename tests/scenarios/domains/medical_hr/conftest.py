"""medical_hr tool fixtures: executors over real EVA scenario databases, plus logins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import DomainData, load_dataset


@pytest.fixture(scope="module")
def hr(eva_data: Path) -> DomainData:
    return load_dataset(eva_data, ["medical_hr"]).domains["medical_hr"]


@pytest.fixture
def make(hr: DomainData) -> Callable[[str], ToolExecutor]:
    """A fresh executor over scenario `sid`'s starting database."""

    def build(sid: str) -> ToolExecutor:
        sc = hr.scenarios[sid]
        return ToolExecutor("medical_hr", hr.initial_db(sid), sc.current_date_time, hr.agent)

    return build
