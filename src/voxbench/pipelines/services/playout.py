"""Release synthesised sentences so a line plays without a gap, and no silence outlasts a bound.

Why hold audio at all: a TTS streamed sentence by sentence starts talking sooner, but if the
next sentence takes longer to synthesise than the audio already playing lasts, the caller falls
silent mid-line. The agent under test hears that silence as the end of the caller's turn and
answers half a line: an artefact of the harness, scored against the agent. Piper (RTF ~0.05)
never gets near that; Kokoro (RTF ~0.35 idle, above 1 on a loaded 2-core machine) does.
Measured live before the hold existed: the agent talked over one of eight Kokoro caller lines,
none of the Piper ones.

Why bound the hold: holding until the whole rest of a line is ready has no limit when synthesis
runs slower than real time. Under load (2 cores, the agent's local LLM running) one long caller
line started more than 34 s after it was decided, the call ended on inactivity and the record
was invalid (twice, airline/2.1.6 in a live run). A person never waits 34 s before the first
word; a person does pause between sentences. So no silence of a line, before its first word or
between two of its sentences, is held longer than :data:`MAX_SILENCE_S`; past that, what is
ready plays and the pause at that sentence boundary is lengthened. A chunk is always whole
sentences, so a gap can fall only where the line already has a sentence pause, never inside a
sentence.

The rule, after each sentence but the last: expect the next one to take as long to synthesise
as the line's rate so far (seconds of synthesis per character) times its length.

1. Gapless: release the buffered audio if the audio released and not yet played, plus the
   buffer, outlasts the expected time times a safety factor.
2. Bounded: otherwise keep synthesising into the buffer, unless waiting for the next sentence
   would make the current silence (from the decision, or from the end of the audio released so
   far) longer than ``max_silence_s``: then release the buffer now. This test takes the
   expected time without the safety factor: with it, the line of ``benchmarks/playout_bound.py``
   at half real time was cut into 7 chunks with 6 gaps instead of 4 with 3 (measured while
   choosing the rule), and each gap is a chance for the agent to answer half a line; the
   margin is in the bound instead (below).

Holding for as long as the bound allows keeps the gaps few. When synthesis is fast enough for
rule 1 the chunks are exactly those of rule 1 alone (the rule as it was before the bound): at 2x
real time or faster that holds for any sentence under about 14 s of speech (some 220
characters). The bound holds as long as no sentence is slower than the line's rate so far and
none alone takes longer than the bound to make (at 4x slower than real time, a sentence over 2 s
of speech): a silence waits for at most one sentence, so such a sentence starts when it is
ready. The audio is identical either way; only when it is handed over changes. Pure Python (no
pipecat), with an injectable clock.

Every silence the rule leaves past the line's natural length is reported (``on_pause``, a
:class:`HeldPause`), so the record can say where the harness, not the caller, paused:

* between two sentences, any silence at all: the audio of every sentence but the last already
  ends in the voice's own sentence pause (``SENTENCE_PAUSE_S`` in ``records/voice.py``), so a chunk
  released after the audio before it has finished playing lengthens that pause by exactly the
  difference;
* before the first word, the silence from the decision past :data:`LEAD_IN_S`.

A silence can also end without a release: the line is withdrawn or cut off while it is held
(the caller driver holds a line the agent started speaking over before its first word). So the
pacing also hands out, once per line (``on_open``), a function giving the held part of the
silence the line is in *now* (an :data:`OpenPause`), for whoever cuts the line to report the
part that played.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from voxbench.records.voice import LEAD_IN_S, MAX_SILENCE_S

SAFETY = 1.5
"""Margin on the predicted synthesis time (load spikes, longer words than average)."""


@dataclass(frozen=True)
class HeldPause:
    """A silence of a line longer than its natural length (module docstring).

    ``sentence``: index of the sentence the silence comes before (0: before the first word);
    ``start``: on the ``now`` clock of :func:`paced_chunks`, when the natural part ended (the
    audio released so far finished playing, or the decision plus :data:`LEAD_IN_S`);
    ``length_s``: the rest of the silence, up to the release of the chunk it precedes.
    """

    sentence: int
    start: float
    length_s: float


OpenPause = Callable[[], HeldPause | None]
"""The silence a line is in now, as far as it was held past its natural length (None: not held
past it, or the whole line has been released); read on the pacing's own clock."""


def _held(sentence: int, released: float, play_end: float, lead_in_s: float) -> HeldPause | None:
    start = play_end + lead_in_s if sentence == 0 else play_end  # before any audio, play_end is the decision
    return HeldPause(sentence, start, released - start) if released > start else None


def paced_chunks(
    texts: Sequence[str],
    synth: Callable[[int, str], bytes],
    bytes_per_second: float,
    *,
    now: Callable[[], float] = time.monotonic,
    max_silence_s: float = MAX_SILENCE_S,
    lead_in_s: float = LEAD_IN_S,
    on_pause: Callable[[HeldPause], None] | None = None,
    on_open: Callable[[OpenPause], None] | None = None,
) -> Iterator[bytes]:
    """Yield PCM chunks of ``synth(i, texts[i])``: without a gap when synthesis keeps up, and
    with no silence longer than ``max_silence_s`` (see the module docstring) when it does not.

    Args:
        texts: the sentences of one line, in order.
        synth: makes the audio of sentence ``i`` (any trailing pause included).
        bytes_per_second: of the PCM ``synth`` returns (2 * rate for mono PCM16).
        now: monotonic clock in seconds (injected by tests).
        max_silence_s: the longest silence to hold a line for (``math.inf``: never release
            before the rest of the line is predicted ready, the rule without a bound).
        lead_in_s: the silence before the first word that is not reported as a pause.
        on_pause: called, just before the chunk it precedes is yielded, with each silence
            longer than its natural length (:class:`HeldPause`).
        on_open: called once, when the line is decided (the first ``next``), with the
            line's :data:`OpenPause` (safe to call from another thread).

    Yields:
        Concatenated audio of one or more consecutive sentences; every text is in exactly one
        chunk, in order. Playback is assumed to start when a chunk is yielded, or when the
        chunks before it have played if that is later.
    """
    if max_silence_s <= 0 or math.isnan(max_silence_s):
        raise ValueError(f"max_silence_s must be positive, got {max_silence_s}")
    buffer = bytearray()
    play_end = now()  # when the audio released so far finishes playing (at first: the decision)
    synth_s = 0.0
    chars = 0
    first = 0  # index of the first sentence in the buffer
    done = False  # every chunk released

    def note(released: float) -> None:
        held = _held(first, released, play_end, lead_in_s)
        if held is not None and on_pause is not None:
            on_pause(held)

    def so_far() -> HeldPause | None:
        return None if done else _held(first, now(), play_end, lead_in_s)

    if on_open is not None:
        on_open(so_far)

    for i, text in enumerate(texts):
        t0 = now()
        buffer += synth(i, text)
        synth_s += now() - t0
        chars += max(len(text), 1)
        if i == len(texts) - 1:
            break
        expected = synth_s / chars * max(len(texts[i + 1]), 1)
        t = now()
        ahead = max(play_end - t, 0.0) + len(buffer) / bytes_per_second
        silence_if_held = t + expected - play_end  # from the last audio (or the decision) to the next
        if ahead >= expected * SAFETY or silence_if_held > max_silence_s:
            note(t)
            play_end = max(play_end, t) + len(buffer) / bytes_per_second
            chunk, first = bytes(buffer), i + 1
            buffer.clear()
            yield chunk
    if buffer:
        note(now())
        done = True
        yield bytes(buffer)
    done = True
