"""The offline default agent completes a built-in task in a real call (slow, real models).

Trace-replay caller (Piper voice) -> whisper tiny.en + Qwen2.5-Coder-1.5B (grammar-constrained
``{say, tool}`` replies, argument grounding) + Piper, over the loopback WebSocket. Task
completion is the eval's rule: the final database must hash equal to the expected one, which
for bb.1 needs get_reservation with the spoken code and name, then add_baggage_allowance with
the journey id from its result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("faster_whisper")
pytest.importorskip("piper")
pytest.importorskip("xllamacpp")

from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig, TraceSimConfig
from voxbench.pipelines.local_stack import local_agent, local_simulator, start_llm_server
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import ToolCall, read_record
from voxbench.scenarios import check_task_completion, load_dataset


@pytest.mark.slow
@pytest.mark.timeout(1200)
async def test_offline_default_agent_completes_builtin_bag_task(tmp_path: Path) -> None:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    call = CallScenario.from_domain(dd, "bb.1")
    cfg = CallConfig(
        # The agent announces a lookup with a sentence of up to ~3 s ("Okay, I'll look up the
        # booking. Please hold.") and its answer after the tool can take 10-30 s on a loaded
        # 2-core machine: the caller treats turns up to 3.5 s as holds and waits up to 40 s.
        simulator=SimulatorConfig(
            kind="trace", trace=TraceSimConfig(turn_gap_s=2.0, hold_max_s=3.5, hold_gap_s=40.0)
        ),
        limits=LimitsConfig(time_limit_s=600, inactivity_s=120),
    )
    server = start_llm_server()
    try:
        record = await run_call(call, cfg, local_agent(server), local_simulator("trace"), tmp_path)
    finally:
        server.stop()
    assert record.status == "completed", record.error
    b = read_record(tmp_path)
    calls = [(e.name, e.arguments) for e in b.events if isinstance(e, ToolCall)]
    assert b.final_db is not None
    result = check_task_completion(dd.expected_db("bb.1"), b.final_db)
    assert result.success, (calls, result)
    assert calls[0][0] == "get_reservation", calls
