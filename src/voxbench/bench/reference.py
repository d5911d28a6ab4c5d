"""The reference conversation as the bench reads it, by grammar only (none of the caller's rules).

A scenario's ``ground_truth.expected_trace`` becomes agent turns (consecutive agent utterances
between two caller lines) paired with the reference caller's reply; a reply's polarity, the
options a turn offers and the option a reply names are read the same way for the reference
caller and for the caller under test.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from voxbench.bench.lang import alt
from voxbench.bench.matcher import MONTHS, key_words, same_word, words_of

# The options a turn offers and the one a reply names are read in :mod:`.options` (re-exported here).
from voxbench.bench.options import chosen_option as chosen_option
from voxbench.bench.options import clock_times as clock_times
from voxbench.bench.options import offered_options as offered_options
from voxbench.processors.control import TRANSFER_TOOL  # EVA's transfer tool, one name in every domain
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of


def _a(name: str) -> str:
    return alt("reference", name)


# The words are the bench's own data (``bench/lang/<lang>.json``, ``phrases.reference``), not
# the caller's (``_AUX`` too, though the goal caller has its own auxiliaries): a grader reading
# questions with the graded caller's tables would agree with it by construction. The grammar is here.
_YES = re.compile(rf"^({_a('yes')})", re.I)
_NO = re.compile(rf"^({_a('no')})", re.I)
_NOT_FIXED = re.compile(rf"\b({_a('not_fixed')})", re.I)
_FIXED = re.compile(rf"\b({_a('fixed')})\b", re.I)
_AUX = re.compile(rf"^(?:\w+,\s+)?({_a('auxiliary')})\b", re.I)
_OUTCOME = re.compile(_a("outcome"), re.I)
_ASK = re.compile(rf"\b({_a('ask')})\b", re.I)
BYE = re.compile(rf"\b({_a('bye')})\b", re.I)
_TAG = re.compile(rf",\s*({_a('tag')})\?$", re.I)
_CONFIRM = re.compile(rf"^(please )?({_a('confirm')})\b", re.I)


def reference_turns(scenario: Scenario) -> tuple[str | None, list[tuple[str, str]]]:
    """(opening caller line if the caller speaks first, [(agent turn, reference reply or '')])."""
    trace = scenario.ground_truth.expected_trace
    events = [
        (e.event_type, e.utterance or "")
        for e in (trace.trace if trace else [])
        if e.event_type in ("user_utterance", "agent_utterance")
    ]
    opening = None
    turns: list[tuple[str, str]] = []
    agent: list[str] = []
    for kind, text in events:
        if kind == "agent_utterance":
            agent.append(text)
        elif agent:
            turns.append((" ".join(agent), text))
            agent = []
        elif not turns and opening is None:
            opening = text
        elif turns:  # two caller lines in a row: one reply
            turns[-1] = (turns[-1][0], f"{turns[-1][1]} {text}")
    if agent:
        turns.append((" ".join(agent), ""))
    return opening, turns


def reference_end(turns: list[tuple[str, str]]) -> int:
    """The turn at which the reference caller ended the call: its first reply with a goodbye, else the last."""
    return next((i for i, (_, ref) in enumerate(turns) if BYE.search(ref)), len(turns) - 1)


class Ending(NamedTuple):
    """Where a caller may end the call, graded against the reference (turn indexes of
    :func:`reference_turns`): from ``first`` to ``last``; ``by_agent`` when the agent, not the
    reference caller, ended the reference call (EVA's ``end_reason`` "transfer")."""

    first: int
    last: int
    by_agent: bool


def reference_ending(scenario: Scenario, turns: list[tuple[str, str]]) -> Ending:
    """The reference ends at its first goodbye, else after the last agent turn (:func:`reference_end`).

    Two things widen that point into a window, both from the trace's own events, not its words:

    * from the agent turn in which the agent called :data:`TRANSFER_TOOL`: EVA tells its caller to
      say goodbye and hang up once the transfer is initiated, and its judge does not count that
      ending against the caller; a reference caller that stayed on the line after it ("I'll wait.")
      did not make a caller that left wrong;
    * a reference the agent ended (``end_reason`` "transfer": the call was handed over) grades no
      missed ending: what the caller says after the hand-over is heard by no one.
    """
    last = reference_end(turns)
    trace = scenario.ground_truth.expected_trace
    first, done, spoke = last, 0, False  # agent turns closed by a caller line; the agent spoke since
    for e in trace.trace if trace else []:
        if e.event_type == "agent_utterance":
            spoke = True
        elif e.event_type == "user_utterance" and spoke:
            done, spoke = done + 1, False
        elif e.event_type == "tool_call" and e.tool_name == TRANSFER_TOOL:
            first = min(first, done)  # the agent turn in progress
            break
    by_agent = bool(trace and trace.end_reason == "transfer")
    return Ending(first, last, by_agent)


def reply_polarity(text: str) -> str:
    """'yes' / 'no' / '' for a caller reply."""
    t = re.sub(r"^\W+|\{\}", "", text.strip()).strip()
    if _NO.match(t) or _NOT_FIXED.search(t):
        return "no"
    if _YES.match(t) or _FIXED.search(t):
        return "yes"
    return ""


def asks(agent_text: str) -> bool:
    """The turn asks something: a question, or a request for information in the imperative."""
    return any(s.endswith("?") or _ASK.search(s) for s in sentences_of(agent_text))


def yes_no_question(agent_text: str) -> bool:
    """An auxiliary-first question, a tag ('..., correct?'), 'please confirm', or a step's outcome."""
    for s in sentences_of(agent_text):
        if s.endswith("?") and (_AUX.match(s) or _TAG.search(s)):
            return True
        if _CONFIRM.match(s) or _OUTCOME.search(s):
            return True
    return False


def month_days(text: str) -> set[tuple[int, int]]:
    """(month, day) pairs said in a text ('March 25th', '25 March', '2026-03-25')."""
    ws = words_of(text)
    out = set()
    for i, w in enumerate(ws):
        if w in MONTHS:
            for j in (i + 1, i - 1):
                if 0 <= j < len(ws) and ws[j].isdigit() and 1 <= int(ws[j]) <= 31:
                    out.add((MONTHS.index(w) + 1, int(ws[j])))
                    break
    for m in re.finditer(r"\b\d{4}-(\d{2})-(\d{2})\b", text):
        out.add((int(m.group(1)), int(m.group(2))))
    return out


def names_fact(agent_text: str, key: str, option_hit: bool = False) -> bool:
    """Whether the agent's turn asks for this fact by name: every word of its key is in the turn
    (the same word, it with an ending, one sharing its first five letters, or for a short key word
    the initials of words in a row: 'paid time off' for 'pto'), or the fact is
    the option the reference caller took among those offered (``option_hit``)."""
    if option_hit:
        return True
    kws = key_words(key)
    said = words_of(agent_text)
    initials = {"".join(w[0] for w in said[i : i + n]) for n in (2, 3, 4) for i in range(len(said) - n + 1)}
    return bool(kws) and all(
        any(same_word(w, k) for w in said) or (len(k) <= 4 and k in initials) for k in kws
    )


def touches_fact(agent_text: str, key: str) -> bool:
    """Whether the agent's turn says any word of the fact's key ('delivery to B L D two' touches
    ``delivery_building``): a turn about the field, perhaps reading it back wrong."""
    said = words_of(agent_text)
    return any(same_word(w, k) for k in key_words(key) for w in said)
