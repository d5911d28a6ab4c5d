"""Are dollar amounts heard as said after the local voices read them?

    PYTHONPATH=src .venv/bin/python benchmarks/tts_amounts.py [--data ../shared/eva-data] [--voice user-piper]

Every distinct amount written with a dollar sign in EVA's datasets (goals, facts, tool data)
is put in a sentence the caller could say ("I was told it would be $15.", "There is a $15 fee."),
spoken by a local voice from the text as written (before) and as ``spoken.money.said_amounts``
rewrites it (after), transcribed by the caller-side recogniser (faster-whisper tiny.en), and
the amounts in the transcript are compared with the written one (``spoken.money.money``).
Prints heard-right counts per sentence frame, before and after, and the load average.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import numpy as np

from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber
from voxbench.pipelines.services.tts import resolve_voice
from voxbench.spoken.money import money, said_amounts

FRAMES = ("I was told it would be {}.", "There is a {} fee on it.")


def amounts(data: Path) -> list[str]:
    found: set[str] = set()
    for f in sorted((data / "data").glob("*_dataset.json")):
        found |= set(re.findall(r"\$\d[\d,]*(?:\.\d{1,2})?(?<!,)", f.read_text(encoding="utf-8")))
    return sorted(found, key=lambda a: float(a[1:].replace(",", "")))


def synth_for(voice: str):
    params = resolve_voice(voice)
    if voice.startswith("kokoro"):
        from voxbench.pipelines.services.kokoro import KokoroSynth

        return KokoroSynth(params)
    from voxbench.pipelines.services.tts import PiperSynth

    return PiperSynth(params)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path("../shared/eva-data"))
    ap.add_argument("--voice", default="user-piper")
    args = ap.parse_args()
    stt = WhisperTranscriber(WhisperOptions(model="tiny.en", cpu_threads=1))
    synth = synth_for(args.voice)
    values = amounts(args.data)
    right = {(f, w): 0 for f in FRAMES for w in ("before", "after")}
    misheard: list[str] = []
    for value in values:
        want = float(value[1:].replace(",", ""))
        for frame in FRAMES:
            text = frame.format(value)
            for when, said in (("before", text), ("after", said_amounts(text))):
                pcm = synth.synthesize(said, 16000)
                heard = stt.transcribe(np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0, 16000)
                ok = want in money(heard)
                right[frame, when] += ok
                if not ok and when == "after":
                    misheard.append(f"{said!r} -> {heard.strip()!r}")
    print(f"voice {args.voice}; {len(values)} amounts; load average {os.getloadavg()[0]:.1f}")
    print(f"{'sentence':34} {'before':>8} {'after':>8}")
    for frame in FRAMES:
        print(
            f"{frame:34} {right[frame, 'before']:>4}/{len(values):<3} {right[frame, 'after']:>4}/{len(values):<3}"
        )
    for line in misheard:
        print("  after, misheard:", line)


if __name__ == "__main__":
    main()
