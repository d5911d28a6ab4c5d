"""gapless_chunks: a line never runs dry once it starts playing, on a simulated clock.

The synthesiser is a plain function that advances a fake clock by ``rtf`` seconds per second of
audio it makes (plus a fixed per-call overhead), so fast and slow machines are both exact.
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.services.playout import gapless_chunks

BPS = 2 * 16_000  # PCM16 mono 16 kHz
SECONDS_PER_CHAR = 0.065  # about how long speech lasts per character of English text


class Machine:
    """A clock and a synthesiser whose speed is ``rtf`` (+ ``overhead_s`` per call)."""

    def __init__(self, rtf: float, overhead_s: float = 0.0) -> None:
        self.t = 0.0
        self.rtf = rtf
        self.overhead_s = overhead_s

    def now(self) -> float:
        return self.t

    def synth(self, i: int, text: str) -> bytes:
        secs = len(text) * SECONDS_PER_CHAR
        self.t += self.rtf * secs + self.overhead_s
        return bytes(2 * round(secs * 16_000))


def play(texts: list[str], m: Machine) -> tuple[list[int], float, float]:
    """(bytes per chunk, start delay, longest silence between chunks) of one line."""
    sizes, starts = [], []
    for chunk in gapless_chunks(texts, m.synth, BPS, now=m.now):
        sizes.append(len(chunk))
        starts.append(m.t)
    play_end, worst = starts[0], 0.0
    for size, at in zip(sizes, starts, strict=True):
        worst = max(worst, at - play_end)
        play_end = max(play_end, at) + size / BPS
    return sizes, starts[0], worst


LINE = ["Hi.", "I'd like to add a checked bag to my flight, please.", "My code is Q X 7 T 4 M."]


def test_fast_synthesis_streams_one_chunk_per_sentence() -> None:
    sizes, delay, gap = play(["I'd like to add a checked bag to my flight.", *LINE[1:]], Machine(rtf=0.1))
    assert len(sizes) == 3
    assert gap == 0.0
    assert delay == pytest.approx(0.1 * 43 * SECONDS_PER_CHAR)  # only the first sentence


@pytest.mark.parametrize("rtf", [0.35, 0.8, 1.5, 3.0])
@pytest.mark.parametrize("overhead", [0.0, 0.4])
def test_no_silence_mid_line_at_any_speed(rtf: float, overhead: float) -> None:
    sizes, _, gap = play(LINE, Machine(rtf, overhead))
    assert gap == 0.0
    assert sum(sizes) == sum(2 * round(len(t) * SECONDS_PER_CHAR * 16_000) for t in LINE)


def test_short_first_sentence_is_held_until_the_next_is_ready() -> None:
    # "Hi." plays for 0.2 s; the next sentence takes 1.2 s to make at RTF 0.35: released together
    sizes, _, gap = play(LINE[:2], Machine(rtf=0.35))
    assert len(sizes) == 1 and gap == 0.0


def test_slow_machine_holds_the_whole_line() -> None:
    sizes, delay, gap = play(LINE, Machine(rtf=3.0))
    assert len(sizes) == 1 and gap == 0.0
    assert delay == pytest.approx(3.0 * sum(len(t) for t in LINE) * SECONDS_PER_CHAR)


def test_single_and_empty_lines() -> None:
    assert play(["Yes."], Machine(rtf=0.5))[0] == [2 * round(4 * SECONDS_PER_CHAR * 16_000)]
    assert list(gapless_chunks([], Machine(0.5).synth, BPS)) == []
