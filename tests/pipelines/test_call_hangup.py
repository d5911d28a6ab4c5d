"""The caller hangs up while the agent is still working on a reply: the agent is cancelled,
and a tool call it would have made after the end changes neither the recorded tool calls nor
the database the call is scored on (a whole call over the loopback WebSocket, fake services)."""

from __future__ import annotations

from pathlib import Path

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import LimitsConfig
from voxbench.records import ToolCall, read_record
from voxbench.transports.virtual_loop import run_virtual


def test_a_tool_call_after_the_hang_up_is_not_part_of_the_call(eva_data: Path, tmp_path: Path) -> None:
    from voxbench.pipelines.caller.trace_simulator import reference_user_lines

    call = call_input(eva_data)
    lines = reference_user_lines(call.scenario, call.resolver)
    script = [Reply("Of course. May I have your confirmation number and last name?")]
    script += [Reply("Thank you.") for _ in lines[1:-1]]
    # the reply to the last line comes long after the caller has stopped waiting for it
    late = ("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})
    script.append(Reply(tool_calls=[late], delay_s=40.0))
    agent = AgentServices(stt=FakeSTT(lines), llm=FakeLLM(script), tts=FakeTTS(f0=120.0))
    cfg = fast_config().model_copy(
        update={"limits": LimitsConfig(time_limit_s=60, inactivity_s=8, drain_s=2, shutdown_timeout_s=60)}
    )
    sim = SimulatorServices(tts=FakeTTS(f0=220.0))

    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))

    b = read_record(tmp_path)
    assert record.duration_s is not None and record.duration_s < 40.0
    assert not [e for e in b.events if isinstance(e, ToolCall)]
    assert record.num_tool_calls == 0
    assert b.final_db is not None and "session" not in b.final_db
    assert record.final_db_hash == record.initial_db_hash
