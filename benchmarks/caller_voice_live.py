"""The caller voice in a real offline call: what a slower TTS costs live, on 2 shared cores.

    .venv/bin/python benchmarks/caller_voice_live.py [--voices user-piper,kokoro:jm_kumo] [--lines 4]

For each caller voice, one live call of built-in scenario airline/bb.1 over the loopback
WebSocket: trace-replay caller with that voice -> the offline cascade agent (whisper tiny.en,
Qwen2.5-Coder-0.5B on llama.cpp, Piper joe), all in this process on the same cores. From the
record:

* caller start delay: from the caller deciding a line (Utterance) to its first speech onset,
  i.e. TTS time to first audio under live load (median / max);
* agent cut in: caller lines the agent started talking over (a TTS that falls behind real time
  leaves gaps mid-line, and the agent answers half a line);
* WER of the agent's live transcripts of the caller against what the caller meant to say
  (eval's normaliser), the end-to-end intelligibility through the real audio path;
* the agent's response latency (caller speech offset -> agent speech onset, median), to see
  whether the caller's TTS slows the agent down;
* wall time and process CPU of the call.

Not a test: one call per voice, on a machine others may share (load average printed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from models import table  # noqa: E402


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def analyse(out: Path) -> dict[str, Any]:
    import jiwer

    from voxbench.eval.normalize import normalize_text
    from voxbench.records import Speech, Transcript, Utterance, read_record

    ev = read_record(out).events
    lines = [e for e in ev if isinstance(e, Utterance) and e.channel == "user"]
    onsets = [e.t for e in ev if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    offsets = [e.t for e in ev if isinstance(e, Speech) and e.channel == "user" and e.state == "offset"]
    agent_on = [e.t for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    heard = [e for e in ev if isinstance(e, Transcript) and e.side == "agent" and e.final]
    delays, cut_ins = [], 0
    for i, u in enumerate(lines):
        end = lines[i + 1].t if i + 1 < len(lines) else float("inf")
        ons = [t for t in onsets if u.t <= t < end]
        offs = [t for t in offsets if u.t <= t < end]
        if ons:
            delays.append(ons[0] - u.t)
        # the agent started talking while this line was still being spoken
        if ons and offs and any(ons[0] < t < offs[-1] for t in agent_on):
            cut_ins += 1
    latencies = []
    for off in offsets:
        nxt = next((t for t in agent_on if t > off), None)
        if nxt is not None and nxt - off < 30:
            latencies.append(nxt - off)
    said = normalize_text(" ".join(u.text for u in lines), "en")
    got = normalize_text(" ".join(t.text for t in heard), "en")
    return {
        "lines": len(lines),
        "delay_med": statistics.median(delays) if delays else float("nan"),
        "delay_max": max(delays) if delays else float("nan"),
        "cut_ins": cut_ins,
        "wer": float(jiwer.wer(said, got)) if said and got else float("nan"),
        "agent_latency": statistics.median(latencies) if latencies else float("nan"),
    }


async def one_call(voice: str, server: Any, lines: int, out: Path) -> dict[str, Any]:
    from voxbench.pipelines.bundles import SimulatorServices
    from voxbench.pipelines.call.runner import run_call
    from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig, TraceSimConfig
    from voxbench.pipelines.local_stack import local_agent
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.pipelines.services import TTSConfig, make_tts
    from voxbench.records import ServicePart, SimulatorInfo
    from voxbench.scenarios import load_dataset

    call = CallScenario.from_domain(load_dataset().domains["airline"], "bb.1")
    cfg = CallConfig(
        simulator=SimulatorConfig(kind="trace", trace=TraceSimConfig(max_lines=lines, turn_gap_s=1.0)),
        limits=LimitsConfig(time_limit_s=300, inactivity_s=90),
    )
    tts_cfg = TTSConfig(voice=voice)
    sim = SimulatorServices(
        tts=make_tts(tts_cfg), info=SimulatorInfo(tts=ServicePart(vendor="local", model=tts_cfg.voice_id))
    )
    c0, w0, l0 = _cpu(), time.monotonic(), os.getloadavg()[0]
    record = await run_call(call, cfg, local_agent(server), sim, out)
    wall, cpu = time.monotonic() - w0, _cpu() - c0
    stats = analyse(out)
    stats.update(
        voice=tts_cfg.voice_id,
        status=record.status,
        wall=wall,
        cpu=cpu,
        load=f"{l0:.2f}->{os.getloadavg()[0]:.2f}",
    )
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voices", default="user-piper,kokoro:jm_kumo")
    ap.add_argument("--lines", type=int, default=4, help="caller lines per call")
    ap.add_argument("--keep", type=Path, default=None, help="keep the record directories here")
    a = ap.parse_args()

    from voxbench.pipelines.local_stack import start_llm_server

    print(
        f"machine: {os.cpu_count()} CPUs; load avg at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    server = start_llm_server()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as d:
            root = a.keep or Path(d)
            for i, voice in enumerate(v.strip() for v in a.voices.split(",") if v.strip()):
                s = asyncio.run(one_call(voice, server, a.lines, root / f"c{i}-{voice.replace(':', '_')}"))
                print(f"  {voice}: {s['status']} in {s['wall']:.0f} s", flush=True)
                rows.append(
                    [
                        s["voice"],
                        s["status"],
                        s["lines"],
                        s["delay_med"],
                        s["delay_max"],
                        s["cut_ins"],
                        s["wer"],
                        s["agent_latency"],
                        s["wall"],
                        s["cpu"],
                        s["load"],
                    ]
                )
    finally:
        server.stop()
    table(
        "Caller voice in a live offline call (airline/bb.1, trace caller, cascade-local agent)",
        [
            "caller voice",
            "status",
            "lines",
            "start delay med s",
            "max s",
            "agent cut in",
            "agent-heard WER",
            "agent latency med s",
            "wall s",
            "CPU s",
            "load1",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
