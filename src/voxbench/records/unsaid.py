"""Caller lines decided but never said: the utterances a ``withdrawn`` act takes back.

The recorder writes the caller's ``utterance`` when its words go to the TTS; a line the agent's
voice preceded is then withdrawn before any of its audio went out (``CallerAct`` kind
``withdrawn``, ``pipelines/caller/driver.py``). Whoever reads the caller's intended words (the
eval's history, the report's timeline) leaves such an utterance out: it was meant, then held,
never heard.
"""

from __future__ import annotations

from collections.abc import Sequence

from voxbench.records.events import CallerAct, Event, Utterance


def _norm(text: str) -> str:
    # spaces aside: a line given to the TTS as a model's reply is recorded as its sentences
    # joined, which may drop the space between them
    return "".join(text.split())


def unsaid_utterances(events: Sequence[Event]) -> set[int]:
    """Indexes (into ``events``) of the caller utterances withdrawn later.

    Each withdrawn act takes back the latest earlier caller utterance not yet taken whose
    words are the act's; failing that (a line the TTS was given in other words), the latest
    earlier caller utterance not yet taken."""
    taken: set[int] = set()
    for j, act in enumerate(events):
        if not (isinstance(act, CallerAct) and act.kind == "withdrawn"):
            continue
        earlier = [
            (i, u)
            for i in range(j - 1, -1, -1)
            if i not in taken and isinstance(u := events[i], Utterance) and u.channel == "user"
        ]
        same = [i for i, u in earlier if _norm(u.text) == _norm(act.text)]
        picks = same or [i for i, _ in earlier]
        if picks:
            taken.add(picks[0])
    return taken
