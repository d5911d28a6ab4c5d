"""Options an agent offers marked by the turn's structure, not by an either/or question.

"You could A, or I can B. Which would you prefer?", "There are two options: first, A; second,
B.", "I can offer A. Alternatively, B.", "Option one is A, option two is B.", "Here are your
options: 1. A 2. B. Which one?": the options sit in the sentences before the question (or in a
turn that asks none), each begun by a mark: a list marker ('1.', '2)'), an ordinal ('first',
'option two'), a word that brings in another ('alternatively', 'or' after a comma or starting a
sentence). A mark of a first option ('first', 'option one', '1.') makes what comes before it an
introduction; any other mark makes it the first option. A turn that refuses offers none here: the
refusal is answered first, as the tree says (:func:`.offered.offers_asked`). The options are read only when the
question asks which (``options.choice_cue``) or the turn names options (``option_marks.offer_cue``):
steps listed 'first, ...; second, ...' offer nothing. Each option is said without its lead-in
('I can', 'you could', 'is to') and its trailing words ('for you', 'instead'). The words are
data (``phrases.option_marks`` of ``goal/lang/<lang>.json``).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.conditions import refuses
from voxbench.pipelines.caller.goal.lang import alt, phrases


def _m(name: str) -> str:
    return alt("option_marks", name)


_FIRST = rf"(?:{_m('first')})"
_NEXT = rf"(?:{_m('next')})"
# a mark at a boundary: the turn's start, after a sentence's or clause's punctuation, and a list
# marker ('1.', '2)') anywhere a word may start
_MARK = re.compile(
    rf"(?:^|(?<=[.;:,!—–-])\s*|\s+)(?:(?P<num>\d)[.)](?=\s)|(?<=[.;:,!—–-]\s)(?P<word>{_FIRST}|{_NEXT})\b|^(?P<start>{_FIRST}|{_NEXT})\b)",
    re.I,
)
_IS_FIRST = re.compile(rf"{_FIRST}$", re.I)
_OR = re.compile(rf"(?:{_m('or')})(?:\s|$)", re.I)
_CUE = re.compile(rf"\b(?:{_m('offer_cue')})\b", re.I)
CHOICE_Q = re.compile(rf"\b(?:{alt('options', 'choice_cue')})\b", re.I)
"""A question that asks for a choice ('which', 'prefer', 'choose')."""
_LEAD = re.compile(rf"^(?:(?:{_m('offer_lead')}|{_m('lead')})\s+)+", re.I)
OFFER_LEAD = re.compile(rf"^(?:{_m('offer_lead')})\s+", re.I)
"""Who offers and the modal an option is said with ('I can', 'we could go ahead and')."""
_TRAIL = re.compile(rf"(?:\s+(?:{_m('trail')}))+$", re.I)
CHOICE_ASKED = re.compile(rf"\b(?:{_m('or')})\b|^\s*(?:{_m('which')})\b", re.I)
"""A question that asks which ('..., or ...?', 'Which ...?'): a choice, answered with no yes."""
YES = phrases("option_marks", "yes")[0]
"""How the caller takes a thing offered by a yes/no question ('Yes.')."""


def a_choice(options: list[str], question: str) -> bool:
    """Whether the turn asks the caller to choose: two options heard, or a question that asks which."""
    return len(options) >= 2 or bool(CHOICE_ASKED.search(question))


_SENTENCE_END = re.compile(r"[.!?]\s+")
_MOST = 5
"""More items than this are a list of things asked or told, not options offered."""
OPTION_WORDS = 20
"""An option longer than this is a clause the marks cut wrong, not an option."""


def _clean(part: str) -> str:
    part = part.strip(" ,;:.!—–-")
    part = _TRAIL.sub("", _LEAD.sub("", part)).strip(" ,;:.!—–-")
    return part


def _split_or(part: str) -> list[str]:
    """'A, B' before an 'or' mark: the items of an 'A, B, or C' list (three at least with the
    last), in the sentence of the 'or' only."""
    part = _SENTENCE_END.split(part)[-1]
    items = [p for p in part.split(", ") if p.strip()]
    return items if len(items) >= 2 else [part]


def _word(m: re.Match[str], body: str) -> str:
    """The mark's word; an 'or' only after a comma ('A, B, or C': the items before it a list), not
    one that starts a sentence ('... which seats six. Or room 301': the sentence before one option)."""
    w = m.group("word") or m.group("start") or ""
    return "" if _OR.match(w) and body[m.start() - 1 : m.start()] != "," else w


def marked_options(sents: list[str], question: str) -> list[str]:
    """The options the turn's sentences before ``question`` mark (see the module docstring); []
    when fewer than two are marked."""
    i = sents.index(question) if question in sents else len(sents)
    body = " ".join(sents[:i]).strip()
    if not body or not (CHOICE_Q.search(question) or _CUE.search(body)):
        return []
    marks = list(_MARK.finditer(body))
    if not marks or refuses(sents):
        return []  # a refusal first, answered as the tree says (:func:`.offered.offers_asked`)
    first = marks[0].group("num") == "1" or bool(
        _IS_FIRST.match(marks[0].group("word") or marks[0].group("start") or "")
    )
    cuts = [(m.start(), m.end(), _word(m, body)) for m in marks]
    parts: list[str] = []
    head = body[: cuts[0][0]]
    if not first and head.strip():
        head = head.rsplit(":", 1)[-1]
        parts += _split_or(head) if _OR.match(cuts[0][2]) else [head]
    for (_, end, _), nxt in zip(cuts, [*cuts[1:], (len(body), len(body), "")], strict=True):
        seg = body[end : nxt[0]]  # an option ends with its sentence: 'C. You need X.' offers 'C'
        parts += _split_or(seg) if _OR.match(nxt[2]) else _SENTENCE_END.split(seg)[:1]
    out = [c for p in parts if (c := _clean(p))]
    if not 2 <= len(out) <= _MOST or any(len(o.split()) > OPTION_WORDS for o in out):
        return []
    return out
