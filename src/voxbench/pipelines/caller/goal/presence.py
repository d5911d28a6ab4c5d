"""Who is still on the line: the agent checks on the caller, the caller on a silent agent.

An agent that hears nothing for a while (its recogniser dropped the caller's words, or the caller
paused) asks whether anyone is there, says it lost the caller, or says a bare "Hello?". That
sentence asks for none of the caller's facts and offers nothing: a person says they are there
("Yes, I'm here.") when the turn holds nothing else, and otherwise answers the rest of the turn,
which shows they are there. Read as an ordinary question it got "I don't know, sorry." or "I
don't have that information." (live calls with a small agent), and "Sorry, I can't hear you." read
as a refusal got a push back: out of character, and a loop when the agent asks again.

A sentence is a presence check by what it is about, not by a list of its wordings: it speaks of
the line and nothing else. After its greetings ("Hello, hello?") it holds

* trouble on the line ("Did we get disconnected?", "I think I lost you.", "the call dropped", "you
  may be on mute"), or the line, hearing or presence said in a question or a negation ("Can you
  hear me?", "Are you still on the line?", "I can't hear you."; "I hear you." is sympathy); and
* no other word than small ones (pronouns, auxiliaries, "sorry", "I think", "still", "at all")
  and the caller's own name: "Can you hear the options?" or "Are you there at the airport?" ask
  something else.

A greeting alone is a check too ("Hello?"); with the caller's name only when asked ("Hello, Ana?",
not the "Hello, Ana!" that opens a call). The words are data (``lang/<lang>.json``,
``phrases.presence``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from voxbench.pipelines.caller.goal.lang import alt
from voxbench.spoken.text import sentences_of

if TYPE_CHECKING:
    from voxbench.pipelines.caller.goal.acting import ActLog
    from voxbench.pipelines.caller.goal.acts import CallerAct
    from voxbench.pipelines.caller.goal.heard import Heard
    from voxbench.pipelines.caller.goal.state import CallState

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")


@cache
def _part(name: str) -> re.Pattern[str]:
    """The phrase list ``name`` as a pattern of whole words."""
    return re.compile(rf"(?<![\w']){'(?:' + alt('presence', name) + ')'}(?![\w'])", re.I)


_ANY_PART = re.compile(
    rf"(?<![\w'])(?:{alt('presence', 'line_trouble')}|{alt('presence', 'line')}|{alt('presence', 'greeting')})"
    r"(?![\w'])"
)
"""Any word of the line or a greeting: compiled once, the first test of every sentence."""


def _small(word: str) -> bool:
    return bool(_part("filler").fullmatch(word))


def _asked_or_denied(text: str) -> bool:
    """A question (its mark, or an auxiliary first, as a recogniser writes it) or a negation."""
    first = _WORD.search(_part("greeting").sub(" ", text))
    return text.rstrip().endswith("?") or bool(
        (first and _part("aux").fullmatch(first[0])) or _part("negation").search(text)
    )


def is_presence_check(sentence: str, names: Iterable[str] = ()) -> bool:
    """Whether ``sentence`` only greets, or speaks of the line and asks nothing else ('Hello?',
    'Are you still on the line?', 'Sorry, I can't hear you.'); not an empty sentence. ``names``:
    the caller's name words, which may stand beside it ('Ana, are you still there?')."""
    text = sentence.strip().lower().replace("’", "'")
    if not _ANY_PART.search(text):  # most sentences: no word of the line, no greeting
        return False
    own = {n.lower() for n in names}
    trouble = bool(_part("line_trouble").search(text))
    line = bool(_part("line").search(text)) and _asked_or_denied(text)
    rest = _part("greeting").sub(" ", _part("line").sub(" ", _part("line_trouble").sub(" ", text)))
    words = _WORD.findall(rest)
    if trouble or line:
        return all(_small(w) or w in own for w in words)
    greeted = bool(_part("greeting").search(text))
    return greeted and all(w in own for w in words) and (not words or text.endswith("?"))


def split_presence(text: str, names: Iterable[str] = ()) -> tuple[bool, str]:
    """Whether the turn checks the caller is there, and the turn without those sentences (the
    rest is what the caller answers; empty when the turn is nothing but the check)."""
    sents = sentences_of(text)
    kept = [s for s in sents if not is_presence_check(s, names)]
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
