"""ITSM fixtures: a small hand-built database."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios.agent_spec import load_agent_spec
from voxbench.scenarios.executor import ToolExecutor

from .helpers import make_db


@pytest.fixture
def db() -> dict[str, Any]:
    return make_db()


@pytest.fixture
def run(eva_data: Path, db: dict[str, Any]) -> Callable[..., dict[str, Any]]:
    """Call a tool through the executor (EVA's validation) over the hand-built database."""
    agent = load_agent_spec(eva_data / "configs" / "agents" / "itsm_agent.yaml")
    ex = ToolExecutor("itsm", db, f"{db['_current_date']} 10:00 EST", agent)
    ex.db = db  # share the fixture's database so tests can arrange and inspect it

    def go(name: str, **params: Any) -> dict[str, Any]:
        return ex.execute(name, params)

    return go
