"""Speed of every local model voxbench ships, on this machine; prints tables and a summary.

    .venv/bin/python benchmarks/models.py [--quick] [--threads N] [--only tts|stt|llm]

* TTS: Piper joe (agent voice, pitch-shifted caller voice) and the five Kokoro voices: load
  time, RTF = synth time / audio duration (median of 3, output 16 kHz).
* STT (faster-whisper int8 beam 5): tiny.en and base: load time, RTF over utterances spoken by
  the agent's voice and by the default caller voice, and how many key entities survived.
* LLM (llama.cpp via xllamacpp): Qwen2.5-Coder-0.5B and -1.5B Q4_K_M: load time, time to first
  token, generation tokens/s, prompt tokens/s cold vs with the prefix cached, and tool-call
  success through the JSON-text adapter (6 requests).

Every row carries the 1-minute load average when it was measured: the machine may be shared,
and anything else running skews every number. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voxbench.pipelines.services.tts import make_synth, resolve_voice

SUMMARY: list[list[Any]] = []
"""One row per model for the closing table: model, load s, speed, load avg."""

RATE = 16_000
TTS_SENTENCE = "Hello, I am calling because I need to change my flight to Boston next Tuesday."
UTTERANCES = [
    ("My confirmation code is K 7 X 9 P 2.", "k7x9p2"),
    ("My employee ID is 4 4 7 1 9.", "44719"),
    ("I want to rebook flight UA 123 on March 5th.", "ua123"),
    ("Please call me back at 5 5 5, 8 6 7, 5 3 0 9.", "5558675309"),
    ("No, I said Tuesday, not Thursday.", "tuesday"),
]
TOOL_CASES = [
    (
        "My confirmation code is K7X9P2, can you find my booking?",
        "lookup_booking",
        {"confirmation_code": "K7X9P2"},
    ),
    ("Please move flight UA123 to March 5th.", "rebook_flight", {"flight_number": "UA123"}),
    ("Look up booking ABC123 please.", "lookup_booking", {"confirmation_code": "ABC123"}),
    ("I need flight DL456 changed to April 11.", "rebook_flight", {"flight_number": "DL456"}),
    ("Can you check reservation Q2W3E4?", "lookup_booking", {"confirmation_code": "Q2W3E4"}),
    ("I want to talk to a human, this is ridiculous.", "transfer_to_agent", {}),
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_booking",
            "description": "Look up a booking by its confirmation code.",
            "parameters": {
                "type": "object",
                "properties": {"confirmation_code": {"type": "string"}},
                "required": ["confirmation_code"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "rebook_flight",
            "description": "Move a flight to a new date.",
            "parameters": {
                "type": "object",
                "properties": {"flight_number": {"type": "string"}, "date": {"type": "string"}},
                "required": ["flight_number", "date"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "transfer_to_agent",
            "description": "Transfer the caller to a human agent.",
            "parameters": {
                "type": "object",
                "properties": {"reason": {"type": "string"}},
                "required": ["reason"],
            },
        },
    },
]
POLICY = " ".join(
    f"Policy rule {i}: verify the caller's identity with the confirmation code before any change, "
    "never invent flights, read back codes letter by letter, and keep answers short."
    for i in range(1, 31)
)


def table(title: str, header: list[str], rows: list[list[Any]]) -> None:
    cells = [header] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n## {title}")
    print(" | ".join(h.ljust(w) for h, w in zip(cells[0], widths, strict=True)))
    print("-+-".join("-" * w for w in widths))
    for r in cells[1:]:
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


def _load1() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def tts_voices() -> list[str]:
    from voxbench.localmodels.kokoro import KOKORO_VOICES, kokoro_installed

    voices = ["agent", "user-piper"]
    if kokoro_installed():
        voices += [f"kokoro:{v}" for v in KOKORO_VOICES]
    return voices


def bench_tts(threads: int | None, repeats: int) -> dict[str, Any]:
    rows = []
    synths: dict[str, Any] = {}
    kokoro_loaded = False
    kokoro_rtf: dict[str, float] = {}
    kokoro_load = 0.0
    for voice in tts_voices():
        if voice.startswith("kokoro:") and not kokoro_loaded:
            from voxbench.localmodels.kokoro import kokoro_model_path

            kokoro_model_path()  # first use assembles + hashes the parts; not part of "load s"
        t0 = time.perf_counter()
        synth = make_synth(voice, n_threads=threads)
        load = time.perf_counter() - t0
        shared = voice.startswith("kokoro:") and kokoro_loaded
        kokoro_loaded = kokoro_loaded or voice.startswith("kokoro:")
        synth.synthesize("Warm up.", RATE)
        times, dur = [], 0.0
        for _ in range(repeats):
            t0 = time.perf_counter()
            pcm = synth.synthesize(TTS_SENTENCE, RATE)
            times.append(time.perf_counter() - t0)
            dur = len(pcm) / 2 / RATE
        med = statistics.median(times)
        load_cell = "(shared)" if shared else load
        rows.append([synth.params.voice_id, load_cell, dur, med, med / dur, _load1()])
        if voice.startswith("kokoro:"):
            kokoro_rtf[synth.params.voice_id] = med / dur
            kokoro_load = kokoro_load if shared else load
        else:
            SUMMARY.append(
                [f"TTS Piper joe-medium ({synth.params.voice_id})", load, f"RTF {med / dur:.3f}", _load1()]
            )
        synths[voice] = synth
    if kokoro_rtf:
        caller = resolve_voice("user").voice_id
        spread = (
            f"{min(kokoro_rtf.values()):.3f}-{max(kokoro_rtf.values()):.3f} over {len(kokoro_rtf)} voices"
        )
        speed = (
            f"RTF {kokoro_rtf[caller]:.3f} ({caller}), {spread}" if caller in kokoro_rtf else f"RTF {spread}"
        )
        SUMMARY.append(
            ["TTS Kokoro-82M int8 (load includes a warm-up synthesis)", kokoro_load, speed, _load1()]
        )
    table(
        "TTS (15-word sentence, output 16 kHz; Kokoro voices share one loaded model)",
        ["voice", "load s", "audio s", "synth s", "RTF", "load1"],
        rows,
    )
    return synths


def _norm(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", text.lower()))


def bench_stt(voices: dict[str, Any], threads: int | None) -> None:
    from voxbench.pipelines.services._assets import ModelAssetError, whisper_base_dir
    from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber

    def clip(synth: Any, text: str) -> np.ndarray:
        return np.frombuffer(synth.synthesize(text, RATE), "<i2").astype(np.float32) / 32768

    sets = {name: [(clip(syn, t), key) for t, key in UTTERANCES] for name, syn in voices.items()}
    rows = []
    for model in ("tiny.en", "base"):
        try:
            if model == "base":
                t0 = time.perf_counter()
                whisper_base_dir()  # first use assembles the two parts; not part of "load s"
                print(f"whisper base assembled/checked in {time.perf_counter() - t0:.2f} s")
            t0 = time.perf_counter()
            tr = WhisperTranscriber(WhisperOptions(model=model, cpu_threads=threads))
            load = time.perf_counter() - t0
        except ModelAssetError as e:
            rows.append([model, "-", "-", "-", "-", "-", f"not installed ({str(e)[:40]}...)", _load1()])
            continue
        first = next(iter(sets.values()))
        tr.transcribe(first[0][0])  # warm-up
        total_audio, elapsed, hits = 0.0, 0.0, []
        for name, clips in sets.items():
            total_audio += sum(len(c) for c, _ in clips) / RATE
            t0 = time.perf_counter()
            ok = sum(key in _norm(tr.transcribe(c)) for c, key in clips)
            elapsed += time.perf_counter() - t0
            hits.append(f"{name} {ok}/{len(clips)}")
        n = sum(len(c) for c in sets.values())
        rows.append([model, load, total_audio, elapsed / n, elapsed / total_audio, "; ".join(hits), _load1()])
        SUMMARY.append(
            [f"STT faster-whisper {model} int8 beam 5", load, f"RTF {elapsed / total_audio:.3f}", _load1()]
        )
    table(
        "STT (faster-whisper int8 beam 5, 16 kHz; utterances spoken by each voice)",
        ["model", "load s", "audio s", "s/utt", "RTF", "entities", "load1"],
        rows,
    )


def _stream(base_url: str, body: dict[str, Any]) -> tuple[float, str, dict[str, Any]]:
    """POST a streaming chat completion; returns (ttft s, text, final timings)."""
    import urllib.request

    req = urllib.request.Request(
        base_url + "/chat/completions",
        data=json.dumps({**body, "stream": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    t0 = time.perf_counter()
    ttft = -1.0
    text, timings = "", {}
    with urllib.request.urlopen(req) as resp:
        for raw in resp:
            line = raw.decode().strip()
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            msg = json.loads(line[6:])
            timings = msg.get("timings") or timings
            for ch in msg.get("choices") or []:
                piece = (ch.get("delta") or {}).get("content")
                if piece:
                    if ttft < 0:
                        ttft = time.perf_counter() - t0
                    text += piece
    return ttft, text, timings


async def _tool_success(base_url: str, model: str) -> tuple[int, int, list[str]]:
    from openai import AsyncOpenAI

    from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream

    client = AsyncOpenAI(base_url=base_url, api_key="sk-local")
    ok, converted, notes = 0, 0, []
    for text, want, args in TOOL_CASES:
        stream = await client.chat.completions.create(
            model=model,
            messages=[
                {
                    "role": "system",
                    "content": "You are an airline phone agent. Call a tool when one applies.",
                },
                {"role": "user", "content": text},
            ],
            tools=TOOLS,  # type: ignore[arg-type]
            temperature=0,
            max_tokens=64,
            stream=True,
        )
        adapter = ToolCallTextAdapterStream(stream, {t["function"]["name"] for t in TOOLS})  # type: ignore[index]
        name, arg_text = None, ""
        async for chunk in adapter:
            for call in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
                name = call.function.name if call.function else name
                arg_text += (call.function.arguments or "") if call.function else ""
        converted += bool(adapter.converted)
        got = json.loads(arg_text) if arg_text else {}
        good = name == want and all(str(got.get(k, "")).upper() == v.upper() for k, v in args.items())
        ok += good
        if not good:
            notes.append(f"{text[:30]!r} -> {name} {got}")
    await client.close()
    return ok, converted, notes


def bench_llm(threads: int | None, model: str) -> None:
    import asyncio

    from voxbench.localmodels import llm_gguf
    from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings, default_threads

    srv = LocalLLMServer(LocalLLMSettings(model=model, n_ctx=4096, n_threads=threads))
    srv.model_path = llm_gguf(srv.spec)  # first use assembles + hashes; not part of "load s"
    with srv:
        base = srv.base_url
        _stream(base, {"model": srv.model, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 4})
        rows = []
        long_msgs = [
            {"role": "system", "content": POLICY},
            {"role": "user", "content": "Hi, I need to change my flight. What do you need from me?"},
        ]
        for label, msgs in (
            ("short prompt", [{"role": "user", "content": "Tell me a two sentence story about a plane."}]),
            ("policy prompt, cold", long_msgs),
            (
                "policy prompt, prefix cached",
                [*long_msgs[:1], {"role": "user", "content": "And what is your name?"}],
            ),
        ):
            ttft, _, tm = _stream(
                base, {"model": srv.model, "messages": msgs, "max_tokens": 64, "temperature": 0}
            )
            rows.append(
                [
                    label,
                    int(tm.get("prompt_n", 0)),
                    int(tm.get("cache_n", 0)),
                    float(tm.get("prompt_per_second", 0.0)),
                    ttft,
                    int(tm.get("predicted_n", 0)),
                    float(tm.get("predicted_per_second", 0.0)),
                    _load1(),
                ]
            )
        table(
            f"LLM ({srv.spec.filename}, llama.cpp, {threads or default_threads()} threads, load {srv.load_secs:.2f} s)",
            [
                "request",
                "prompt tok",
                "cached tok",
                "prompt tok/s",
                "TTFT s",
                "gen tok",
                "gen tok/s",
                "load1",
            ],
            rows,
        )
        short, cold = rows[0], rows[1]
        SUMMARY.append(
            [
                f"LLM {srv.spec.alias}",
                float(srv.load_secs or 0.0),
                f"gen {short[6]:.1f} tok/s, TTFT {short[4]:.2f} s short / {cold[4]:.2f} s "
                f"{cold[1]}-tok prompt cold, prompt {cold[3]:.0f} tok/s",
                _load1(),
            ]
        )
        t0 = time.perf_counter()
        ok, converted, notes = asyncio.run(_tool_success(base, srv.model))
        el = time.perf_counter() - t0
        table(
            f"LLM tool calls ({srv.spec.key}, 3 tools, JSON-text adapter)",
            ["requests", "correct", "converted from text", "total s"],
            [[len(TOOL_CASES), ok, converted, el]],
        )
        for n in notes:
            print("  miss:", n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--threads", type=int, default=None, help="threads per model (default: each module's default)"
    )
    ap.add_argument(
        "--llm-threads", type=int, default=None, help="llama.cpp threads (default: half the cores)"
    )
    ap.add_argument("--quick", action="store_true", help="1 TTS repeat, skip nothing else")
    ap.add_argument("--only", choices=["tts", "stt", "llm"], default=None)
    ap.add_argument(
        "--llm-models",
        default="qwen2.5-coder-0.5b,qwen2.5-coder-1.5b",
        help="comma-separated bundled LLMs to measure (installed ones only)",
    )
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs; threads={a.threads or 'default'}; load avg {_load()}")
    synths = bench_tts(a.threads, 1 if a.quick else 3) if a.only in (None, "tts", "stt") else {}
    if a.only in (None, "stt"):
        caller = resolve_voice("user").voice_id
        picked = {"agent": synths["agent"]}
        picked.update({k: v for k, v in synths.items() if v.params.voice_id == caller and k != "agent"})
        if len(picked) == 1:
            picked["user"] = make_synth("user", n_threads=a.threads)
        bench_stt(picked, a.threads)
    if a.only in (None, "llm"):
        from voxbench.localmodels import llm_installed
        from voxbench.pipelines.services.llm import LOCAL_MODELS

        for model in [m.strip() for m in a.llm_models.split(",") if m.strip()]:
            if not llm_installed(LOCAL_MODELS[model]):
                print(f"\n{model}: not installed ({LOCAL_MODELS[model].install_hint()[:60]}...)")
                continue
            bench_llm(a.llm_threads or a.threads, model)
    table(
        "Every local model (load time excludes first-use assembly of part packages)",
        ["model", "load s", "speed", "load1"],
        SUMMARY,
    )
    print(f"\nload avg at end {_load()} (other processes on the machine skew every number above)")


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


if __name__ == "__main__":
    main()
