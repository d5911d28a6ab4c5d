"""A harness pause injected into a caller line (:mod:`.faults` says how every injection is
made): the agent answering into it is the caller's record spoiled by the harness
(`harness_pause`); the agent waiting for the whole line is its control (`harness_pause_waited`)."""

from __future__ import annotations

import random
from dataclasses import replace

from voxbench.eval.gateset._steps import (
    Injected,
    Injector,
    Party,
    reply_to,
)
from voxbench.eval.gateset.conversation import Held, Line, RefConversation
from voxbench.records.voice import split_sentences

AGENT_PROMPTS = ("Are you still there?", "Take your time.", "Hello? Can you hear me?", "I'm still here.")
PAUSE_S = (2.5, 7.5)
"""An injected harness pause's length: longer than an agent's turn-end timeout (a 0.2 s VAD
stop, then smart-turn or a 0.6 s timeout) and no longer than the caller's voice holds a line
(``MAX_SILENCE_S``, 8 s, in ``records/voice.py``)."""


def _paused(conv: RefConversation, rng: random.Random, when: str) -> Injected | None:
    """A caller line followed by the agent's reply paused by the harness: after one of its
    sentences, or before its first word when it has one, with the agent timed by `when`.
    "into": its voice starts inside the pause (the reply to the half said; before the first
    word, a line of `AGENT_PROMPTS` into the silence); "decided" (a pause after a sentence):
    the reply just after the caller resumed, its turn end the one inside the pause; "waited":
    the reply as in the reference, after the whole line."""
    replies = {i: reply_to(conv, i) for i in conv.lines("user")}
    cands = [i for i, j in replies.items() if j is not None]
    if not cands:
        return None
    i = rng.choice(cands)
    j = replies[i]
    assert j is not None
    line = conv.line(i)
    n = len(split_sentences(line.text))
    k = rng.randrange(1, n) if n > 1 else 0
    held = Held(k, round(rng.uniform(*PAUSE_S), 2))
    steps = list(conv.steps)
    steps[i] = replace(line, held=held)
    if when == "decided" and k == 0:
        when = "into"  # before the first word the agent's last turn end was before its last line
    if when == "into":
        cue = round(rng.uniform(0.6, held.seconds - 0.3), 2)
        if k == 0:
            steps.insert(i + 1, Line("agent", rng.choice(AGENT_PROMPTS), cue_s=cue))
        else:
            steps[j] = replace(conv.line(j), cue_s=cue)
    elif when == "decided":
        # before the agent's VAD stop after the resumed words: a 3-character sentence is said
        # in 0.26 s (``SECONDS_PER_CHAR``), its stop 0.25 s later
        cue = round(held.seconds + rng.uniform(0.2, 0.5), 2)
        steps[j] = replace(conv.line(j), cue_s=cue)
    what = f"{held.seconds:.2f} s harness pause before sentence {k}; agent reply {when}"
    return Injected(conv.copy(steps), i, what)


def harness_pause(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The harness stalled the caller's voice mid-line and the agent answered into the pause:
    its voice started inside it, or just after the caller resumed on a turn end inside it."""
    return _paused(conv, rng, rng.choice(("into", "decided")))


def harness_pause_waited(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The control of `harness_pause`: the same pause, the agent waiting for the whole line."""
    return _paused(conv, rng, "waited")


PAUSE_FAULTS: dict[str, tuple[Party, Injector]] = {
    "harness_pause": ("caller", harness_pause),
    "harness_pause_waited": ("none", harness_pause_waited),
}
