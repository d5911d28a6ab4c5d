"""Done-when of issue 9: a person's call from the browser page, end to end to a scored record.

Headless Chromium plays a WAV file as its microphone (`--use-file-for-fake-audio-capture`);
the page calls the agent over WebRTC (aiortc on the server); the agent runs on fake
services (scripted, seconds); the person hangs up and rates the call; `voxbench.eval`
scores the record. The variant with the real offline stack is slow-marked.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.talk.helpers import buzz_segments, chromium_path, fake_mic_flags, write_mic_wav
from voxbench.pipelines.agent.profiles import get_profile
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.call.session import CallSession
from voxbench.pipelines.call.spec import CallSeeds, CallSpec, ConversationRef, PersonSpec
from voxbench.pipelines.config import AgentConfig, CallConfig, LimitsConfig, TurnConfig, VADConfig
from voxbench.pipelines.human.talk import TalkCall, scenario_card
from voxbench.records import AgentInfo, HumanRating, Speech, ToolCall, Transcript, read_record
from voxbench.scenarios import check_task_completion

SR = 16000
USER_LINES = [
    "Hi, I'd like to add a checked bag to my flight.",
    "It's Q X 7 T 4 M, and the last name is Whitfield.",
    "Just one.",
    "No, that's all. Thanks, bye.",
]
ONSETS = [3.0, 8.0, 13.0, 18.0]  # in the WAV; each 1.0 s of voiced buzz


def fake_agent() -> AgentServices:
    script = [
        Reply("Sure. What's your confirmation code and last name?"),
        Reply(tool_calls=[("get_reservation", {"confirmation_number": "QX7T4M", "last_name": "Whitfield"})]),
        Reply("Thanks, I have your flight from Denver to Seattle. How many checked bags?"),
        Reply(
            tool_calls=[
                (
                    "add_baggage_allowance",
                    {"confirmation_number": "QX7T4M", "journey_id": "FL_BB212_20260506", "num_bags": 1},
                )
            ]
        ),
        Reply("Done, one checked bag is now on your flight. Anything else?"),
        Reply("You're welcome. Goodbye!"),
    ]
    return AgentServices(
        stt=FakeSTT(USER_LINES),
        llm=FakeLLM(script),
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake-cascade"),
    )


def talk_call(
    out: Path, services: Any = None, cfg: CallConfig | None = None, interface: str = "browser-webrtc"
) -> TalkCall:
    """A person's call on bb.1 through CallSession, as `voxbench talk` makes it; ``services``
    injected instead of the cascade-local profile's."""
    ref = ConversationRef(conversation_id="airline-bb.1-human-test", domain="airline", scenario_id="bb.1")
    spec = CallSpec(
        conversation=ref,
        agent=get_profile("cascade-local"),
        simulator=PersonSpec(interface=interface),  # type: ignore[arg-type]
        call=cfg or fast_config(),
        seeds=CallSeeds.derive(0, ref, perturbed=False),
    )
    return TalkCall(CallSession(spec, out), agent_services=services)


def fast_config() -> CallConfig:
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    return CallConfig(
        agent=AgentConfig(vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2), warm_up=False),
        limits=LimitsConfig(time_limit_s=120, inactivity_s=40, drain_s=2),
        post_call_transcribe_agent=False,  # as `voxbench talk` (cli/talk.py: talk_config)
    )


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("VOXBENCH_SCREENSHOT_DIR") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


async def browser_call(
    tmp_path: Path,
    talk: TalkCall,
    mic_wav: Path,
    wait_for_agent_text: str | None,
    timeout_s: float,
    shots: Path,
    wait_s: float = 0.0,
) -> tuple[Any, list[str]]:
    """Serve the page, call from headless Chromium, hang up, rate; returns (record, page lines)."""
    from playwright.async_api import async_playwright

    from voxbench.cli.talk import score_talk_record
    from voxbench.pipelines.human.talk_web import TalkPageOptions, serve_talk

    exe = chromium_path()
    url_fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def rated(path: Path, _rec: object) -> dict:
        return await asyncio.to_thread(score_talk_record, path)

    server = asyncio.create_task(
        serve_talk(
            talk,
            scenario_card(talk.call),
            TalkPageOptions(raw_mic=True, offer_timeout_s=timeout_s, rating_timeout_s=timeout_s),
            on_ready=url_fut.set_result,
            on_rated=rated,
        )
    )
    url = await asyncio.wait_for(url_fut, timeout=timeout_s)
    async with async_playwright() as p:
        ctx = await p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=str(exe),
            headless=True,
            args=fake_mic_flags(mic_wav),
            viewport={"width": 1200, "height": 860},
        )
        try:
            page = ctx.pages[0] if ctx.pages else await ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            await page.goto(url)
            await page.wait_for_selector("#goal:not(:empty)")
            await page.screenshot(path=str(shots / "talk-ready.png"))
            await page.click("#call-btn")
            await page.wait_for_selector("body[data-state=live]", timeout=timeout_s * 1000)
            if wait_for_agent_text is not None:
                await page.wait_for_function(
                    "t => [...document.querySelectorAll('#transcript li.agent')].some(li => li.textContent.includes(t))",
                    arg=wait_for_agent_text,
                    timeout=timeout_s * 1000,
                )
            await asyncio.sleep(wait_s)
            await asyncio.sleep(1.0)
            await page.screenshot(path=str(shots / "talk-in-call.png"))
            lines = await page.eval_on_selector_all(
                "#transcript li", "els => els.map(e => e.className + ': ' + e.textContent)"
            )
            await page.click("#hangup-btn")
            await page.wait_for_selector("#rating:not([hidden])", timeout=timeout_s * 1000)
            await page.check("input[name=task_done][value=yes]")
            await page.check("input[name=natural][value='3']")
            await page.fill("textarea[name=comment]", "fake-mic test call")
            await page.screenshot(path=str(shots / "talk-rating.png"))
            await page.click("#rate-btn")
            await page.wait_for_selector("body[data-state=rated]", timeout=timeout_s * 1000)
            await page.screenshot(path=str(shots / "talk-saved.png"), full_page=True)
            assert not errors, errors
        finally:
            await ctx.close()
    record = await asyncio.wait_for(server, timeout=timeout_s)
    return record, lines


@pytest.mark.timeout(240)
async def test_browser_call_fake_mic_to_scored_record(tmp_path: Path) -> None:
    chromium_path()
    wav = write_mic_wav(tmp_path / "mic.wav", buzz_segments(ONSETS, 1.0, SR), total_s=23.0, sr=SR)
    out = tmp_path / "record"
    talk = talk_call(out, fake_agent())
    record, lines = await browser_call(
        tmp_path, talk, wav, "Goodbye", timeout_s=90, shots=shots_dir(tmp_path)
    )

    # the page showed the live transcript: the person's four lines and the agent's answers
    text = "\n".join(lines)
    assert "user: You" + USER_LINES[0] in text.replace("\n", " ") or USER_LINES[0] in text
    assert "Goodbye" in text and "agent looked up / changed: add_baggage_allowance" in text

    # the record: a completed call the person ended, with their rating
    assert record is not None and record.status == "completed", record and record.error
    assert record.end_reason == "end_call"
    assert record.simulator.kind == "human" and record.simulator.interface == "browser-webrtc"
    assert record.human_rating == HumanRating(task_done=True, natural=3, comment="fake-mic test call")
    b = read_record(out)
    assert b.record.human_rating == record.human_rating

    # the user side is the person's audio: four onsets, 5 s apart as in the WAV
    onsets = [e.t for e in b.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(onsets) == 4, onsets
    assert np.allclose(np.diff(onsets), np.diff(ONSETS), atol=0.15), onsets
    user, sr = sf.read(out / "user.wav", dtype="int16")
    agent, _ = sf.read(out / "agent.wav", dtype="int16")
    assert sr == SR and np.abs(user).max() > 2000 and np.abs(agent).max() > 2000
    for t in onsets:  # the audio on disk has the speech where the events say
        seg = user[int(t * sr) + 1600 : int(t * sr) + 4800].astype(float)
        assert np.sqrt(np.mean(seg**2)) > 500
    agent_onsets = [
        e.t for e in b.events if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"
    ]
    assert len(agent_onsets) >= 5  # greeting, answers, "one moment"
    heard = [e.text for e in b.events if isinstance(e, Transcript) and e.channel == "user"]
    assert heard == USER_LINES
    assert [e.name for e in b.events if isinstance(e, ToolCall)] == [
        "get_reservation",
        "add_baggage_allowance",
    ]

    # scored like a simulated call
    tc = check_task_completion(b.scenario["ground_truth"]["expected_scenario_db"], b.final_db)
    assert tc.success
    assert (out / "metrics.json").is_file() and (out / "metrics_summary.json").is_file()
    m = json.loads((out / "metrics.json").read_text())
    assert m["status"] == "completed"
    assert m["metrics"]["task_completion"]["score"] == 1.0
    assert m["metrics"]["conversation_valid_end"]["score"] == 1.0
    assert "user_behavioral_fidelity" not in m["metrics"]


async def test_denied_microphone_shows_a_clear_error(tmp_path: Path) -> None:
    """No fake-UI flag and no grant: getUserMedia is refused; the page says what to do."""
    exe = chromium_path()
    from playwright.async_api import async_playwright

    from tests.pipelines.talk.helpers import HEADLESS_FLAGS
    from voxbench.pipelines.human.talk_web import TalkWebServer

    talk = talk_call(tmp_path / "rec", fake_agent())
    server = TalkWebServer(talk, scenario_card(talk.call), port=0)
    url = await server.start()
    try:
        async with async_playwright() as p:
            ctx = await p.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=str(exe), headless=True, args=HEADLESS_FLAGS
            )
            try:
                page = ctx.pages[0] if ctx.pages else await ctx.new_page()
                await page.goto(url)
                await page.wait_for_selector("#goal:not(:empty)")
                await page.click("#call-btn")
                await page.wait_for_selector("#error:not([hidden])", timeout=30000)
                msg = await page.text_content("#error")
                await page.screenshot(path=str(shots_dir(tmp_path) / "talk-denied.png"))
            finally:
                await ctx.close()
    finally:
        await server.stop()
    assert msg is not None and ("permission was denied" in msg or "No microphone was found" in msg), msg
    assert not talk.started  # no call, no record
    assert not (tmp_path / "rec" / "record.json").exists()


@pytest.mark.slow
@pytest.mark.timeout(1200)
async def test_browser_call_real_local_stack(tmp_path: Path) -> None:
    """The same page and flow with the offline agent (whisper + llama.cpp + Piper); the mic
    WAV is Piper's user voice saying the reference lines with long pauses for the agent."""
    chromium_path()
    from voxbench.pipelines.services.tts import PiperSynth, resolve_piper_voice

    synth = PiperSynth(resolve_piper_voice("user-piper"))
    segs, t = [], 4.0
    for line in USER_LINES:
        pcm = np.frombuffer(synth.synthesize(line, SR), dtype=np.int16)
        segs.append((t, pcm))
        t += pcm.size / SR + 22.0
    wav = write_mic_wav(tmp_path / "mic.wav", segs, total_s=t, sr=SR)
    # the session builds the cascade-local agent and owns its llama.cpp server, as `voxbench talk`
    cfg = CallConfig(limits=LimitsConfig(time_limit_s=t + 60, inactivity_s=60, drain_s=4))
    talk = talk_call(tmp_path / "record", cfg=cfg)
    record, lines = await browser_call(
        tmp_path, talk, wav, None, timeout_s=t + 120, shots=shots_dir(tmp_path), wait_s=t + 5
    )
    assert record is not None and record.status == "completed", record and record.error
    assert any(line.startswith("agent") for line in lines)
    b = read_record(tmp_path / "record")
    heard = " ".join(e.text for e in b.events if isinstance(e, Transcript) and e.channel == "user").lower()
    assert "bag" in heard, heard
    m = json.loads((tmp_path / "record" / "metrics.json").read_text())
    assert m["metrics"]["conversation_valid_end"]["score"] == 1.0
