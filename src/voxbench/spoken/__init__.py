"""Spoken values: numbers, ordinals, dates, times, money, spelled codes and NATO letters as a
voice call carries them, read out of text and said for a TTS.

The ground layer of the project (it imports nothing else of voxbench, and no pipecat): the
goal caller hears and says facts with it, eval's offline judges key the values of claims and
tool data with it (through EVA's normaliser, which they pass in). One set of word tables
(:mod:`.words`) serves both.

* :mod:`.text`: heard text as tokens (number words as digits) and runs (spelled codes joined);
* :mod:`.dates`, :mod:`.times`, :mod:`.money`: the values in heard text, and saying dates/times;
* :mod:`.moment`: the moment of a call as a scenario writes it (``current_date_time``) and as said;
* :mod:`.codes`: which values are codes, spelling one, the canonical code form;
* :mod:`.say`: how a caller says a fact value;
* :mod:`.match`: whether text says a fact's value (:func:`mentions`);
* :mod:`.keys` and :mod:`.data`: values as comparable keys, in speech and in structured data.
"""

from __future__ import annotations

from voxbench.spoken.codes import canon_code, is_code, spell_code
from voxbench.spoken.dates import ISO_DATE, Date, dates, say_date
from voxbench.spoken.match import matchable, mentions
from voxbench.spoken.money import money
from voxbench.spoken.say import say_value
from voxbench.spoken.text import compact, runs, sentences_of, tokens
from voxbench.spoken.times import parse_time_value, say_time, times

__all__ = [
    "ISO_DATE",
    "Date",
    "canon_code",
    "compact",
    "dates",
    "is_code",
    "matchable",
    "mentions",
    "money",
    "parse_time_value",
    "runs",
    "say_date",
    "say_time",
    "say_value",
    "sentences_of",
    "spell_code",
    "times",
    "tokens",
]
