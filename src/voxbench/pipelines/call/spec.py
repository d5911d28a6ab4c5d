"""Everything one call needs, resolved once by its driver: the :class:`CallSpec`.

A driver (`voxbench call`, `voxbench talk`, the orchestrator) turns what a person typed
(a profile name, profile files, overrides, a condition name, a scenario id) into one frozen,
typed spec; whoever runs the call reads only the spec. It serialises whole into the
orchestrator's ``job.json``, so a worker process, a Ray node or a person debugging a record
sees exactly what the call was made of. Pure pydantic: no pipecat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.caller.registry import DEFAULT_CALLER
from voxbench.pipelines.config import CallConfig, CallerKind
from voxbench.pipelines.services import SIMULATOR_LLM, LLMConfig
from voxbench.processors.perturbations import Condition, resolve_condition
from voxbench.records.seeds import attempt_seed, conversation_seed, perturbation_seed


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


FaultKind = Literal[
    "crash",
    "exception",
    "hang",
    "socket_drop",
    "invalid",
    "tool_bad_json",
    "tool_unknown",
    "tool_wrong_type",
    "tool_raises",
    "tts_fail",
    "disk_full",
]
"""Injected faults (``orchestrator/scripted.py`` and ``orchestrator/live_faults.py`` say what
each does): the process dying, raising or hanging, a dropped socket, an invalid simulation,
a malformed or failing tool call, the caller's TTS failing, the disk full at the record."""


class Fault(_Frozen):
    """An injected fault of a test or benchmark run, matched on the fields that are set."""

    fault: FaultKind
    domain: str | None = None
    scenario_id: str | None = None
    trial: int | None = None
    condition: str | None = None
    attempt: int | None = None

    def matches(self, conv: ConversationRef) -> bool:
        keys = ("domain", "scenario_id", "trial", "condition", "attempt")
        return all(getattr(self, k) in (None, getattr(conv, k)) for k in keys)


class ScriptedAgent(_Frozen):
    """The no-audio scripted agent (``voxbench.orchestrator.scripted``): orchestration tests and
    overhead benchmarks. Knobs: sleep or a paced audio loop of ``duration_s``, CPU per chunk,
    a count file (one line per attempt) and injected faults."""

    profile: Literal["scripted"] = "scripted"
    duration_s: float = Field(default=0.0, ge=0)
    paced: bool = False
    cpu_ms_per_chunk: float = Field(default=0.0, ge=0)
    count_file: str | None = None
    faults: tuple[Fault, ...] = ()


class ReferenceAgent(_Frozen):
    """The scenario's reference conversation spoken live as the agent (``--agent reference``,
    ``pipelines/agent/reference.py``): it needs the scenario, not a profile."""

    profile: Literal["reference"] = "reference"
    voice: str = Field(default="agent", description="tone, or any voice name a TTSConfig takes")
    faults: tuple[Fault, ...] = Field(
        default=(), description="injected faults (tests, benchmarks/fault_matrix.py): at its first tool call"
    )


def _agent_tag(v: Any) -> str:
    profile = v.get("profile") if isinstance(v, Mapping) else getattr(v, "profile", None)
    return profile if profile in ("scripted", "reference") else "profile"


AgentSpec = Annotated[
    Annotated[ScriptedAgent, Tag("scripted")]
    | Annotated[ReferenceAgent, Tag("reference")]
    | Annotated[AgentProfile, Tag("profile")],
    Discriminator(_agent_tag),
]
"""The agent of a call: a resolved profile, the reference agent, or the scripted stand-in."""


class SimulatorSpec(_Frozen):
    """The simulated caller: a kind of the caller registry (``pipelines/caller/registry.py``:
    ``goal``, the default, decides by the scenario's decision tree with no LLM; ``trace``
    replays the reference lines; ``llm`` is an LLM caller, its model resolved here). ``llm``
    given as a partial mapping overrides the default caller model field by field, the same way
    in every driver. The no-audio scripted agent runs without a caller (its records say
    ``kind: scripted``); ``faults`` are its injected faults."""

    kind: CallerKind = DEFAULT_CALLER
    llm: LLMConfig = SIMULATOR_LLM
    reply_format: Literal["json", "tools"] | None = Field(
        default=None, description="LLM caller's reply format; None keeps the call config's"
    )
    voice: str | None = Field(
        default=None,
        description="the caller's voice: a TTS voice name (user-piper, kokoro:jm_kumo...) or 'tone' "
        "(model-free synthetic voice, 220 Hz); None: the default caller voice. A condition's accent "
        "voice replaces it",
    )
    faults: tuple[Fault, ...] = ()

    @field_validator("voice")
    @classmethod
    def _known_voice(cls, v: str | None) -> str | None:
        if v is not None and v != "tone":
            from voxbench.pipelines.services.tts import resolve_voice

            resolve_voice(v)  # an unknown name fails here, naming the known ones
        return v

    @model_validator(mode="before")
    @classmethod
    def _merge_llm(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and isinstance(data.get("llm"), Mapping):
            base = SIMULATOR_LLM.model_dump(exclude_unset=True)
            data = {**data, "llm": LLMConfig.model_validate({**base, **data["llm"]})}
        return data


class PersonSpec(_Frozen):
    """A person as the caller (``voxbench talk``): on the browser page, the machine's
    microphone and speaker, or an audio client on the loopback WebSocket (a scripted person in
    tests). The driver supplies the person's transport when the call runs."""

    kind: Literal["human"] = "human"
    interface: Literal["browser-webrtc", "local-audio", "loopback-websocket"]


def _caller_tag(v: Any) -> str:
    kind = v.get("kind") if isinstance(v, Mapping) else getattr(v, "kind", None)
    return "human" if kind == "human" else "simulated"


CallerSpec = Annotated[
    Annotated[SimulatorSpec, Tag("simulated")] | Annotated[PersonSpec, Tag("human")],
    Discriminator(_caller_tag),
]
"""Who calls the agent: a simulated caller, or a person."""


class ConversationRef(_Frozen):
    """Which conversation and attempt a call is: its coordinates in a run."""

    conversation_id: str
    dataset: str | None = Field(default=None, description="EVA-format folder; None = built-in data")
    domain: str
    scenario_id: str
    lang: str = "en"
    trial: int = 0
    condition: str = "clean"
    attempt: int = 0


class CallSeeds(_Frozen):
    """Every seed of a call, all from :mod:`voxbench.records.seeds`."""

    conversation: int
    attempt: int
    perturbation: int | None = None

    @classmethod
    def derive(cls, run_seed: int, conv: ConversationRef, perturbed: bool) -> CallSeeds:
        base = conversation_seed(run_seed, conv.domain, conv.scenario_id, conv.trial, conv.condition)
        att = attempt_seed(base, conv.attempt)
        pert = None
        if perturbed:
            pert = perturbation_seed(
                conv.scenario_id, conv.trial, conv.condition, att if conv.attempt else None
            )
        return cls(conversation=base, attempt=att, perturbation=pert)

    def record(self) -> dict[str, int]:
        out = {"conversation": self.conversation, "attempt": self.attempt}
        return out | ({} if self.perturbation is None else {"perturbation": self.perturbation})


class CallIdentity(_Frozen):
    """What a record says a call was: its coordinates and seeds (the part of a spec the runner
    writes into ``record.json``)."""

    conversation: ConversationRef
    seeds: CallSeeds | None = None


class CallSpec(_Frozen):
    """One call, fully resolved: scenario reference, agent, caller, perturbation, the call's
    behaviour (wire, limits, VAD, turn-taking; :class:`CallConfig`), seeds and attempt."""

    conversation: ConversationRef
    agent: AgentSpec
    simulator: CallerSpec = Field(default_factory=SimulatorSpec)
    perturbation: Condition = Field(default_factory=lambda: resolve_condition("clean"))
    call: CallConfig = Field(default_factory=CallConfig)
    seeds: CallSeeds

    @property
    def identity(self) -> CallIdentity:
        return CallIdentity(conversation=self.conversation, seeds=self.seeds)

    @property
    def profile(self) -> AgentProfile:
        """The agent profile of a live call (a scripted agent has none)."""
        if not isinstance(self.agent, AgentProfile):
            raise TypeError(f"the {self.agent.profile} agent has no profile")
        return self.agent

    @property
    def simulated(self) -> SimulatorSpec:
        """The simulated caller of the call (a person's call has none)."""
        if not isinstance(self.simulator, SimulatorSpec):
            raise TypeError("a person's call has no simulated caller")
        return self.simulator


def live_call_config(base: CallConfig, sim: SimulatorSpec, lang: str, time_limit_s: float) -> CallConfig:
    """``base`` with what the driver decided: language, time limit, caller kind and reply format."""
    sim_cfg = base.simulator.model_copy(update={"kind": sim.kind})
    if sim.reply_format is not None:
        llm = sim_cfg.llm.model_copy(update={"reply_format": sim.reply_format})
        sim_cfg = sim_cfg.model_copy(update={"llm": llm})
    limits = base.limits.model_copy(update={"time_limit_s": time_limit_s})
    return base.model_copy(update={"lang": lang, "simulator": sim_cfg, "limits": limits})
