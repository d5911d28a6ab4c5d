"""Done-when of issue 9: a person's call from the browser page, end to end to a scored record.

Headless Chromium plays a WAV file as its microphone (`--use-file-for-fake-audio-capture`);
the page calls the agent over WebRTC (aiortc on the server); the agent runs on fake
services (scripted, seconds); the person hangs up and rates the call; `voxbench.eval`
scores the record. The variant with the real offline stack is slow-marked.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.talk.helpers import buzz_segments, chromium_path, fake_mic_flags, write_mic_wav
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.config import AgentConfig, CallConfig, LimitsConfig, TurnConfig, VADConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.talk import TalkCall, scenario_card
from voxbench.records import HumanRating, Speech, ToolCall, Transcript, read_record
from voxbench.scenarios import check_task_completion, load_dataset

SR = 16000
USER_LINES = [
    "Hi, I'd like to add a checked bag to my flight.",
    "It's Q X 7 T 4 M, and the last name is Whitfield.",
    "Just one.",
    "No, that's all. Thanks, bye.",
]
ONSETS = [3.0, 8.0, 13.0, 18.0]  # in the WAV; each 1.0 s of voiced buzz


def bb1() -> CallScenario:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, "bb.1")


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
        stt=FakeSTT(USER_LINES), llm=FakeLLM(script), tts=FakeTTS(f0=120.0), info={"name": "fake-cascade"}
    )


def fast_config() -> CallConfig:
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    return CallConfig(
        agent=AgentConfig(vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2), warm_up=False),
        limits=LimitsConfig(time_limit_s=120, inactivity_s=40, drain_s=2),
    )


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("VOXBENCH_SCREENSHOT_DIR") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


async def browser_call(
    tmp_path: Path,
    talk: TalkCall,
    mic_wav: Path,
    wait_for_agent_text: str,
    timeout_s: float,
    shots: Path,
) -> tuple[object, list[str]]:
    """Serve the page, call from headless Chromium, hang up, rate; returns (record, page lines)."""
    from playwright.async_api import async_playwright

    from voxbench.cli.talk import score_talk_record
    from voxbench.pipelines.talk_web import serve_talk

    exe = chromium_path()
    url_fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def rated(path: Path, _rec: object) -> dict:
        return await asyncio.to_thread(score_talk_record, path)

    server = asyncio.create_task(
        serve_talk(
            talk,
            scenario_card(talk.call),
            port=0,
            raw_mic=True,
            on_ready=url_fut.set_result,
            on_rated=rated,
            offer_timeout_s=timeout_s,
            rating_timeout_s=timeout_s,
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
            await page.wait_for_function(
                "t => [...document.querySelectorAll('#transcript li.agent')].some(li => li.textContent.includes(t))",
                arg=wait_for_agent_text,
                timeout=timeout_s * 1000,
            )
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
    talk = TalkCall(bb1(), fast_config(), fake_agent(), out, interface="browser-webrtc")
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
    assert record.simulator["kind"] == "human" and record.simulator["interface"] == "browser-webrtc"
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
    import json

    m = json.loads((out / "metrics.json").read_text())
    assert m["status"] == "completed"
    assert m["metrics"]["task_completion"]["score"] == 1.0
    assert m["metrics"]["conversation_valid_end"]["score"] == 1.0
    assert "user_behavioral_fidelity" not in m["metrics"]
