"""The JSON-format LLM caller over the real loopback, its model a fake OpenAI-compatible server.

The caller's real service (``make_caller_llm``) sends real HTTP requests; the fake server
streams scripted ``{"customer_says", "end_call"}`` replies. Checks: the prompt is
warmed before the call, the request framing (transcript from the caller's side, JSON
``response_format``), only the words are spoken and recorded, a hold line gets no reply, and
``end_call`` hangs up after the goodbye was spoken; every act is a ``caller_act`` event.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from tests.fakes.openai_server import FakeChatServer
from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.llm_setup import llm_caller_services
from voxbench.pipelines.caller.turn_json import caller_turn_json
from voxbench.pipelines.config import CallConfig, LLMSimConfig, SimulatorConfig, TurnConfig, VADConfig
from voxbench.pipelines.services import LLMConfig
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import CallerAct, LLMText, ToolCall, Utterance, read_record
from voxbench.transports.virtual_loop import run_virtual

GOODBYE = "No, that's all. Thanks, goodbye."


def _config() -> CallConfig:
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    cfg.simulator = SimulatorConfig(
        kind="llm", vad=vad, llm=LLMSimConfig(turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2))
    )
    return cfg


def _agent(opening: str) -> AgentServices:
    return AgentServices(
        stt=FakeSTT([opening, "383S8U, Park.", GOODBYE]),
        llm=FakeLLM(
            [
                Reply("May I have your confirmation number and last name?"),
                # the hold line, then a tool call; the answer comes after 1.5 s of silence
                Reply(
                    "One moment please.",
                    tool_calls=[("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"})],
                ),
                Reply("I found your booking. Anything else?", delay_s=1.5),
                Reply("Goodbye."),
            ]
        ),
        tts=FakeTTS(f0=120.0),
    )


def test_json_caller_answers_waits_through_a_hold_and_hangs_up_after_goodbye(
    eva_data: Path, tmp_path: Path
) -> None:
    call = call_input(eva_data)
    opening = str(call.resolver.resolve(call.scenario.starting_utterance()))
    heard = ["Hello, how can I help?", "Your confirmation number and last name?", "One moment please."]
    heard += ["I found your booking. Anything else?", "Goodbye."]
    replies = [
        caller_turn_json("(warm-up)"),  # read up to its first chunk before the call starts
        caller_turn_json("383S8U, last name Park."),
        caller_turn_json(GOODBYE, end_call=True),
    ]

    async def the_call() -> tuple[Any, FakeChatServer]:
        async with FakeChatServer(replies) as server:
            llm_cfg = LLMConfig(kind="openai-compatible", base_url=server.base_url, model="fake-caller")
            # each sentence's audio starts 0.8 s after its text: longer than the runner's drain
            # waits for speech to start, so hanging up at end_call (not after the goodbye) would cut it
            tts = FakeTTS(f0=220.0, first_audio_delay_s=0.8, stop_frame_timeout_s=2.0)
            cfg = _config()
            # built configured (brief, guards, record info), as CallSession does
            sim = llm_caller_services(call, cfg.simulator.llm, llm_cfg, tts=tts, stt=FakeSTT(heard))
            return await run_call(call, cfg, _agent(opening), sim, tmp_path), server

    # the fake server answers on the same loop over a real socket: the virtual clock holds
    record, server = run_virtual(the_call())

    assert record.status == "completed", record.error
    assert record.end_reason == "end_call"
    stats = record.simulator.caller_stats
    service = {"turns": 2, "not_json": 0, "echo_retries": 0, "gave_up": 0, "holds_waited": 1}
    assert {k: stats[k] for k in service} == service
    # the driver every caller runs on: four acts, one of them the silent wait through the hold
    assert (stats["acts"], stats["waits"], stats["agent_turns_heard"]) == (4, 1, 4)
    assert record.simulator.caller_unspoken == []
    assert len(record.simulator.prompt_sha256 or "") == 16
    # the whole prompt is kept in the record (voxbench call no longer prints it)
    prompt = read_record(tmp_path).record.simulator.prompt or ""
    assert hashlib.sha256(prompt.encode()).hexdigest()[:16] == record.simulator.prompt_sha256
    ev = read_record(tmp_path).events
    said = [e.text for e in ev if isinstance(e, Utterance)]
    assert said == [opening, "383S8U, last name Park.", GOODBYE]  # words only, never the JSON
    assert not any("customer_says" in e.text for e in ev if isinstance(e, LLMText))
    acts = [(e.kind, e.rule, e.ends_call) for e in ev if isinstance(e, CallerAct) and e.rule]
    assert acts == [
        ("open", "starting_utterance", False),
        ("answer", "model_reply", False),
        ("wait", "agent_hold", False),
        ("end", "model_end_call", True),
    ]
    # end_call is the caller's, not one of the agent's tools
    assert [e.name for e in ev if isinstance(e, ToolCall)] == ["get_reservation"]

    # the warm-up (same system prompt), then two turns: none after the hold line, which shows
    # up in the next transcript
    assert len(server.requests) == 3
    warm, first, second = server.requests
    assert warm["messages"][0] == first["messages"][0]
    assert warm["messages"][1]["content"].startswith("The phone call so far:\nAgent: Hello.")
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["schema"]["required"] == ["customer_says", "end_call"]
    assert "tools" not in first
    roles = [m["role"] for m in first["messages"]]
    assert roles == ["system", "user"]
    assert "customer_says" in first["messages"][0]["content"] and "383S8U" in first["messages"][0]["content"]
    transcript = first["messages"][1]["content"]
    assert f"You: {opening}" in transcript
    assert "Agent: Your confirmation number and last name?" in transcript
    later = second["messages"][1]["content"]
    assert "Agent: One moment please. I found your booking. Anything else?" in later
    # the earlier transcript is a prefix of the later one (llama.cpp reuses the cached prompt)
    assert later.startswith(transcript.split("\n\n")[0])

    # the goodbye (two sentences, two TTS segments) was spoken in full before the call ended
    user_wav, sr = sf.read(tmp_path / "user.wav", dtype="int16")
    segs = detect_segments(np.asarray(user_wav), sr)
    assert len(segs) == 4
    for (start, end), sentence in zip(segs[-2:], ("No, that's all.", "Thanks, goodbye."), strict=True):
        assert abs((end - start) - FakeTTS.duration_of(sentence)) < 0.05
