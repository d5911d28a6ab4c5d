"""The typed CallSpec: resolved once by a driver, serialised whole into job.json."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.jobs import ConversationJob, expand, make_job
from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.agent.selection import resolve_agent_choice
from voxbench.pipelines.call.spec import CallSpec, ScriptedAgent
from voxbench.pipelines.services import SIMULATOR_LLM, LLMConfig
from voxbench.records.seeds import derive_seed, perturbation_seed
from voxbench.scenarios import load_dataset


def _live(tmp_path: Path, **over: object) -> RunConfig:
    body: dict[str, object] = {
        "agent": {"profile": "cascade-local", "llm": {"temperature": 0.3}, "stt": {"model": "base"}},
        "simulator": {"kind": "llm", "llm": {"max_tokens": 99}, "reply_format": "tools"},
        "conditions": {"clean": {}, "noisy": {"base": "noise"}},
        "time_limit_s": 42,
        "call": {"limits": {"inactivity_s": 9}},
        "out": str(tmp_path),
    }
    body.update(over)
    return RunConfig.model_validate(body)


def test_overrides_resolve_like_a_profile_file_entry(tmp_path: Path) -> None:
    cfg = _live(tmp_path)
    assert isinstance(cfg.agent, AgentProfile) and isinstance(cfg.agent.llm, LLMConfig)
    assert cfg.agent.llm.temperature == 0.3
    assert cfg.agent.llm.say_then_tool  # the rest of cascade-local's LLM is kept
    assert cfg.agent.stt is not None and cfg.agent.stt.model == "base"
    yaml = tmp_path / "p.yaml"
    yaml.write_text("mine:\n  base: cascade-local\n  llm: {temperature: 0.3}\n  stt: {model: base}\n")
    from_file = resolve_agent_choice({"profile": "mine", "profile_files": [str(yaml)]})
    assert from_file.model_dump(exclude={"name"}) == cfg.agent.model_dump(exclude={"name"})
    assert cfg.simulator.llm == SIMULATOR_LLM.model_copy(update={"max_tokens": 99})


def test_unknown_agent_keys_and_profiles_fail_at_load(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="unknown keys"):
        RunConfig.model_validate({"agent": {"profile": "cascade-local", "lmm": {}}})
    with pytest.raises(ValidationError, match="unknown agent profile"):
        RunConfig.model_validate({"agent": {"profile": "no-such-agent"}})
    with pytest.raises(ValidationError):
        RunConfig.model_validate({"conditions": {"noisy": {"snr_db": 10}}})


def test_job_round_trips_and_resolves_the_call_once(tmp_path: Path) -> None:
    cfg = _live(tmp_path)
    spec = next(s for s in expand(cfg, load_dataset(None)) if s.condition == "noisy")
    job = make_job(cfg, "r", spec, 1, tmp_path / "stage", port=0)
    again = ConversationJob.model_validate_json(job.model_dump_json())
    assert again == job and isinstance(again.spec, CallSpec)
    call = job.spec.call
    assert (call.limits.time_limit_s, call.limits.inactivity_s) == (42, 9)
    assert call.simulator.kind == "llm" and call.simulator.llm.reply_format == "tools"
    assert job.perturbation.name == "noisy" and job.perturbation.ops
    seeds = job.spec.seeds
    assert seeds.conversation == spec.base_seed and seeds.attempt == spec.attempt_seed(1)
    assert seeds.perturbation == perturbation_seed(spec.scenario_id, spec.trial, "noisy", seeds.attempt)


def test_one_seed_derivation_keeps_the_perturbation_seeds() -> None:
    # the perturbation seed of (airline_001, 0, noise) is what it was before seeds were unified
    assert perturbation_seed("airline_001", 0, "noise") == derive_seed(
        "voxbench.perturbations.v1", "airline_001", 0, "noise"
    )
    assert derive_seed("a", 1, "bc") != derive_seed("ab", 1, "c")


def test_scripted_agent_stays_scripted() -> None:
    cfg = RunConfig.model_validate({"agent": {"profile": "scripted", "duration_s": 0.1}})
    assert isinstance(cfg.agent, ScriptedAgent) and cfg.resolved_conversation_fn() == "scripted"
    assert RunConfig.model_validate(cfg.model_dump(mode="json")) == cfg


def test_a_person_is_a_caller_spec_that_round_trips() -> None:
    """`voxbench talk`'s spec: a person as the caller survives JSON, and has no simulated caller."""
    from voxbench.pipelines.agent.profiles import get_profile
    from voxbench.pipelines.call.spec import CallSeeds, ConversationRef, PersonSpec, SimulatorSpec

    ref = ConversationRef(conversation_id="airline-bb.1-human-x", domain="airline", scenario_id="bb.1")
    spec = CallSpec(
        conversation=ref,
        agent=get_profile("cascade-local"),
        simulator=PersonSpec(interface="browser-webrtc"),
        seeds=CallSeeds.derive(0, ref, perturbed=False),
    )
    back = CallSpec.model_validate_json(spec.model_dump_json())
    assert back == spec and isinstance(back.simulator, PersonSpec)
    with pytest.raises(TypeError, match="person's call has no simulated caller"):
        _ = back.simulated
    assert isinstance(
        CallSpec.model_validate({**spec.model_dump(), "simulator": {}}).simulator, SimulatorSpec
    )
    with pytest.raises(ValidationError, match="interface"):
        PersonSpec(interface="telepathy")  # type: ignore[arg-type]


def test_the_callers_voice_is_checked_when_the_spec_is_made() -> None:
    from voxbench.pipelines.call.spec import SimulatorSpec

    assert SimulatorSpec(kind="trace", voice="tone").voice == "tone"
    assert SimulatorSpec(kind="trace", voice="user-piper").voice == "user-piper"
    with pytest.raises(ValidationError, match=r"unknown TTS voice 'robot'; known voices: agent"):
        SimulatorSpec(kind="trace", voice="robot")


def test_an_uncalled_talk_folder_is_removed_and_a_record_is_kept(tmp_path: Path) -> None:
    from voxbench.cli.talk import _drop_empty

    empty = tmp_path / "nobody"
    empty.mkdir()
    (empty / "call.log").write_text("log")
    (empty / "stage.txt").write_text("in the call")
    _drop_empty(empty)
    assert not empty.exists()
    kept = tmp_path / "called"
    kept.mkdir()
    (kept / "call.log").write_text("log")
    (kept / "record.json").write_text("{}")
    _drop_empty(kept)
    assert sorted(p.name for p in kept.iterdir()) == ["call.log", "record.json"]
