"""Live calls against real providers, one per cloud profile.

Each runs only when its keys (and extras) are present, and is SKIPPED VISIBLY otherwise
(the skip reason is the profile's one-line preflight message; `-ra` lists it). The
caller is the offline trace simulator with the Piper voice, speaking the first two
reference lines of an airline scenario.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pipelines.agents.conftest import fast_config
from voxbench.pipelines.agent.builder import build_agent_services
from voxbench.pipelines.agent.profiles import BUILTIN_PROFILES, ProfileUnavailable, preflight
from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig, TraceSimConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import Speech, StageTiming, read_record

CLOUD_PROFILES = sorted(n for n, p in BUILTIN_PROFILES.items() if p.env_keys())


def live_config() -> CallConfig:
    base = fast_config()
    return base.model_copy(
        update={
            "simulator": SimulatorConfig(kind="trace", trace=TraceSimConfig(max_lines=2, turn_gap_s=1.5)),
            "limits": LimitsConfig(time_limit_s=120, inactivity_s=30, drain_s=4),
            "agent": base.agent.model_copy(
                update={"turn": base.agent.turn.model_copy(update={"smart_turn": True})}
            ),
        }
    )


@pytest.mark.live_cloud
@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", CLOUD_PROFILES)
async def test_live_profile_call(name: str, call: CallScenario, tmp_path: Path) -> None:
    profile = BUILTIN_PROFILES[name]
    try:
        preflight(profile)
    except ProfileUnavailable as exc:
        pytest.skip(str(exc))
    from voxbench.pipelines.call.runner import run_call
    from voxbench.pipelines.local_stack import local_simulator

    services = build_agent_services(profile)
    record = await run_call(call, live_config(), services, local_simulator("trace"), tmp_path)
    assert record.status == "completed", record.error
    b = read_record(tmp_path)
    agent_speech = [
        e for e in b.events if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"
    ]
    assert len(agent_speech) >= 2, "the agent should greet and answer"
    assert any(isinstance(e, StageTiming) for e in b.events)
    assert b.record.extra["usage"]["estimate"] is True
