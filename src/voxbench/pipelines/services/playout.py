"""Release synthesised sentences for playback only when the rest of the line will be ready in time.

Why: a TTS streamed sentence by sentence starts talking sooner, but if the next sentence takes
longer to synthesise than the audio already playing lasts, the caller falls silent mid-line.
The agent under test hears that silence as the end of the caller's turn and answers half a
line: an artefact of the harness, scored against the agent. Piper (RTF ~0.05) never gets near
that; Kokoro (RTF ~0.35 idle, above 1 on a loaded 2-core machine) does. Measured live before
this existed: the agent talked over one of eight Kokoro caller lines, none of the Piper ones.

The rule: after each sentence, predict how long the next one will take to synthesise (seconds
of synthesis per character so far, times its length, times a safety factor). Release the
buffered audio only if the audio released and not yet played, plus the buffer, outlasts that
prediction; otherwise keep synthesising into the buffer. The audio is identical either way;
only when it is handed over changes. Pure Python (no pipecat), with an injectable clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

SAFETY = 1.5
"""Margin on the predicted synthesis time (load spikes, longer words than average)."""


def gapless_chunks(
    texts: Sequence[str],
    synth: Callable[[int, str], bytes],
    bytes_per_second: float,
    *,
    now: Callable[[], float] = time.monotonic,
    safety: float = SAFETY,
) -> Iterator[bytes]:
    """Yield PCM chunks of ``synth(i, texts[i])`` such that playback never runs dry mid-line.

    Args:
        texts: the sentences of one line, in order.
        synth: makes the audio of sentence ``i`` (any trailing pause included).
        bytes_per_second: of the PCM ``synth`` returns (2 * rate for mono PCM16).
        now: monotonic clock in seconds (injected by tests).
        safety: factor on the predicted synthesis time of the next sentence.

    Yields:
        Concatenated audio of one or more consecutive sentences; every text is in exactly one
        chunk, in order. Playback is assumed to start when a chunk is yielded.
    """
    buffer = bytearray()
    play_end = now()  # when the audio released so far finishes playing
    synth_s = 0.0
    chars = 0
    for i, text in enumerate(texts):
        t0 = now()
        buffer += synth(i, text)
        synth_s += now() - t0
        chars += max(len(text), 1)
        if i == len(texts) - 1:
            break
        predicted = synth_s / chars * max(len(texts[i + 1]), 1) * safety
        t = now()
        ahead = max(play_end - t, 0.0) + len(buffer) / bytes_per_second
        if ahead >= predicted:
            play_end = t + ahead
            yield bytes(buffer)
            buffer.clear()
    if buffer:
        yield bytes(buffer)
