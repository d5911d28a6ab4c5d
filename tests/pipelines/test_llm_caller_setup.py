"""The LLM caller is configured in one place, when its services are built: its brief (the
scenario prompt and a condition's persona) is the model's system instruction from
construction, its guards are fixed, and the record's caller info is complete before the call;
nothing is patched onto the service afterwards."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.fakes.services import FakeTTS
from voxbench.pipelines.call.session import CallSession
from voxbench.pipelines.call.spec import CallSeeds, CallSpec, ConversationRef, ReferenceAgent, SimulatorSpec
from voxbench.pipelines.caller.llm_service import CallerLLMService
from voxbench.pipelines.caller.llm_setup import CallerBriefing, caller_brief, llm_caller_services
from voxbench.pipelines.caller.prompt import simulator_prompt
from voxbench.pipelines.config import LLMSimConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services import LLMConfig
from voxbench.processors.perturbations import persona_instruction, resolve_condition
from voxbench.scenarios import load_dataset

FAKE_ENDPOINT = LLMConfig(kind="openai-compatible", base_url="http://127.0.0.1:9/v1", model="fake-caller")


def _call() -> CallScenario:
    return CallScenario.from_domain(load_dataset(None, ["airline"]).domains["airline"], "bb.1")


def test_the_json_caller_is_built_with_its_brief_guards_and_record_info() -> None:
    call = _call()
    sim = LLMSimConfig(give_up_after_says=3)
    persona = persona_instruction(resolve_condition("impatient").behavior)
    assert persona
    services = llm_caller_services(call, sim, FAKE_ENDPOINT, tts=FakeTTS(), stt=None, persona=persona)
    llm = services.llm
    assert isinstance(llm, CallerLLMService)
    brief = caller_brief(call, "json", persona)
    assert brief == simulator_prompt(call, "json") + "\n\n" + persona
    assert llm.settings.system_instruction == brief  # the model's own setting, from construction
    assert llm.rules.give_up is not None and llm.rules.give_up.max_says == 3
    info = services.info
    assert info.prompt == brief and info.prompt_sha256 == hashlib.sha256(brief.encode()).hexdigest()[:16]
    assert info.reply_format == "json" and info.llm is not None and info.llm.model == "fake-caller"
    assert info.caller_stats is llm.caller_stats and info.caller_stats["holds_waited"] == 0
    assert info.caller_unspoken is llm.caller_unspoken


def test_the_tools_caller_gets_the_tools_brief() -> None:
    call = _call()
    services = llm_caller_services(
        call, LLMSimConfig(reply_format="tools"), FAKE_ENDPOINT, tts=FakeTTS(), stt=None
    )
    assert services.llm is not None and not isinstance(services.llm, CallerLLMService)
    assert services.llm.settings.system_instruction == simulator_prompt(call, "tools")
    assert services.info.caller_stats == {"holds_waited": 0}


def test_the_session_briefs_the_caller_with_the_condition_persona(tmp_path: Path) -> None:
    def spec(condition: str) -> CallSpec:
        conv = ConversationRef(conversation_id="x", domain="airline", scenario_id="bb.1", condition=condition)
        return CallSpec(
            conversation=conv,
            agent=ReferenceAgent(voice="tone"),
            simulator=SimulatorSpec(kind="llm", voice="tone"),
            perturbation=resolve_condition(condition),
            seeds=CallSeeds.derive(7, conv, perturbed=condition != "clean"),
        )

    call = _call()
    impatient = CallSession(spec("impatient"), tmp_path)._briefing(call)
    assert isinstance(impatient, CallerBriefing) and impatient.call is call
    assert impatient.persona == persona_instruction(resolve_condition("impatient").behavior)
    assert CallSession(spec("clean"), tmp_path)._briefing(call).persona is None
