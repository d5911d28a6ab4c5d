"""How the harness's caller voice times its speech: one definition for the voice that speaks
(``pipelines/services``: Kokoro, the local voices and their pacing) and for the readers of its
events (``eval/gateset`` builds harness pauses as the voice would have played them). It sits
with the records because it says what a recorded ``harness_pause`` means; neither side may
import the other.
"""

from __future__ import annotations

import re

SENTENCE_PAUSE_S = 0.2
"""Silence put between the sentences of one text (Kokoro's own join pause is 0.25 s); a
harness pause starts where it ends."""

MAX_SILENCE_S = 8.0
"""The longest silence a line is held for: before its first word, or at a sentence boundary.

The thresholds it must stay under, from the shortest: the caller driver takes a line sent to the
TTS with no audio for ``SILENT_TTS_S`` (10 s) as dropped when the agent speaks
(``pipelines/caller/timing.py``), and answers the agent's turn as if the line had not been
decided; the goal caller checks in after ``silence_check_s`` (25 s) of silence; the call ends on
``inactivity_s`` (45 s) with nobody speaking, counted from the agent's last words, of which the
goal caller may already have waited up to ``fragment_wait_s`` (12 s) plus its turn detection and
STT before deciding. 8 s keeps 2 s under the first: a line whose next sentence is up to 25 %
slower than expected still starts before the driver gives up on it. Thresholds it does not try
to meet: the agents' turn end (a VAD ``stop_secs`` of 0.2 s, then smart-turn or a 0.6 s timeout)
is what the gapless rule is for, and any gap the bound lets through is longer than it, which is
why a gap falls only at a sentence boundary; an agent's user-idle nudge
(``turn_end_fallback_s``, EVA's ``turn_end_fallback_time``, off by default) fires on caller
silence a person would also leave unbroken for a few seconds."""


LEAD_IN_S = 2.0
"""The silence from a line's decision to its first word that is the caller's own, not a pause.

It is the upper end of the answer gap EVA's turn_taking scores as on time for an agent (its
sweet spot ends at 2 s after the other side stopped, ``LATENCY_SWEET_SPOT_HIGH_MS``): a caller
whose first word comes later than that after it decided (its ear and its decision already
spent) leaves a silence the benchmark itself calls late. On an idle machine Kokoro stays under
it, so an idle machine records no such pause: the first sentence at RTF ~0.35, and a short
opener ("Hi.") held until the next sentence is ready, take under 1.5 s on the simulated
clock of ``tests/pipelines/services/test_playout.py`` (RTF 0.35, 0.1 s per call)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` as the voice releases them (split after . ! ? and whitespace),
    empty pieces dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
