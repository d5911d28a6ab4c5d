"""The caller's TTS playout before and after the silence bound: start delay and gaps of a long line.

    PYTHONPATH=src .venv/bin/python benchmarks/playout_bound.py [--no-kokoro]

A 7-sentence caller line (about 17 s of speech) is released by
:func:`voxbench.pipelines.services.playout.paced_chunks` with ``max_silence_s=inf`` (the rule
as it was: hold until the rest of the line is predicted ready) and with the default bound
(``MAX_SILENCE_S``). The synthesiser is a fake on an injected clock (its time per second of audio
is ``1 / speed``, exact and repeatable) at 0.25x, 0.5x, 1x, 2x and 4x real time, with and
without a fixed 0.3 s per-sentence overhead. Printed per row: the start delay (decision to first
sound), the total silence inside the line and the number of gaps (a gap: the next chunk not
there when the one before has played), whether the chunks are identical, and the harness pauses
the bounded rule reports for the record (``on_pause``: silences past the line's natural length,
before the first word past ``LEAD_IN_S``; count and total seconds).

With Kokoro installed, one real measurement: the same line synthesised by Kokoro on this machine
now (its load average printed), live through the bounded rule, each sentence's synthesis time
recorded; the unbounded rule is then replayed on those recorded times (same synthesis, same
machine, same run).

Not a test: the real row depends on the machine's load.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voxbench.pipelines.services.playout import MAX_SILENCE_S, HeldPause, paced_chunks

RATE = 16_000
BPS = 2 * RATE
SECONDS_PER_CHAR = 0.065  # speech per character of English text (the fake synth's audio length)
LINE = [
    "I need to change my flight.",
    "The confirmation number is Q X 7 T 4 M.",
    "My last name is Whitfield.",
    "I'd like to move the return to November 8, 2026.",
    "The latest I can land in Boston is 8 PM.",
    "I can pay up to 250 dollars extra.",
    "A window seat would be great, if there is one.",
]
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


@dataclass
class Outcome:
    sizes: list[int]
    start_s: float
    gaps: list[float]
    pauses: list[HeldPause]

    @property
    def total_gap_s(self) -> float:
        return sum(self.gaps)

    @property
    def n_gaps(self) -> int:
        return sum(g > 0.0 for g in self.gaps)


class Replay:
    """An injected clock and a synth whose sentence ``i`` takes ``secs[i]`` and makes ``pcm[i]``."""

    def __init__(self, secs: Sequence[float], pcm: Sequence[bytes]) -> None:
        self.t, self.secs, self.pcm = 0.0, secs, pcm

    def now(self) -> float:
        return self.t

    def synth(self, i: int, _text: str) -> bytes:
        self.t += self.secs[i]
        return self.pcm[i]


def play(
    texts: Sequence[str], synth: Callable[[int, str], bytes], now: Callable[[], float], bound: float
) -> Outcome:
    t0 = now()
    sizes, starts, pauses = [], [], []
    for chunk in paced_chunks(texts, synth, BPS, now=now, max_silence_s=bound, on_pause=pauses.append):
        sizes.append(len(chunk))
        starts.append(now() - t0)
    gaps, end = [], starts[0] + sizes[0] / BPS
    for size, at in zip(sizes[1:], starts[1:], strict=True):
        gaps.append(max(at - end, 0.0))
        end = max(end, at) + size / BPS
    return Outcome(sizes, starts[0], gaps, pauses)


def fake(speed: float, overhead_s: float) -> tuple[list[float], list[bytes]]:
    secs = [len(t) * SECONDS_PER_CHAR for t in LINE]
    return [s / speed + overhead_s for s in secs], [bytes(2 * round(s * RATE)) for s in secs]


def row(label: str, before: Outcome, after: Outcome) -> str:
    same = "yes" if before.sizes == after.sizes else "no"
    cells = [
        f"{before.start_s:6.1f}",
        f"{before.total_gap_s:6.1f}",
        f"{before.n_gaps:3d}",
        f"{after.start_s:6.1f}",
        f"{after.total_gap_s:6.1f}",
        f"{after.n_gaps:3d}",
        f"{max([after.start_s, *after.gaps]):6.1f}",
    ]
    recorded = f"{len(after.pauses)}, {sum(p.length_s for p in after.pauses):.1f}"
    return (
        f"| {label} | "
        + " | ".join(cells)
        + f" | {len(before.sizes)} -> {len(after.sizes)} | {same} | {recorded} |"
    )


def kokoro_row() -> str | None:
    from voxbench.localmodels.kokoro import kokoro_installed

    if not kokoro_installed():
        return None
    from voxbench.pipelines.services.kokoro import SENTENCE_PAUSE_S, KokoroSynth, KokoroVoiceParams

    synth = KokoroSynth(KokoroVoiceParams())
    synth.sentence_pcm("Warm up.", RATE)  # the model load is not the line's synthesis
    gap = bytes(2 * round(SENTENCE_PAUSE_S * RATE))
    secs: list[float] = []
    pcm: list[bytes] = []

    def one(i: int, text: str) -> bytes:
        t = time.monotonic()
        out = synth.sentence_pcm(text, RATE) + (gap if i < len(LINE) - 1 else b"")
        secs.append(time.monotonic() - t)
        pcm.append(out)
        return out

    load = os.getloadavg()[0]
    after = play(LINE, one, time.monotonic, MAX_SILENCE_S)  # live, on the wall clock
    load = max(load, os.getloadavg()[0])
    speed = sum(len(p) for p in pcm) / BPS / sum(secs)
    r = Replay(secs, pcm)
    before = play(LINE, r.synth, r.now, math.inf)
    return row(f"Kokoro jm_kumo, {speed:.2f}x, load {load:.1f}", before, after)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-kokoro", action="store_true", help="skip the real Kokoro measurement")
    args = ap.parse_args()
    audio_s = sum(len(t) for t in LINE) * SECONDS_PER_CHAR
    print(f"line: {len(LINE)} sentences, {audio_s:.1f} s of speech (fake synth); bound {MAX_SILENCE_S:g} s")
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    head = "start s | gap s | gaps"
    cols = "longest silence s | chunks | same | harness pauses n, s"
    print(f"| synthesis speed | before: {head} | after: {head} | {cols} |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for overhead in (0.0, 0.3):
        for speed in SPEEDS:
            secs, pcm = fake(speed, overhead)
            a, b = Replay(secs, pcm), Replay(secs, pcm)
            label = f"{speed:g}x real time" + (f" +{overhead:g} s/sentence" if overhead else "")
            print(row(label, play(LINE, a.synth, a.now, math.inf), play(LINE, b.synth, b.now, MAX_SILENCE_S)))
    if not args.no_kokoro:
        real = kokoro_row()
        print(real if real is not None else "(Kokoro not installed: no real measurement)")
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
