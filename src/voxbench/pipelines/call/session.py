"""One call from its :class:`~voxbench.pipelines.call.spec.CallSpec`: the only way in.

`voxbench call`, `voxbench talk`, `voxbench selftest` and the orchestrator's worker are thin
drivers: each resolves a spec and hands it here. The session owns the model servers of the call (the agent's llama.cpp
server when its profile runs a local LLM, the LLM caller's own), builds the agent's and the
caller's services from the spec alone, runs the call and lets the runner write
``record.json`` once, with the spec's coordinates and seeds already in it. Tests inject
fake services instead and get the same record path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voxbench.pipelines.call.spec import CallSpec, SimulatorSpec
from voxbench.records import ConversationRecord
from voxbench.records.stage import note_stage

if TYPE_CHECKING:
    from voxbench.pipelines.call.endpoint import CallerEndpoint


@dataclass
class CallSession:
    """Run ``spec`` into ``out_dir``; ``perturbation_kw`` reaches :class:`CallPerturbation`
    (``clip_synth``, ``babble_provider``: how injected caller acts and babble are voiced)."""

    spec: CallSpec
    out_dir: Path
    perturbation_kw: dict[str, Any] = field(default_factory=dict)
    _servers: list[Any] = field(default_factory=list, init=False, repr=False)

    def scenario(self) -> Any:
        """The scenario of the call (a ``CallScenario``), loaded from the spec's reference."""
        from voxbench.pipelines.scenario_input import CallScenario
        from voxbench.scenarios import load_dataset

        ref = self.spec.conversation
        dd = load_dataset(ref.dataset, [ref.domain]).domains[ref.domain]
        return CallScenario.from_domain(dd, ref.scenario_id, ref.lang)

    def perturbation(self) -> Any:
        """The spec's condition with its seed as a ``CallPerturbation``; None when clean."""
        from voxbench.pipelines.caller.side import CallPerturbation

        seed = self.spec.seeds.perturbation
        if self.spec.perturbation.is_clean or seed is None:
            return None
        return CallPerturbation(self.spec.perturbation, seed, **self.perturbation_kw)

    async def run(
        self,
        agent_services: Any = None,
        sim_services: Any = None,
        call: Any = None,
        caller: CallerEndpoint | None = None,
        clock: Any = None,
    ) -> ConversationRecord:
        """Run the call. Services not given are built from the spec (servers started here and
        stopped before returning, while the event loop still runs: an abandoned request fails
        fast instead of generating on). ``caller``: the other end of the line when it is not a
        simulated caller built from the spec (a person's, ``human/person.py``); ``clock``: a
        ``ConversationClock`` shared with a harness (benchmarks stamp ground truth on it)."""
        from voxbench.pipelines.call.runner import run_call, run_live_call

        if caller is None and not isinstance(self.spec.simulator, SimulatorSpec):
            raise ValueError("a person's call runs with the person's endpoint (voxbench talk)")
        call = call or self.scenario()
        try:
            agent = agent_services if agent_services is not None else self._agent_services(call)
            if caller is not None:
                return await run_live_call(
                    call, self.spec.call, agent, caller, self.out_dir, self.spec.identity
                )
            sim = sim_services if sim_services is not None else self._simulator_services(call)
            return await run_call(
                call,
                self.spec.call,
                agent,
                sim,
                self.out_dir,
                self.spec.identity,
                clock,
                self.perturbation(),
            )
        finally:
            await self.stop_servers()

    def build_services(self, call: Any) -> tuple[Any, Any]:
        """The agent's and the simulated caller's services from the spec (any model server
        owned by this session), for a harness that loads them before a common start and then
        hands them to :meth:`run`."""
        return self._agent_services(call), self._simulator_services(call)

    async def stop_servers(self) -> None:
        for srv in self._servers:
            await srv.astop()
        self._servers = []

    def _agent_services(self, call: Any) -> Any:
        """The profile's services, its local LLM (if any) on a server this session owns; or
        the reference agent, built from the scenario."""
        from voxbench.pipelines.agent.builder import build_agent_services
        from voxbench.pipelines.agent.profiles import preflight
        from voxbench.pipelines.agent.selection import local_llm_config, reference_agent
        from voxbench.pipelines.call.spec import ReferenceAgent
        from voxbench.pipelines.local_stack import start_llm_server

        if isinstance(self.spec.agent, ReferenceAgent):
            return reference_agent(call, self.spec.agent.voice)

        profile = self.spec.profile
        preflight(profile)
        llm = local_llm_config(profile)
        if llm is not None:
            note_stage(self.out_dir, f"starting the agent's local LLM ({llm.local_model}, llama.cpp)")
        server = self._own(start_llm_server(llm)) if llm is not None else None
        note_stage(self.out_dir, f"loading the agent's models ({profile.name}: STT, LLM client, TTS)")
        return build_agent_services(profile, server=server, check=False)

    def _simulator_services(self, call: Any) -> Any:
        """The caller's services by its registry entry; a caller with its own model gets its
        own server (one llama.cpp per model) and is built configured for this call: its brief
        (with the perturbation's persona) and reply guards (``caller/llm_setup.py``)."""
        from voxbench.pipelines.caller.registry import caller_entry
        from voxbench.pipelines.local_stack import local_simulator, start_simulator_llm_server

        sim = self.spec.simulated
        own_llm = caller_entry(sim.kind).own_llm
        note_stage(self.out_dir, f"loading the caller's models ({sim.kind} caller)")
        server = self._own(start_simulator_llm_server(sim.llm)) if own_llm else None
        return local_simulator(
            sim.kind,
            server,
            sim.llm,
            self.spec.perturbation.voice_id,
            voice=sim.voice,
            briefing=self._briefing(call) if own_llm else None,
        )

    def _briefing(self, call: Any) -> Any:
        """What the LLM caller is told: the scenario, its config, the condition's persona."""
        from voxbench.pipelines.caller.llm_setup import CallerBriefing
        from voxbench.processors.perturbations import persona_instruction

        pert = self.spec.perturbation
        persona = None if pert.is_clean else persona_instruction(pert.behavior)
        return CallerBriefing(call, self.spec.call.simulator.llm, persona)

    def _own(self, server: Any) -> Any:
        if server is not None:
            self._servers.append(server)
        return server
