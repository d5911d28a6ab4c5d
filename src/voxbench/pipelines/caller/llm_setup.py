"""The LLM caller's services, configured in one place when they are built.

Its brief (the scenario prompt, :func:`~voxbench.pipelines.caller.prompt.simulator_prompt`,
plus a perturbation's persona) is the model service's system instruction from construction;
the JSON service's reply guards (:class:`~voxbench.pipelines.caller.llm_service.CallerRules`)
are fixed for the call; the record's view (prompt, its hash, the turn counters the service
and the turn gate fill during the call) is set here too. Nothing is patched onto the service
afterwards: the live pipeline only warms it and runs it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.caller.llm_service import CallerLLMService, CallerRules, make_caller_llm
from voxbench.pipelines.caller.prompt import simulator_prompt
from voxbench.pipelines.services import make_llm
from voxbench.records import ServicePart, SimulatorInfo

if TYPE_CHECKING:
    from voxbench.pipelines.config import LLMSimConfig
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.pipelines.services import LLMConfig


@dataclass(frozen=True)
class CallerBriefing:
    """What the LLM caller is told about its call: the scenario, the caller config (reply
    format, guards) and a perturbation's persona instruction (None: none)."""

    call: CallScenario
    sim: LLMSimConfig
    persona: str | None = None


def caller_brief(
    call: CallScenario, reply_format: Literal["json", "tools"], persona: str | None = None
) -> str:
    """The caller's system prompt: the scenario's brief, then the persona (if any)."""
    return "\n\n".join(p for p in (simulator_prompt(call, reply_format), persona) if p)


def llm_caller_services(
    call: CallScenario,
    sim: LLMSimConfig,
    llm_cfg: LLMConfig,
    *,
    tts: Any,
    stt: Any,
    server: Any = None,
    persona: str | None = None,
    info: SimulatorInfo | None = None,
) -> SimulatorServices:
    """The LLM caller's services for ``call``: its model (``llm_cfg``, on ``server`` when local)
    built with its brief and, in the ``json`` reply format, its guards; ``info`` (the record's
    caller info: voice, STT) completed with the model, the prompt and the turn counters."""
    brief = caller_brief(call, sim.reply_format, persona)
    llm: Any
    if sim.reply_format == "json":
        rules = CallerRules.for_call(call, sim)
        llm = make_caller_llm(llm_cfg, server=server, rules=rules, system_instruction=brief)
    else:
        llm = make_llm(llm_cfg, server=server, system_instruction=brief)
    info = (info or SimulatorInfo(kind="llm")).model_copy()
    model = str(getattr(server, "model", None) or llm_cfg.model)
    info.llm = ServicePart(vendor="local" if llm_cfg.kind == "local" else "openai-compatible", model=model)
    info.reply_format = sim.reply_format
    info.prompt = brief  # in the record, not on the terminal (voxbench call is quiet)
    info.prompt_sha256 = hashlib.sha256(brief.encode()).hexdigest()[:16]
    # shared with the service and the turn gate: filled during the call, written with the record
    info.caller_stats = llm.caller_stats if isinstance(llm, CallerLLMService) else {}
    info.caller_stats.setdefault("holds_waited", 0)
    if isinstance(llm, CallerLLMService):
        info.caller_unspoken = llm.caller_unspoken
    return SimulatorServices(tts=tts, stt=stt, llm=llm, info=info)
