"""A crashed agent or simulator yields an `infra_failure` record with the cause, never a hang."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.records import EndEvent, ErrorEvent, read_record


class DyingTTS(FakeTTS):
    """The caller's voice engine dies on its second line."""

    async def run_tts(self, text: str, context_id: str):  # type: ignore[override]
        if len(self.spoken) >= 1:
            await self.push_error("fake caller TTS died", force_treat_as_permanent=True)
            return
        async for f in super().run_tts(text, context_id):
            yield f


async def test_agent_crash_is_infra_failure(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    agent = AgentServices(stt=FakeSTT(["hello"] * 5), llm=FakeLLM([Reply(crash=True)]), tts=FakeTTS())
    record = await asyncio.wait_for(
        run_call(call, fast_config(), agent, SimulatorServices(tts=FakeTTS(f0=220.0)), tmp_path), 60
    )
    assert record.status == "infra_failure"
    assert record.end_reason == "agent_error"
    assert record.error and "crashed" in record.error
    b = read_record(tmp_path)
    assert any(isinstance(e, ErrorEvent) and e.fatal for e in b.events)
    assert any(isinstance(e, EndEvent) for e in b.events)
    assert (tmp_path / "mix.wav").is_file() and b.final_db is not None


async def test_simulator_crash_is_infra_failure(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    agent = AgentServices(stt=FakeSTT(["hello"] * 5), llm=FakeLLM([Reply("Sure.")] * 5), tts=FakeTTS())
    record = await asyncio.wait_for(
        run_call(call, fast_config(), agent, SimulatorServices(tts=DyingTTS(f0=220.0)), tmp_path), 60
    )
    assert record.status == "infra_failure"
    assert record.end_reason in ("simulator_error", "connection_lost")
    assert record.error
