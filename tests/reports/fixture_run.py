"""A small real run for report tests: hand-scripted conversations with synthetic audio,
scored by `voxbench.eval.runner.score_run` with a scripted judge.

Two systems (two run folders), two domains, three trials per scenario; one system also
has a perturbed condition. Outcomes come from a seeded generator, so reports are stable.
"""

from __future__ import annotations

import json
import re
import wave
from pathlib import Path
from typing import Any

import numpy as np

from voxbench.eval.judges import JudgeReply
from voxbench.eval.metrics.judged import CONCISE_MODES, FAITH_DIMS, PROG_DIMS
from voxbench.eval.runner import score_run
from voxbench.eval.types import EvalConfig
from voxbench.records import (
    BargeIn,
    ConversationRecord,
    EndEvent,
    Event,
    RunManifest,
    Speech,
    StageTiming,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    Utterance,
    VADEvent,
    Yield,
    atomic_write_json,
    write_record,
)
from voxbench.records.models import AudioFiles

SR = 16000
AGENT = {
    "id": "agent_airline",
    "name": "Test agent",
    "role": "airline agent",
    "instructions": "Help the caller rebook.",
    "tools": [
        {
            "id": "get_reservation",
            "name": "get_reservation",
            "tool_type": "auth",
            "required_parameters": [
                {"name": "confirmation_number", "type": "string"},
                {"name": "last_name", "type": "string"},
            ],
        },
        {
            "id": "rebook_flight",
            "name": "rebook_flight",
            "tool_type": "write",
            "required_parameters": [{"name": "journey_id", "type": "string"}],
        },
    ],
}
INITIAL_DB: dict[str, Any] = {
    "_current_date": "2026-03-01",
    "reservations": {"ZK3FFW": {"flight": "SK1", "seat": "12A"}},
}
EXPECTED_DB: dict[str, Any] = {
    "_current_date": "2026-03-01",
    "reservations": {"ZK3FFW": {"flight": "SK2", "seat": "12A"}},
    "session": {"confirmation_number": "ZK3FFW", "last_name": "rodriguez"},
}
SCENARIOS = {"airline": ["1.1.1", "1.1.2"], "itsm": ["2.1.1"]}
# system -> (task success probability, judge quality 1..3, latency seconds, conditions)
SYSTEMS = {
    "cascade-small": (0.6, 2, 0.9, ("clean", "noise_snr10")),
    "s2s-large": (0.85, 3, 0.55, ("clean",)),
}


class ScriptedJudge:
    """Answers each eval prompt in the shape it asks for, with ratings set by `quality`."""

    def __init__(self, quality: int, model: str = "scripted-judge") -> None:
        self.quality, self.model = quality, model
        self.rng = np.random.default_rng(quality)

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
        # mostly `quality`, sometimes one worse: calls come in a fixed order, so this is stable
        q = max(1, self.quality - int(self.rng.random() < 0.3))
        if "faithfulness" in system:
            why = (
                "It rebooked onto a flight the caller never agreed to."
                if q < 3
                else "Grounded in the tool results."
            )
            dims = {
                d: {
                    "rating": q if i == 0 else 3,
                    "flagged": q < 3 and i == 0,
                    "explanation": why if i == 0 else "",
                }
                for i, d in enumerate(FAITH_DIMS)
            }
            text = json.dumps({"dimensions": dims})
        elif "forward" in system:
            dims = {
                d: {"rating": 3 if i else q, "flagged": q < 3 and i == 0} for i, d in enumerate(PROG_DIMS)
            }
            text = json.dumps({"dimensions": dims, "explanation": "The agent asked one question at a time."})
        elif "simulated caller" in system:
            text = json.dumps({"corruptions": {}, "rating": 1})
        else:
            ids = [int(x) for x in re.findall(r"\d+", user.split("\n", 1)[0])] or list(range(12))
            rate = (0, 1) if "speech synthesis" in system else (1, 2, 3)
            r = rate[-1] if q == 3 else rate[len(rate) // 2]
            text = json.dumps(
                [
                    {"turn_id": t, "rating": r, "failure_modes": [CONCISE_MODES[0]] if r < 3 else []}
                    for t in ids
                ]
            )
        return JudgeReply(text=text, model=self.model, prompt_tokens=10, completion_tokens=5)


def _speechlike(n: int, rng: np.random.Generator, f0: float) -> np.ndarray:
    t = np.arange(n) / SR
    env = 0.55 + 0.45 * np.sin(2 * np.pi * 3.5 * t + rng.uniform(0, 6)) ** 2
    sig = sum(np.sin(2 * np.pi * f0 * h * t) / h for h in (1, 2, 3))
    fade = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.03)
    return 0.25 * env * fade * sig + 0.01 * rng.standard_normal(n)


def _write_wav(path: Path, data: np.ndarray) -> None:
    pcm = (np.clip(data, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1 if data.ndim == 1 else data.shape[1])
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(pcm.tobytes())


def _script(
    lat: float, success: bool, barge: bool, noisy: bool, rng: np.random.Generator
) -> tuple[list[Event], list[tuple[str, float, float]], float]:
    ev: list[Event] = []
    spans: list[tuple[str, float, float]] = []

    def say(ch: str, start: float, end: float, text: str, heard: str) -> None:
        other = "user" if ch == "agent" else "agent"
        if ch == "agent":
            ev.append(TTSText(t=start - 0.2, side="agent", channel="agent", text=text))
        else:
            ev.append(Utterance(t=start - 0.2, side="user", channel="user", text=text))
        ev.extend([Speech(t=start, channel=ch, state="onset"), Speech(t=end, channel=ch, state="offset")])
        ev.extend(
            [
                VADEvent(t=start + 0.15, side=other, channel=ch, state="start"),
                VADEvent(t=end + 0.25, side=other, channel=ch, state="stop"),
            ]
        )
        ev.append(Transcript(t=end + 0.3, side=other, channel=ch, text=heard))
        spans.append((ch, start, end))

    t = 0.3
    say(
        "agent",
        t,
        t + 2.2,
        "Hello, thanks for calling SkyAir. How can I help?",
        "Hello, thanks for calling SkyAir. How can I help?",
    )
    t += 2.2 + 0.7
    heard = "I need to rebook my flight, confirmation ZK3FFW, last name Rodriguez."
    if noisy:
        heard = "I need to rebook my flight, confirmation ZK3 FW, last name Rodrigo."
    say("user", t, t + 3.0, "I need to rebook my flight, confirmation ZK3FFW, last name Rodriguez.", heard)
    t += 3.0
    ev.append(
        ToolCall(
            t=t + 0.3,
            side="agent",
            call_id="c1",
            name="get_reservation",
            arguments={"confirmation_number": "ZK3FFW", "last_name": "rodriguez"},
        )
    )
    ev.append(
        ToolResult(
            t=t + 0.45,
            side="agent",
            call_id="c1",
            name="get_reservation",
            status="success",
            result={"flight": "SK1", "seat": "12A"},
        )
    )
    ev.append(StageTiming(t=t + 0.45, side="agent", stage="tool", seconds=0.15))
    t += lat + 0.5
    a_end = t + 3.2
    say(
        "agent",
        t,
        a_end,
        "I found your booking on SK1. I can move you to SK2 tomorrow at nine. Shall I?",
        "I found your booking on SK1. I can move you to SK2 tomorrow at nine. Shall I?",
    )
    if barge:
        u0 = a_end - 0.9
        ev += [BargeIn(t=u0, channel="user"), Yield(t=u0 + 0.25, side="agent", channel="agent")]
        say("user", u0, u0 + 1.0, "Yes, please do.", "Yes, please do.")
        t = u0 + 1.0
    else:
        t = a_end + 0.6
        say("user", t, t + 1.0, "Yes, please do.", "Yes, please do.")
        t += 1.0
    ev.append(
        ToolCall(
            t=t + 0.3,
            side="agent",
            call_id="c2",
            name="rebook_flight",
            arguments={"journey_id": "SK2" if success else "SK9"},
        )
    )
    ev.append(
        ToolResult(
            t=t + 0.5,
            side="agent",
            call_id="c2",
            name="rebook_flight",
            status="success" if success else "error",
            result={"flight": "SK2"} if success else {"error": "no such flight SK9"},
        )
    )
    t += lat + 0.6
    say(
        "agent",
        t,
        t + 2.4,
        "Done. You are on SK2 tomorrow at nine. Anything else?"
        if success
        else "Sorry, I could not change the flight.",
        "Done. You are on SK2 tomorrow at nine. Anything else?"
        if success
        else "Sorry, I could not change the flight.",
    )
    t += 2.4 + 0.6
    say("user", t, t + 1.0, "No, thank you. Bye.", "No thank you bye.")
    t += 1.0 + lat
    say("agent", t, t + 1.0, "Goodbye!", "Goodbye!")
    t += 1.3
    ev.append(EndEvent(t=t, reason="end_call"))
    return ev, spans, t


def build_run(root: Path, system: str) -> Path:
    p_ok, quality, lat, conditions = SYSTEMS[system]
    rng = np.random.default_rng(len(system) * 7919)
    run = root / system
    atomic_write_json(
        run / "run.json",
        RunManifest(
            run_id=system,
            created_at="2026-12-01T10:00:00Z",
            voxbench_version="0.1.0",
            git_commit="0123456789abcdef",
            config={"agent": {"name": system}},
        ),
    )
    for cond in conditions:
        for domain, scens in SCENARIOS.items():
            for sid in scens:
                for trial in range(3):
                    success = bool(rng.random() < (p_ok - (0.3 if cond != "clean" else 0)))
                    barge = bool(rng.random() < 0.35)
                    ev, spans, dur = _script(
                        lat + rng.uniform(-0.2, 0.4), success, barge, cond != "clean", rng
                    )
                    conv = f"{domain}_{sid}_t{trial}_{cond}"
                    d = run / "records" / conv
                    final = json.loads(
                        json.dumps(
                            EXPECTED_DB if success else {**INITIAL_DB, "session": EXPECTED_DB["session"]}
                        )
                    )
                    rec = ConversationRecord(
                        conversation_id=conv,
                        domain=domain,
                        scenario_id=sid,
                        trial=trial,
                        condition=cond,
                        end_reason="end_call",
                        duration_s=round(dur, 3),
                        agent={"name": system},
                        audio=AudioFiles(sample_rate=SR),
                        num_tool_calls=2,
                    )
                    scen = {
                        "ground_truth": {"expected_scenario_db": EXPECTED_DB},
                        "user_goal": {"high_level_user_goal": "Move the reservation ZK3FFW to flight SK2."},
                    }
                    write_record(d, rec, ev, scen, AGENT, INITIAL_DB, final)
                    n = int(dur * SR) + SR // 2
                    chans = {"user": np.zeros(n), "agent": np.zeros(n)}
                    for ch, a, b in spans:
                        i, j = int(a * SR), int(b * SR)
                        chans[ch][i:j] += _speechlike(j - i, rng, 140.0 if ch == "user" else 210.0)
                    if cond != "clean":
                        chans["user"] += 0.04 * rng.standard_normal(n)
                    _write_wav(d / "user.wav", chans["user"])
                    _write_wav(d / "agent.wav", chans["agent"])
                    _write_wav(d / "mix.wav", np.stack([chans["user"], chans["agent"]], axis=1))
    # one archived failed attempt, as the orchestrator keeps them
    failed = run / "records" / "airline_1.1.1_t0_clean_failed_attempt_0"
    write_record(
        failed,
        ConversationRecord(
            conversation_id="airline_1.1.1_t0_clean",
            domain="airline",
            scenario_id="1.1.1",
            status="infra_failure",
            error="agent websocket closed",
            error_source="agent",
        ),
    )
    score_run(run, EvalConfig(judge=ScriptedJudge(quality)))
    return run


def build_fixture(root: Path) -> list[Path]:
    return [build_run(root, s) for s in SYSTEMS]


if __name__ == "__main__":
    import sys

    print(build_fixture(Path(sys.argv[1])))
