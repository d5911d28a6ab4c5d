"""The services a pipeline needs, injected by the caller (real, cloud or fake)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pipecat.services.llm_service import LLMService
from pipecat.services.stt_service import STTService
from pipecat.services.tts_service import TTSService

from voxbench.localmodels.prompt_cache import PromptCache
from voxbench.records import AgentInfo, SimulatorInfo


@dataclass
class AgentServices:
    stt: STTService
    llm: LLMService
    tts: TTSService
    info: AgentInfo = field(default_factory=AgentInfo)  # which models; copied into the record
    prompt_cache: PromptCache | None = None  # a local LLM's warm prompt, saved between calls


@dataclass
class SimulatorServices:
    """The trace simulator needs only `tts`; the LLM simulator also `stt` and `llm`."""

    tts: TTSService
    stt: STTService | None = None
    llm: LLMService | None = None
    info: SimulatorInfo = field(default_factory=SimulatorInfo)


AgentFactory = Callable[[], AgentServices]
SimulatorFactory = Callable[[], SimulatorServices]
