"""paced_chunks on a simulated clock: no gap while synthesis keeps up; when it does not, the line
starts within the bound and every silence falls at a sentence boundary and stays within it.

The synthesiser is a plain function that advances a fake clock by ``rtf`` seconds per second of
audio it makes (plus a fixed per-call overhead), so fast and slow machines are both exact. The
contract changed on purpose: it used to be "no gap at any speed", which on a slow machine held
a long line for tens of seconds (34 s live) and ended the call on inactivity; that rule is still
``max_silence_s=math.inf`` and is checked here as the reference for fast machines.

Every silence past its natural length is reported (``on_pause``): the reports are checked against
the silences the same play-out model computes from the chunks alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

import pytest

from voxbench.pipelines.caller.timing import SILENT_TTS_S
from voxbench.pipelines.services.playout import HeldPause, paced_chunks
from voxbench.records.voice import LEAD_IN_S, MAX_SILENCE_S

BPS = 2 * 16_000  # PCM16 mono 16 kHz
SECONDS_PER_CHAR = 0.065  # about how long speech lasts per character of English text


class Machine:
    """A clock and a synthesiser whose speed is ``rtf`` (+ ``overhead_s`` per call)."""

    def __init__(self, rtf: float, overhead_s: float = 0.0) -> None:
        self.t = 0.0
        self.rtf = rtf
        self.overhead_s = overhead_s
        self.made: list[int] = []  # bytes of each sentence, in order

    def now(self) -> float:
        return self.t

    def synth(self, i: int, text: str) -> bytes:
        secs = len(text) * SECONDS_PER_CHAR
        self.t += self.rtf * secs + self.overhead_s
        pcm = bytes(2 * round(secs * 16_000))
        self.made.append(len(pcm))
        return pcm


@dataclass
class Played:
    sizes: list[int]  # bytes per chunk
    start_delay: float  # from the decision (t=0) to the first sound
    gaps: list[float]  # silence before each later chunk (0.0: it followed on at once)
    sentence_ends: list[int]  # byte offsets where sentences end
    starts: list[float]  # when each chunk was yielded
    pauses: list[HeldPause]  # what paced_chunks reported

    @property
    def first_sentences(self) -> list[int]:
        """Index of the first sentence of each chunk."""
        return [sum(1 for e in self.sentence_ends if e <= end) for end in [0, *self.chunk_ends[:-1]]]

    @property
    def chunk_ends(self) -> list[int]:
        return list(accumulate(self.sizes))

    @property
    def silences(self) -> list[float]:
        return [self.start_delay, *self.gaps]


def play(texts: list[str], m: Machine, max_silence_s: float = MAX_SILENCE_S) -> Played:
    """Play one line: each chunk starts when yielded or when the one before has played."""
    sizes, starts, pauses = [], [], []
    chunks = paced_chunks(texts, m.synth, BPS, now=m.now, max_silence_s=max_silence_s, on_pause=pauses.append)
    for chunk in chunks:
        sizes.append(len(chunk))
        starts.append(m.t)
    gaps, play_end = [], starts[0] + sizes[0] / BPS
    for size, at in zip(sizes[1:], starts[1:], strict=True):
        gaps.append(max(at - play_end, 0.0))
        play_end = max(play_end, at) + size / BPS
    return Played(sizes, starts[0], gaps, list(accumulate(m.made)), starts, pauses)


LINE = ["Hi.", "I'd like to add a checked bag to my flight, please.", "My code is Q X 7 T 4 M."]
LONG = [
    "I need to change my flight.",
    "The confirmation number is Q X 7 T 4 M.",
    "My last name is Whitfield.",
    "I'd like to move the return to November 8, 2026.",
    "The latest I can land in Boston is 8 PM.",
    "I can pay up to 250 dollars extra.",
    "A window seat would be great, if there is one.",
]


def audio_bytes(texts: list[str]) -> int:
    return sum(2 * round(len(t) * SECONDS_PER_CHAR * 16_000) for t in texts)


# -- faster than real time: nothing changes -------------------------------------------------


@pytest.mark.parametrize("rtf", [0.1, 0.25, 0.35, 0.5, 0.8])
@pytest.mark.parametrize("overhead", [0.0, 0.1])
@pytest.mark.parametrize("line", [LINE, LONG], ids=["short", "long"])
def test_faster_than_real_time_same_chunks_and_no_gap(rtf: float, overhead: float, line: list[str]) -> None:
    bounded = play(line, Machine(rtf, overhead))
    unbounded = play(line, Machine(rtf, overhead), max_silence_s=math.inf)
    assert bounded.sizes == unbounded.sizes
    assert bounded.start_delay == unbounded.start_delay
    assert bounded.gaps == unbounded.gaps and not any(bounded.gaps)


@pytest.mark.parametrize("rtf", [0.25, 0.5])
def test_faster_than_twice_real_time_a_13_s_sentence_changes_nothing(rtf: float) -> None:
    line = ["Hi.", "word " * 40, "Bye."]  # 200 characters: 13 s of speech
    bounded, unbounded = play(line, Machine(rtf)), play(line, Machine(rtf), max_silence_s=math.inf)
    assert (bounded.sizes, bounded.start_delay, bounded.gaps) == (
        unbounded.sizes,
        unbounded.start_delay,
        unbounded.gaps,
    )


def test_fast_synthesis_streams_one_chunk_per_sentence() -> None:
    p = play(["I'd like to add a checked bag to my flight.", *LINE[1:]], Machine(rtf=0.1))
    assert len(p.sizes) == 3 and not any(p.gaps)
    assert p.start_delay == pytest.approx(0.1 * 43 * SECONDS_PER_CHAR)  # only the first sentence


def test_short_first_sentence_is_held_until_the_next_is_ready() -> None:
    # "Hi." plays for 0.2 s; the next sentence takes 1.2 s to make at RTF 0.35: released together
    p = play(LINE[:2], Machine(rtf=0.35))
    assert len(p.sizes) == 1 and not any(p.gaps)


# -- slower than real time: bounded silences, at sentence boundaries only ----------------------


@pytest.mark.parametrize("rtf", [1.0, 1.5, 2.0, 2.5])
@pytest.mark.parametrize("overhead", [0.0, 0.4])
def test_slow_synthesis_starts_within_the_bound_and_gaps_only_between_sentences(
    rtf: float, overhead: float
) -> None:
    # LONG's longest sentence takes 8.2 s to make at RTF 2.5 (+0.4 s): within the bound once the
    # sentence before it is playing
    p = play(LONG, Machine(rtf, overhead))
    assert p.start_delay <= MAX_SILENCE_S
    assert max(p.silences) <= MAX_SILENCE_S
    assert set(p.chunk_ends) <= set(p.sentence_ends)  # a chunk is whole sentences: a gap falls between two
    assert sum(p.sizes) == audio_bytes(LONG)


@pytest.mark.parametrize("rtf", [1.5, 3.0, 4.0, 6.0])
@pytest.mark.parametrize("overhead", [0.0, 0.4])
@pytest.mark.parametrize("line", [LINE, LONG], ids=["short", "long"])
def test_only_a_sentence_slower_than_the_bound_makes_a_longer_silence(
    rtf: float, overhead: float, line: list[str]
) -> None:
    # a silence waits for at most one sentence: past the bound only when that sentence alone takes
    # longer than the bound to make (no chunk of whole sentences can do better)
    p = play(line, Machine(rtf, overhead))
    slowest = max(rtf * len(t) * SECONDS_PER_CHAR + overhead for t in line)
    assert max(p.silences) <= max(MAX_SILENCE_S, slowest)
    assert set(p.chunk_ends) <= set(p.sentence_ends)
    assert sum(p.sizes) == audio_bytes(line)


@pytest.mark.parametrize("bound", [2.0, 5.0, 6.0, 12.0])
def test_the_bound_is_a_parameter(bound: float) -> None:
    p = play(LONG, Machine(rtf=1.5), max_silence_s=bound)  # every sentence made in under 4.7 s
    assert max(p.silences) <= max(bound, 1.5 * max(len(t) for t in LONG) * SECONDS_PER_CHAR)
    assert set(p.chunk_ends) <= set(p.sentence_ends)


def test_the_long_line_that_waited_34_s_starts_within_the_bound() -> None:
    before = play(LONG, Machine(rtf=3.0), max_silence_s=math.inf)
    after = play(LONG, Machine(rtf=3.0))
    assert before.start_delay > 34.0  # held until nearly all of it was made: the live incident
    assert after.start_delay <= MAX_SILENCE_S < before.start_delay
    assert len(after.sizes) > 1 and any(after.gaps)  # the pauses between sentences carry the wait


def test_a_sentence_up_to_a_quarter_slower_than_expected_still_starts_before_the_driver_gives_up() -> None:
    # the driver takes a line with no audio for SILENT_TTS_S as dropped; the bound keeps 2 s under it
    class Spiky(Machine):
        def synth(self, i: int, text: str) -> bytes:
            base = self.rtf
            self.rtf = base * (1.25 if i % 2 else 1.0)  # every other sentence 25 % slower than the rest
            pcm = super().synth(i, text)
            self.rtf = base
            return pcm

    for rtf in (1.0, 1.5, 2.0, 2.5):
        p = play(LONG, Spiky(rtf))
        assert max(p.silences) <= SILENT_TTS_S
        steady = play(LONG, Machine(rtf))
        assert max(steady.silences) <= MAX_SILENCE_S < SILENT_TTS_S


def test_a_first_sentence_slower_than_the_bound_plays_as_soon_as_it_is_ready() -> None:
    # no prediction before the first sentence: it alone takes 3 * 3.1 s = 9.4 s at RTF 3
    first = "I'd like to add a checked bag to my flight, please."
    p = play([first, *LONG[1:3]], Machine(rtf=3.0))
    assert p.start_delay == pytest.approx(3.0 * len(first) * SECONDS_PER_CHAR)
    assert p.sizes[0] == 2 * round(len(first) * SECONDS_PER_CHAR * 16_000)
    assert max(p.gaps) <= MAX_SILENCE_S


# -- silences past their natural length are reported ------------------------------------------


@pytest.mark.parametrize("rtf", [0.1, 0.35, 0.8, 1.0, 1.5, 2.5, 4.0])
@pytest.mark.parametrize("overhead", [0.0, 0.4])
@pytest.mark.parametrize("line", [LINE, LONG], ids=["short", "long"])
def test_every_silence_past_its_natural_length_is_reported_and_no_other(
    rtf: float, overhead: float, line: list[str]
) -> None:
    # between sentences the natural pause is inside the audio, so any gap is past it; before the
    # first word, the lead-in is
    p = play(line, Machine(rtf, overhead))
    expected = [(0, p.start_delay - LEAD_IN_S)] if p.start_delay > LEAD_IN_S else []
    expected += [(k, gap) for k, gap in zip(p.first_sentences[1:], p.gaps, strict=True) if gap > 0]
    assert [h.sentence for h in p.pauses] == [k for k, _ in expected]
    assert [h.length_s for h in p.pauses] == pytest.approx([x for _, x in expected])
    for h in p.pauses:  # each ends when the chunk after it is released
        assert h.start + h.length_s == pytest.approx(p.starts[p.first_sentences.index(h.sentence)])


@pytest.mark.parametrize("line", [LINE, LONG], ids=["short", "long"])
def test_an_idle_machine_reports_no_pause(line: list[str]) -> None:
    # Kokoro's RTF here idle is ~0.35: a short opener held for the next sentence stays in the lead-in
    p = play(line, Machine(rtf=0.35, overhead_s=0.1))
    assert p.pauses == [] and p.start_delay <= LEAD_IN_S


def test_a_slow_machine_reports_the_pauses_it_lengthened() -> None:
    p = play(LONG, Machine(rtf=3.0))
    assert p.pauses and all(h.length_s > 0 for h in p.pauses)
    assert sum(h.length_s for h in p.pauses if h.sentence) == pytest.approx(sum(p.gaps))
    assert p.pauses[0].sentence == 0 and p.pauses[0].start == LEAD_IN_S  # decided at t=0


# -- edges -------------------------------------------------------------------------------------


def test_unbounded_slow_machine_holds_the_whole_line() -> None:
    p = play(LINE, Machine(rtf=3.0), max_silence_s=math.inf)
    assert len(p.sizes) == 1
    assert p.start_delay == pytest.approx(3.0 * sum(len(t) for t in LINE) * SECONDS_PER_CHAR)


def test_single_and_empty_lines() -> None:
    assert play(["Yes."], Machine(rtf=0.5)).sizes == [2 * round(4 * SECONDS_PER_CHAR * 16_000)]
    assert list(paced_chunks([], Machine(0.5).synth, BPS)) == []


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan])
def test_a_bound_that_is_not_positive_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="max_silence_s"):
        list(paced_chunks(["Hi."], Machine(0.5).synth, BPS, max_silence_s=bad))


def test_the_open_pause_says_how_much_of_the_current_silence_was_held() -> None:
    """What a line cut while held reports (``on_open``): nothing during the natural part, the
    held part since it ended, nothing once the whole line has been released."""
    m = Machine(3.0)
    opened: list[Callable[[], HeldPause | None]] = []
    line = ["I need to change my flight.", "The code is Q X 7 T 4 M.", "Thanks."]
    chunks = paced_chunks(line, m.synth, BPS, now=m.now, on_open=opened.append)
    first = next(chunks)  # the decision at 0; the first sentence takes 5.3 s to make
    [so_far] = opened
    released = m.t
    end_of_audio = released + len(first) / BPS
    assert so_far() is None  # the released audio is playing
    m.t = end_of_audio + 1.5  # its voice over, the next chunk not released
    assert so_far() == HeldPause(1, end_of_audio, pytest.approx(1.5))
    assert list(chunks) and so_far() is None  # the rest released


def test_before_the_first_word_the_open_pause_starts_after_the_lead_in() -> None:
    m = Machine(0.0)
    opened: list[Callable[[], HeldPause | None]] = []
    seen: list[HeldPause | None] = []

    def synth(i: int, text: str) -> bytes:  # 3 s to make each sentence; the open pause read then
        m.t += 3.0
        seen.append(opened[0]())
        return bytes(BPS)  # 1 s of audio

    chunks = paced_chunks(["Hi.", "Yes."], synth, BPS, now=m.now, on_open=opened.append)
    assert opened == []  # not decided until the pacing starts
    list(chunks)
    assert seen[0] == HeldPause(0, LEAD_IN_S, 3.0 - LEAD_IN_S)  # decided at 0, 2 s of it the caller's own
    assert opened[0]() is None  # released whole
