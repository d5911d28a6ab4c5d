"""What the LiveKit adapter adds to the audio path of a live call (prints tables; not a test).

Runs fake-service calls on the real clock, the way ``live_call_timing.py`` does for the other
architectures: the trace-replay caller over the loopback WebSocket, and as the agent a
LiveKit ``AgentSession`` with test doubles of LiveKit's STT/LLM/TTS
(``tests/fakes/livekit_services.py``) run through the ``livekit`` adapter. The wire itself
(caller <-> agent transport) is the same as for every architecture and is measured by
``live_call_timing.py``; this measures the adapter between the agent transport and the
session, per 20 ms frame, against the 10 ms p95 target:

* **in, adapter**: a caller frame handed to the session's ``AudioInput`` -> the session
  taking it (the adapter's queue; what follows is LiveKit's own: it re-frames audio and replays what it buffered to a new
  STT stream, so frames cannot be followed one by one past this point);
* **out, first chunk**: the session's first audio of an answer captured -> pushed into the
  call (the line was idle, so it should leave at once);
* **out, every chunk**: the delay added to what is heard, ``max(0, pushed - slot)`` where the
  slot is the chunk's place on the line in real-time playback (its capture time when the line
  was idle); the adapter pushes each chunk 20 ms before its slot, so a late wake-up within
  the lead adds nothing (the wake-up jitter is printed too).

    .venv/bin/python benchmarks/livekit_adapter_timing.py [--calls 3] [--data ../shared/eva-data]

Needs the ``livekit`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from livekit.agents import Agent, AgentSession
from tests.fakes.livekit_services import LKFakeLLM, LKFakeSTT, LKFakeTTS
from tests.fakes.services import FakeTTS, Reply
from tests.pipelines.agents.conftest import SCENARIO, fast_config

from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.agent.livekit_session import LiveKitAgentServices
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import AgentInfo
from voxbench.scenarios import load_dataset

TARGET_MS = 10.0
LEAD_S = 0.02  # CallAudioOutput's default lead
LONG = "Certainly, I can help you with that today, let me just pull up the details for you now."


async def one_call(data: Path, out: Path) -> dict[str, Any]:
    dd = load_dataset(data, ["airline"]).domains["airline"]
    call = CallScenario.from_domain(dd, SCENARIO)
    lines = reference_user_lines(call.scenario, call.resolver)

    def make() -> tuple[AgentSession[Any], Agent]:
        session: AgentSession[Any] = AgentSession(
            stt=LKFakeSTT(lines),
            llm=LKFakeLLM([Reply(LONG)] * 10),
            tts=LKFakeTTS(f0=120.0),
            vad=None,
            turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.2, "max_delay": 1.0}},
            user_away_timeout=None,
        )
        return session, Agent(instructions="You are an airline agent.")

    cfg_lk = LiveKitAgentConfig(agent="benchmarks.livekit_adapter_timing:unused")
    services = LiveKitAgentServices(
        livekit=cfg_lk, info=AgentInfo(name="livekit-bench", architecture="livekit"), factory=make
    )
    cfg = fast_config()
    cfg.agent.greeting = "Thanks for calling. How can I help?"

    # the processor is built inside run_call; set its stamp lists as soon as it exists
    async def arm() -> None:
        while services.processor is None:
            await asyncio.sleep(0.001)
        services.processor.audio_in.stamps = []
        services.processor.audio_out.stamps = []

    load0, w0 = os.getloadavg(), time.monotonic()
    armer = asyncio.create_task(arm())
    record = await run_call(call, cfg, services, SimulatorServices(tts=FakeTTS(f0=220.0)), out)
    await armer
    proc = services.processor
    assert proc is not None
    return {
        "status": record.status,
        "in": list(proc.audio_in.stamps or []),
        "out": list(proc.audio_out.stamps or []),
        "wall_s": time.monotonic() - w0,
        "load": (load0, os.getloadavg()),
    }


def row(label: str, xs: list[float], target: bool = True) -> str:
    if not xs:
        return f"| {label} | 0 | - | - | - | no data |"
    a = np.asarray(xs)
    p95 = float(np.percentile(a, 95))
    ok = f"{p95 / TARGET_MS:.2f}x target: {'met' if p95 <= TARGET_MS else 'NOT met'}" if target else "-"
    return f"| {label} | {a.size} | {np.percentile(a, 50):.2f} | {p95:.2f} | {a.max():.2f} | {ok} |"


def series(calls: list[dict[str, Any]]) -> dict[str, list[float]]:
    s: dict[str, list[float]] = {"in": [], "first": [], "added": [], "jitter": []}
    for c in calls:
        s["in"] += [1000 * (taken - pushed) for pushed, taken, _ in c["in"]]
        for captured, slot, pushed in c["out"]:
            idle = slot <= captured  # nothing was playing when it came: it may go at once
            start = captured if idle else slot
            if idle:
                s["first"].append(1000 * (pushed - captured))
            else:
                s["jitter"].append(1000 * (pushed - (slot - LEAD_S)))
            s["added"].append(1000 * max(0.0, pushed - start))
    return s


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eva-data")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        calls = [await one_call(a.data, Path(d) / f"c{i}") for i in range(a.calls)]
    l0, l1 = calls[0]["load"][0], calls[-1]["load"][1]
    walls = ", ".join(f"{c['wall_s']:.0f}s" for c in calls)
    print(
        f"{a.calls} calls ({', '.join(c['status'] for c in calls)}), "
        f"{walls} wall; load avg 1/5/15 min "
        f"{'/'.join(f'{x:.2f}' for x in l0)} before, {'/'.join(f'{x:.2f}' for x in l1)} after, "
        f"{os.cpu_count()} cores\n"
    )
    s = series(calls)
    print("| hop (per 20 ms frame unless noted) | n | p50 ms | p95 ms | max ms | vs 10 ms p95 |")
    print("|---|---|---|---|---|---|")
    print(row("**in, adapter**: caller frame -> session takes it", s["in"]))
    print(row("**out, first chunk** (line idle): captured -> into the call", s["first"]))
    print(row("**out, every chunk: added delay** max(0, pushed - its slot or capture)", s["added"]))
    print(row("out, pacer wake-up vs its due time (slot - 20 ms lead; no target)", s["jitter"], target=False))


if __name__ == "__main__":
    asyncio.run(main())
