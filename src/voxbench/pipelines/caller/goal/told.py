"""Two failure cases that end the call at once, with no push-back or follow-up question first.

* **Told what the tree says to accept** ('If told to visit HR in person or call back later,
  accept that and end the call'): a refusal that tells the caller one of those things (each
  alternative of the line, read by its content words) ends the call, as the line says, whatever
  else is open ('for any part of this request'). A courtesy is no such telling: only a turn the
  agent refuses in counts ('If anything else comes up, call back later.' after a report does not).
* **The agent's own error** (EVA's caller prompt, every domain: end the call when the assistant
  says something along the lines of 'I'm sorry I encountered an error processing your request.'):
  a statement that the agent or its system met an error, in a turn that asks nothing and does
  not say it will try again.
* **No alternative** (a failure condition 'If the agent says your request cannot be processed and
  there are no alternatives, say goodbye ...'): a refusal that says there is no alternative
  ('There are no alternatives available.', 'There's nothing else I can do.') and neither asks
  anything nor offers another way ('but I can set up a callback instead'). A bare refusal is not
  it: the tree's push-back and follow-up come first (:mod:`.followups`).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import sentences_of


def told_to_end(lines: list[str]) -> list[frozenset[str]]:
    """Each thing the tree's lines say to accept being told and then end the call on, as its
    content words (two at least: 'call back later' -> call, back, later), each once."""
    out: list[frozenset[str]] = []
    for line in lines:
        for s in sentences_of(line):
            m = pattern("told_accept").search(s)
            if m is None or not pattern("then_end").search(s[m.end() :]):
                continue
            what = pattern("told_rest").sub("", m.group("what"))
            for part in re.split(r",\s*(?:or\s+)?|\s+or\s+", what):
                words = frozenset(content_words(part))
                if len(words) >= 2 and words not in out:
                    out.append(words)
    return out


def tells(told: list[frozenset[str]], agent_turn: str) -> bool:
    """A statement of the turn says one of ``told``: every content word of a thing of two words,
    all but one of a longer one ('You'll need to visit the HR office in person.'). A sentence that
    opens with a condition ('If you find the number, call back and I can continue.') invites the
    caller back once something changes: not the outcome the tree says to accept."""
    for s in sentences_of(agent_turn):
        if s.endswith("?") or pattern("conditional_lead").search(s):  # 'If you find it, call back ...'
            continue
        words = content_words(s)
        if any(len(w & words) >= max(2, len(w) - 1) for w in told):
            return True
    return False


def agent_error(agent_turn: str) -> bool:
    """The agent says it (or its system) met an error, and neither asks anything nor says it will
    try again ('I'm sorry, I encountered an error processing your request.')."""
    sents = sentences_of(agent_turn)
    hit = [n for n, s in enumerate(sents) if pattern("agent_error").search(s)]
    if not hit or any(s.endswith("?") for s in sents):
        return False
    return not any(pattern("try_again").search(s) for s in sents[hit[0] :])


def no_alternative(agent_turn: str) -> bool:
    """The turn says there is no alternative, asks nothing and offers nothing else ('I'm sorry,
    your request cannot be processed, and there are no alternatives available.')."""
    sents = sentences_of(agent_turn)
    if any(s.endswith("?") for s in sents):
        return False
    rest = [pattern("no_alternative").sub("", s) for s in sents]  # 'nothing else I can do' offers nothing
    if any(pattern("offer_stated").search(s) or pattern("still_can").search(s) for s in rest):
        return False
    return any(
        pattern("no_alternative").search(s) and not pattern("conditional_lead").search(s) for s in sents
    )
