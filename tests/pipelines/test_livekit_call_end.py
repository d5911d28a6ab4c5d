"""A LiveKit call that ends on inactivity returns, and leaves nothing running behind it.

The failure this guards against: with a local caller voice on a loaded machine, the caller's
TTS was still making its line when the call ended on inactivity (nobody had spoken for the
limit: that is *why* it ended). The runner stopped the caller with an EndFrame, which pipecat's
worker waits to see reach the end of the pipeline before it takes a CancelFrame, so the caller
could be neither ended nor cancelled; it was abandoned still running, and at exit asyncio's
runner waited for it forever. Now the caller is cancelled after the drain, like the agent.

Both tests stop the caller's TTS mid-line for good (a model that takes far longer than the
call's limits) and check, right after ``run_call`` returns, that no task of the call is left;
the LiveKit session (its STT/VAD/LLM/TTS tasks, LiveKit's bundled silero VAD and its
executor) is closed whatever way the call ends. On the virtual clock the stuck TTS is an
``asyncio`` wait; in real time (``run_logical``, the loop ``voxbench call`` runs on) it is a
worker thread that is released only after the call, as Kokoro's sentence in a thread was, and
the run must return and leave no thread it started.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "livekit.agents", reason="livekit-agents is not installed (pip install 'voxbench[livekit]')"
)

from livekit.agents import Agent, AgentSession

from tests.fakes.livekit_services import LKFakeLLM, LKFakeSTT, LKFakeTTS
from tests.fakes.services import FakeTTS, Reply, buzz
from tests.pipelines.agents.conftest import SCENARIO, fast_config
from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.agent.livekit_session import LiveKitAgentServices
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import CallConfig, LimitsConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services.local_tts import LocalTTSService
from voxbench.records import AgentInfo, ConversationRecord
from voxbench.scenarios import load_dataset
from voxbench.transports.logical_loop import run_logical
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Thanks for calling. How can I help?"


@pytest.fixture
def call(eva_data: Path) -> CallScenario:
    dd = load_dataset(eva_data, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, SCENARIO)


def listening_agent(call: Any) -> tuple[AgentSession[Any], Agent]:
    """A LiveKit agent on test doubles and LiveKit's default VAD (its bundled silero, which
    runs in an executor of its own): it greets, then listens for a caller who never speaks."""
    session: AgentSession[Any] = AgentSession(
        stt=LKFakeSTT(["(the caller's words)"] * 10),
        llm=LKFakeLLM([Reply("Of course.")] * 10),
        tts=LKFakeTTS(f0=120.0),
        turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.2, "max_delay": 1.0}},
        user_away_timeout=None,
    )
    return session, Agent(instructions=call.instructions)


def services() -> LiveKitAgentServices:
    return LiveKitAgentServices(
        livekit=LiveKitAgentConfig(agent="tests.pipelines.test_livekit_call_end:listening_agent"),
        info=AgentInfo(name="livekit-test", architecture="livekit"),
        factory=listening_agent,
    )


def short_limits(cfg: CallConfig, inactivity_s: float) -> CallConfig:
    cfg.agent.greeting = GREETING
    cfg.limits = LimitsConfig(time_limit_s=120, inactivity_s=inactivity_s, drain_s=1)
    return cfg


async def call_and_leftovers(
    call: CallScenario, cfg: CallConfig, caller_tts: Any, out: Path, unstick: Any = None
) -> tuple[ConversationRecord, list[str]]:
    """Run the call; the names of the tasks still running when it returned. ``unstick`` then
    lets the stuck TTS finish (its model ends its sentence after the call, unheard)."""
    before = asyncio.all_tasks()
    try:
        record = await run_call(call, cfg, services(), SimulatorServices(tts=caller_tts), out)
        await asyncio.sleep(0)  # done callbacks of the call's last tasks run
        left = [t for t in asyncio.all_tasks() - before if not t.done()]
    finally:
        if unstick is not None:
            unstick()
    names = sorted(t.get_name() for t in left)
    if left:  # a regression: let them run out (the stuck TTS ends too) rather than hang at exit
        await asyncio.wait(left, timeout=3600)
    return record, names


def test_inactivity_end_with_the_caller_mid_line_leaves_no_task(call: CallScenario, tmp_path: Path) -> None:
    """Virtual clock: the caller's TTS takes an hour for its first line."""
    stuck_tts = FakeTTS(f0=220.0, first_audio_delay_s=3600.0, stop_frame_timeout_s=7200.0)
    cfg = short_limits(fast_config(), inactivity_s=15)
    record, left = run_virtual(call_and_leftovers(call, cfg, stuck_tts, tmp_path / "rec"))
    assert record.status == "completed", record.error
    assert record.end_reason == "inactivity_timeout"
    assert left == [], f"tasks still running after the call: {left}"


@dataclass(frozen=True)
class _Voice:
    model: str = "stuck"
    voice_id: str = "stuck"


class ThreadStuckSynth:
    """A local engine whose first sentence blocks its worker thread until ``release``."""

    params = _Voice()

    def __init__(self) -> None:
        self.release = threading.Event()

    def iter_sentences(self, text: str, out_rate: int) -> Iterator[bytes]:
        self.release.wait()
        yield buzz(0.5, out_rate, 220.0).tobytes()


def test_real_time_inactivity_end_returns_and_leaves_no_thread(call: CallScenario, tmp_path: Path) -> None:
    """Real time on the logical loop: the caller's sentence holds a worker thread past the call.

    The run returning at all is the check that used to fail (asyncio's runner waited for an
    abandoned caller): before the fix this failed on the leftover tasks (29 of the caller's)."""
    synth = ThreadStuckSynth()
    cfg = short_limits(fast_config(), inactivity_s=4)
    threads_before = set(threading.enumerate())

    record, left = run_logical(
        call_and_leftovers(call, cfg, LocalTTSService(synth), tmp_path / "rec", synth.release.set)
    )
    assert record.status == "completed", record.error
    assert record.end_reason == "inactivity_timeout"
    assert left == [], f"tasks still running after the call: {left}"
    # threads the call started (the caller's TTS worker, LiveKit's VAD executor) end by
    # themselves: an executor told to stop exits on its own schedule, so wait for each; one
    # that never ends (never told to) fails on the suite's timeout instead of passing
    for t in [t for t in threading.enumerate() if t not in threads_before and not t.daemon]:
        t.join()
