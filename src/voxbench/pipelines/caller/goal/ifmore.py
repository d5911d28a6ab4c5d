"""The clause of an agent sentence that asks whether the caller needs more ("anything else?",
"will that be all?"), cut from the rest so that the rest is read as any other request.

'Is there anything else I can help you with regarding employee ID EMP..., start time 9 AM?': the
values after the cue name what the call was about and ask none of them (answered with one, the
caller never ends). The clause it leads is only that: 'What is your employee ID, and is there
anything else I can help with?' still asks the employee ID in its first clause, 'Anything else I
can help with, and could you confirm your employee ID?' in its last, and a cue that does not lead
its clause ('Could you tell me your employee ID and anything else you need?') cuts nothing.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import ANYTHING_ELSE, THAT_ALL
from voxbench.pipelines.caller.goal.ending_lang import ending_words, pattern
from voxbench.pipelines.caller.goal.reasked import ASKS_VALUE

_PUNCT = re.compile(r"[,;:]")


def more_span(sentence: str) -> tuple[int, int] | None:
    """Where the clause an "anything else?" / "will that be all?" cue leads begins and ends in
    ``sentence``, with the breaks around it (None: no such clause). It begins after the last comma or clause break before the
    cue, with at most ``more_lead`` words before the cue; it ends at the next clause break
    (``more_clause_break``: ', and could you ...', ', or what is ...'), not at the commas that list
    its values. A clause that asks a value itself ('..., or can you give me your phone number?'
    read as one) is no such clause."""
    m = ANYTHING_ELSE.search(sentence) or THAT_ALL.search(sentence)
    if m is None:
        return None
    breaks = pattern("more_clause_break")
    before = [(x.start(), x.end()) for x in (*_PUNCT.finditer(sentence, 0, m.start()),
                                             *breaks.finditer(sentence, 0, m.start()))]  # fmt: skip
    start, lead = max(before, key=lambda x: x[1], default=(0, 0))
    if len(sentence[lead : m.start()].split()) > ending_words().more_lead:
        return None
    after = breaks.search(sentence, m.end())
    if ASKS_VALUE.search(sentence[m.end() : after.start() if after is not None else len(sentence)]):
        return None
    return start, after.end() if after is not None else len(sentence)


def without_more(sentence: str) -> str:
    """``sentence`` with the clause its "anything else?" cue leads cut out (:func:`more_span`): what
    is left is read for the values it asks as any request; '' when the sentence is that clause."""
    span = more_span(sentence)
    if span is None:
        return sentence
    rest = f"{sentence[: span[0]]} {sentence[span[1] :]}".strip(" ,;:")
    if not any(c.isalnum() for c in rest):
        return ""
    end = sentence.rstrip()[-1:]
    return rest if rest.endswith(("?", ".", "!")) or end not in "?.!" else f"{rest}{end}"
