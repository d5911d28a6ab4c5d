"""Who is still on the line: the agent checks on the caller, the caller on a silent agent.

An agent that hears nothing for a while (its recogniser dropped the caller's words, or the caller
paused) asks whether anyone is there, or says a bare "Hello?". That sentence asks for none of the
caller's facts and offers nothing: a person says they are there ("Yes, I'm here.") when the turn
holds nothing else, and otherwise answers the rest of the turn, which shows they are there. Read
as an ordinary question it got "I don't know, sorry." or "I don't have that information." (live
calls with a small agent): out of character, and a loop when the agent asks again.

The words are data (``lang/<lang>.json``, ``phrases.presence``): greetings, and the checks
themselves; a sentence is a presence check when, after its greetings, nothing but a check is left
(or nothing at all: "Hello?").
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from voxbench.pipelines.caller.goal.lang import alt
from voxbench.spoken.text import sentences_of

if TYPE_CHECKING:
    from voxbench.pipelines.caller.goal.acting import ActLog
    from voxbench.pipelines.caller.goal.acts import CallerAct
    from voxbench.pipelines.caller.goal.heard import Heard
    from voxbench.pipelines.caller.goal.state import CallState


@cache
def _check() -> re.Pattern[str]:
    greet = alt("presence", "greeting")
    check = alt("presence", "check")
    return re.compile(
        rf"^(?:(?:{greet})\b[\s,.!?]*)*(?:(?:{check})\b)?[\s,.!?]*$",
        re.I,
    )


def is_presence_check(sentence: str) -> bool:
    """Whether ``sentence`` only greets or asks whether the caller is there ('Hello?', 'Are you
    still on the line?', 'Hi, can you hear me?'); not an empty sentence."""
    return bool(re.search(r"\w", sentence)) and bool(_check().match(sentence.strip()))


def split_presence(text: str) -> tuple[bool, str]:
    """Whether the turn checks the caller is there, and the turn without those sentences (the
    rest is what the caller answers; empty when the turn is nothing but the check)."""
    sents = sentences_of(text)
    kept = [s for s in sents if not is_presence_check(s)]
    return len(kept) < len(sents), " ".join(kept)


def here(s: CallState, log: ActLog, heard: Heard) -> CallerAct:
    """A turn that is nothing but a presence check: the caller is there. Said again to each such
    turn, it counts as no progress (:class:`.stall.Stalls`), so an agent that keeps asking, not
    hearing the caller, gets a goodbye in the end."""
    return log.act("confirm", s.phr.say("here"), "presence_check_here", heard, choice="yes")


def check_in(s: CallState, log: ActLog) -> CallerAct:
    """The agent has said nothing for a long while (it said "one moment" and went quiet): ask
    whether it is still there, and hang up the next time. A person does; and a caller that
    only waits leaves the call to the inactivity limit, with the agent's "one moment" as the
    last words, which EVA's gate counts as an unfinished simulation, not the agent's failure."""
    s.turn += 1
    s.stalls.count += 1
    if s.acts and s.acts[-1].kind == "check_in":
        return log.act("end", s.phr.say("bye_silence"), "silence_after_check_in_end", ends_call=True)
    return log.act("check_in", s.phr.say("check_in"), "agent_silent_check_in")
