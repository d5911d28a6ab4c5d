"""medical_hr tool fixtures: executors over real EVA scenario databases, plus logins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import DomainData, load_dataset

from .hand_db import executor, make_db


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


@pytest.fixture
def db() -> dict[str, Any]:
    return make_db()


@pytest.fixture
def run(eva_data: Path, db: dict[str, Any]) -> Callable[..., dict[str, Any]]:
    return executor(eva_data, db)
