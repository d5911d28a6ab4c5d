"""Airline tool fixtures: executors over real EVA scenario databases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import DomainData, load_dataset


@pytest.fixture(scope="module")
def airline(eva_data: Path) -> DomainData:
    return load_dataset(eva_data, ["airline"]).domains["airline"]


@pytest.fixture
def make_executor(airline: DomainData) -> Callable[[str], ToolExecutor]:
    """A fresh executor over scenario `sid`'s starting database."""

    def make(sid: str) -> ToolExecutor:
        sc = airline.scenarios[sid]
        return ToolExecutor("airline", airline.initial_db(sid), sc.current_date_time, airline.agent)

    return make


def _login(ex: ToolExecutor, conf: str) -> dict[str, Any]:
    last = ex.db["reservations"][conf]["passengers"][0]["last_name"]
    out = ex.execute("get_reservation", {"confirmation_number": conf, "last_name": last})
    assert out["status"] == "success", out
    return out


@pytest.fixture
def login() -> Callable[[ToolExecutor, str], dict[str, Any]]:
    """Authenticate an executor's session as the reservation's first passenger."""
    return _login
