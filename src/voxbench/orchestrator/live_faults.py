"""Injected faults of a live call: the reference agent's tool calls and the caller's voice.

The reference agent (``ReferenceAgent.faults``) misbehaves at its first tool call, which
falls mid-turn (after the words that lead to it, before the result that continues them):

* ``crash``: the call's process dies by SIGKILL; ``exception``: the tool handler raises;
  ``hang``: the tool call never returns (the agent goes silent); ``socket_drop``: the agent's
  server closes the caller's WebSocket;
* ``tool_bad_json`` (arguments that are not JSON), ``tool_unknown`` (a tool the scenario
  lacks), ``tool_wrong_type`` (every argument of the wrong type), ``tool_raises`` (the
  tool's implementation raises): the scenario's real ``ToolExecutor`` answers each, as it
  would a real LLM's malformed call.

The caller (``SimulatorSpec.faults``): ``tts_fail``, its tone voice raises after its first
line. The same functions serve the scripted no-audio fn (:func:`tool_fault_result`), so a
test and ``benchmarks/fault_matrix.py`` inject the same faults either way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
from collections.abc import AsyncGenerator
from typing import Any

from voxbench.orchestrator.jobs import ConversationJob
from voxbench.pipelines.call.spec import Fault, ReferenceAgent
from voxbench.scenarios import ToolExecutor

TOOL_FAULTS = frozenset({"tool_bad_json", "tool_unknown", "tool_wrong_type", "tool_raises"})
AGENT_FAULTS = TOOL_FAULTS | {"crash", "exception", "hang", "socket_drop"}


def matching_fault(faults: tuple[Fault, ...], job: ConversationJob) -> str | None:
    """The first fault that matches the job's coordinates (domain, scenario, trial, ...)."""
    return next((f.fault for f in faults if f.matches(job.spec.conversation)), None)


def _wrong_type(v: Any) -> Any:
    """A value no parameter type accepts in lax mode (a mapping for a scalar, a string for a
    mapping or list)."""
    return "not-a-structure" if isinstance(v, dict | list) else {"value": v}


def tool_fault_result(fault: str, name: str, args: dict[str, Any], executor: ToolExecutor) -> dict[str, Any]:
    """What the scenario's executor answers to the tool call ``name(args)`` made malformed by
    ``fault`` (one of :data:`TOOL_FAULTS`)."""
    if fault == "tool_bad_json":
        return executor.execute(name, json.dumps(args)[:-1] + ', "')
    if fault == "tool_unknown":
        return executor.execute(f"{name}_unknown", args)
    if fault == "tool_wrong_type":
        return executor.execute(name, {k: _wrong_type(v) for k, v in args.items()} or {"_": {}})
    if fault == "tool_raises":
        return _raising(executor, name, args)
    raise ValueError(f"{fault!r} is not a tool fault ({sorted(TOOL_FAULTS)})")


def _raising(executor: ToolExecutor, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run ``name`` with an implementation that raises, through the executor's own handling
    (EVA's: an ``execution_error`` result). The executor has no public way to swap one tool,
    so its table is patched for this one call and restored."""
    tools = executor._tools  # the fault needs the real executor's error path

    def boom(_params: dict[str, Any], _db: dict[str, Any], _n: int) -> dict[str, Any]:
        raise RuntimeError(f"{name} raised (injected fault)")

    original = tools.get(name)
    tools[name] = boom
    try:
        return executor.execute(name, args)
    finally:
        if original is None:
            tools.pop(name, None)
        else:
            tools[name] = original


async def drop_socket(transport: Any) -> None:
    """Close the caller's connection from the agent's server side, as a dropped line does.
    pipecat's WebSocket server keeps its one client's socket privately (on its input
    transport); a transport without one cannot be dropped this way."""
    inp = transport.input() if transport is not None else None
    ws = getattr(inp, "_websocket", None)
    if ws is None:
        raise ValueError(
            f"the socket_drop fault needs a WebSocket server transport, not {type(transport).__name__}"
        )
    await ws.close()


def agent_tool_hook(fault: str, llm: Any = None) -> Any:
    """A ``ReferenceLLM.tool_hook`` that injects ``fault`` at the first tool call, then lets
    every later call through (``llm``: the agent's, whose line ``socket_drop`` drops)."""
    fired = False

    async def hook(name: str, args: dict[str, Any], executor: ToolExecutor) -> dict[str, Any]:
        nonlocal fired
        if fired:
            return executor.execute(name, args)
        fired = True
        if fault == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        if fault == "exception":
            raise RuntimeError(f"reference agent's tool handler raised at {name} (injected fault)")
        if fault == "hang":
            await asyncio.Event().wait()  # never set: the agent never answers again
        if fault == "socket_drop":
            await drop_socket(getattr(llm, "transport", None))
            return executor.execute(name, args)
        return tool_fault_result(fault, name, args, executor)

    return hook


def failing_tone(tts: Any) -> Any:
    """The caller's tone voice that raises after its first line (``tts_fail``)."""
    from pipecat.frames.frames import Frame

    from voxbench.pipelines.services.tone import ToneTTSService

    if not isinstance(tts, ToneTTSService):
        raise ValueError("the tts_fail fault needs the caller's tone voice (simulator voice: tone)")

    class FailingToneTTS(ToneTTSService):
        lines = 0

        async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
            self.lines += 1
            if self.lines > 1:
                raise RuntimeError("caller TTS failed (injected fault)")
            async for f in super().run_tts(text, context_id):
                yield f

    return FailingToneTTS(
        f0=tts.f0,
        seconds_per_char=tts.seconds_per_char,
        min_s=tts.min_s,
        max_s=tts.max_s,
        delay_s=tts.delay_s,
    )


def has_live_faults(job: ConversationJob) -> bool:
    agent = job.agent
    agent_faults = agent.faults if isinstance(agent, ReferenceAgent) else ()
    return bool(matching_fault(agent_faults, job) or matching_fault(job.simulator.faults, job))


def apply_live_faults(job: ConversationJob, agent: Any, sim: Any) -> tuple[Any, Any]:
    """The services of a live call with the job's matching faults injected."""
    spec_agent = job.agent
    if isinstance(spec_agent, ReferenceAgent):
        fault = matching_fault(spec_agent.faults, job)
        if fault is not None:
            if fault not in AGENT_FAULTS:
                raise ValueError(
                    f"the reference agent cannot inject {fault!r} (it can: {sorted(AGENT_FAULTS)})"
                )
            agent.llm.tool_hook = agent_tool_hook(fault, agent.llm)
    sim_fault = matching_fault(job.simulator.faults, job)
    if sim_fault == "tts_fail":
        sim = dataclasses.replace(sim, tts=failing_tone(sim.tts))
    elif sim_fault is not None:
        raise ValueError(f"a live caller cannot inject {sim_fault!r} (it can: tts_fail)")
    return agent, sim
