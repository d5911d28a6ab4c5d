"""Inline interruption tags in the turn texts (EVA §3.1, `judge.yaml` tag reference).

Judges read the agent's and the caller's texts, not the audio timing; these tags tell
them where speech overlapped or broke off, so they neither blame an agent for words a
caller never let it say nor take a half-spoken sentence for the whole. Tags come only
from the speech sessions of the record (start/end per speaker) and the tool-call times,
so voxbench records and EVA logs get the same rules. For a session S of speaker X, the
other speaker being Y:

* ``[assistant interrupts]`` / ``[user interrupts]`` before S's text: S started while
  Y was speaking (X cut in). The same tag *inside* S's text, between two of its text
  chunks, marks where Y cut in; it is written only when S has text on both sides of
  that moment (chunk arrival times decide the side), since a marker at the very end
  would say nothing about where the words were lost.
* After S's text, when Y was still speaking at S's end:
  ``[likely cut off by user]`` / ``[likely cut off by assistant]`` if Y started during
  S (X stopped because Y barged in; a caller's ``[likely cut off by assistant]`` stays in
  the conversation trace only, as in EVA: `segment()` drops it from the caller's turn
  texts); ``[speaker likely cut itself off]`` if Y was
  already speaking when S started (X cut in, then gave up) **and X speaks again later
  in the same turn**. Without a resumption the pattern is equally what a short reply
  over a long session of the other side looks like (EVA's real sample 1.1.2 has an
  18 s agent reply inside a 34 s caller session), so no tag is written; EVA does the
  same there.
* Between two sessions of the agent in the same turn, when the first ended in the
  clear: ``[pause]`` if a tool call of that turn happened after the first started and
  before the second started (the turn's first break also takes tool calls from before
  any agent speech: a "one moment" filler starts after the call it covers); else
  ``[likely interruption]`` if the agent was silent for at least
  ``LIKELY_INTERRUPTION_GAP_S`` (shorter gaps are sentence pauses, which the onset
  stamping splits on after 300 ms of silence).
* ``[likely interruption]`` also ends the agent's last session of a turn when the
  recording stopped while it was speaking: no recorded end, or an end within
  ``RECORDING_END_S`` of the recorded end of the call (voxbench stamps speech offsets until
  the recorder stops, and lets the last words play out before it does, so an offset
  that close to the end means the words were cut, not finished).
* EVA mode (``final_agent_cut=True``, used for EVA run folders): when the conversation
  ends on the agent's speech after the caller has spoken (no caller speech after it),
  that last session ends with ``[speaker likely cut itself off]``, as EVA's processor
  does. EVA's simulator may
  hang up mid-reply and its logs cannot tell; voxbench records can, so they get the
  rule above instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from voxbench.eval.sessions import TEXT_KINDS, Session, SpanIndex, Who

TAG_ASSISTANT_INTERRUPTS = "[assistant interrupts]"
TAG_USER_INTERRUPTS = "[user interrupts]"
TAG_CUT_BY_USER = "[likely cut off by user]"
TAG_CUT_BY_ASSISTANT = "[likely cut off by assistant]"
TAG_CUT_ITSELF = "[speaker likely cut itself off]"
TAG_LIKELY_INTERRUPTION = "[likely interruption]"
TAG_PAUSE = "[pause]"
ALL_TAGS = (
    TAG_ASSISTANT_INTERRUPTS,
    TAG_USER_INTERRUPTS,
    TAG_CUT_BY_USER,
    TAG_CUT_BY_ASSISTANT,
    TAG_CUT_ITSELF,
    TAG_LIKELY_INTERRUPTION,
    TAG_PAUSE,
)
CUT_OFF_TAGS = frozenset({TAG_CUT_BY_USER, TAG_CUT_BY_ASSISTANT, TAG_CUT_ITSELF, TAG_LIKELY_INTERRUPTION})
"""Text before these may not have been spoken (EVA's "cut-off" tags)."""
BROKEN_TAGS = CUT_OFF_TAGS | {TAG_USER_INTERRUPTS, TAG_ASSISTANT_INTERRUPTS}
"""Tags of speech whose words may not all have been heard: cut off, or overlapped by the other
speaker's."""

LIKELY_INTERRUPTION_GAP_S = 1.0
RECORDING_END_S = 0.1

_INTERRUPTS: dict[Who, str] = {"assistant": TAG_ASSISTANT_INTERRUPTS, "user": TAG_USER_INTERRUPTS}
_CUT_BY: dict[Who, str] = {"user": TAG_CUT_BY_USER, "assistant": TAG_CUT_BY_ASSISTANT}


def _end_tag(s: Session, others: SpanIndex, nxt: Session | None, window: tuple[float, float],
             tool_times: list[float], record_end: float | None) -> str | None:  # fmt: skip
    """The tag after session `s` (see module doc); `others` indexes the other speaker's
    sessions, `nxt` is the speaker's next session in the same turn, `window` the span in
    which a tool call explains the break before it, `record_end` the recorded end of the
    call (None when the history has none)."""
    over = others.containing(s.end)
    if over:
        if any(o.start > s.start for o in over):
            return _CUT_BY[over[0].who]
        return TAG_CUT_ITSELF if nxt is not None else None
    if s.who != "assistant":
        return None
    if nxt is None:
        cut = not s.closed or (record_end is not None and s.end >= record_end - RECORDING_END_S)
        return TAG_LIKELY_INTERRUPTION if cut else None
    if any(window[0] <= t < window[1] for t in tool_times):
        return TAG_PAUSE
    if nxt.start - s.end >= LIKELY_INTERRUPTION_GAP_S:
        return TAG_LIKELY_INTERRUPTION
    return None


def _with_inline(chunks: list[tuple[float, str]], marks: list[tuple[float, str]]) -> list[str]:
    """Chunk texts in time order with each mark placed between the chunks around it."""
    out: list[str] = []
    chunks = sorted(chunks, key=lambda c: c[0])
    pending = sorted(marks)
    for i, (t, text) in enumerate(chunks):
        while pending and i > 0 and pending[0][0] <= t:
            if chunks[i - 1][0] < pending[0][0]:
                out.append(pending[0][1])
            pending.pop(0)
        out.append(text)
    return out


def tagged_texts(
    sessions: list[Session],
    tool_times: dict[int, list[float]],
    record_end: float | None = None,
    final_agent_cut: bool = False,
) -> dict[str, dict[int, list[tuple[float, str]]]]:
    """Per text kind and turn: `(session start, tagged session text)` pieces.

    `sessions` carry their turn and text chunks; `tool_times` maps a turn to the times of
    its tool calls; `record_end` is when the call's recording stopped, if known;
    `final_agent_cut` is EVA mode (see module doc). Sessions without text of a kind
    contribute only their tags to a kind another session of theirs in the turn has text of.
    """
    by_turn: dict[tuple[Who, int], list[Session]] = {}
    for s in sorted(sessions, key=lambda s: s.start):
        by_turn.setdefault((s.who, s.turn), []).append(s)
    out: dict[str, dict[int, list[tuple[float, str]]]] = {k: {} for k in TEXT_KINDS}
    last = max(sessions, key=lambda s: s.start, default=None)
    others_of: dict[Who, SpanIndex] = {}
    for (who, turn), own in by_turn.items():
        others = others_of.get(who)
        if others is None:  # the same index for every turn of a speaker: built once
            others = others_of[who] = SpanIndex([o for o in sessions if o.who != who])
        tools = tool_times.get(turn, [])
        kinds = {k for s in own for k in s.texts}
        for i, s in enumerate(own):
            nxt = own[i + 1] if i + 1 < len(own) else None
            lo = s.start if i > 0 else float("-inf")
            end_tag = _end_tag(s, others, nxt, (lo, nxt.start if nxt else lo), tools, record_end)
            if final_agent_cut and s is last and who == "assistant" and turn > 0 and end_tag is None:
                end_tag = TAG_CUT_ITSELF
            prefix = _INTERRUPTS[who] if others.containing(s.start) else None
            inline = [(o.start, _INTERRUPTS[o.who]) for o in others.starting_inside(s.start, s.end)]
            for kind in kinds:
                # a session whose text landed on a neighbour (text events arrive before or
                # after their audio) still gives its tags, in place
                words = _with_inline(s.texts.get(kind, []), inline)
                parts = [x for x in (prefix, *words, end_tag) if x]
                if parts:
                    out[kind].setdefault(turn, []).append((s.start, " ".join(parts)))
    return out


def tags_in(text: str) -> list[str]:
    """The interruption tags in `text`, in order (audio-direction tags like [slow] excluded)."""
    found: list[tuple[int, str]] = []
    for tag in ALL_TAGS:
        start = 0
        while (i := text.find(tag, start)) >= 0:
            found.append((i, tag))
            start = i + 1
    return [t for _, t in sorted(found)]


def cut_off(text: str, at_end: bool = False) -> bool:
    """Whether `text` was cut off or overlapped: one of `BROKEN_TAGS` in it or, `at_end`, ending
    it. A finding that needs a line heard whole (the agent asking again for what the caller said,
    saying again what it said itself) is not made on such a line: the other side may have missed
    its words. The one test of the offline judges (progression's re-ask, conciseness's said
    again)."""
    if at_end:
        return text.rstrip().endswith(tuple(BROKEN_TAGS))
    return any(t in text for t in BROKEN_TAGS)


def iter_regions(text: str) -> Iterable[tuple[str, str | None]]:
    """Split `text` at interruption tags: `(text before the tag, the tag)`; the last piece
    has tag None. Used to tell words that may not have been spoken from the rest."""
    rest = text
    while True:
        hits = [(rest.find(t), t) for t in ALL_TAGS if t in rest]
        if not hits:
            yield rest, None
            return
        i, tag = min(hits)
        yield rest[:i], tag
        rest = rest[i + len(tag) :]
