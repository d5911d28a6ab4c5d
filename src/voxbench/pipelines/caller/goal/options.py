"""The alternatives an agent offers in a turn ('window or aisle?', items listed before 'Which one?')."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.lang import alt, alts
from voxbench.pipelines.caller.goal.marked import CHOICE_Q, OFFER_LEAD, OPTION_WORDS, marked_options
from voxbench.spoken import tokens


def _a(name: str) -> str:
    return alt("options", name)


# The words are data (``goal/lang/<lang>.json``, ``phrases.options``); the grammar (and the
# conjunctions 'or' / 'and' that split a list) is here.
_OR, _AND, _TO = alt("option_words", "or"), alt("option_words", "and"), alt("option_words", "to")
"""The conjunctions that join options and the infinitive's mark (``phrases.option_words``)."""
OPTION_LEAD = re.compile(rf"\b(?:{_a('option_lead')})\b", re.I)
"""A statement that offers options as a question does ('Let me know if you'd like A or B.'): its
lead is a question's, not a request to say or tell something."""
_LEAD = re.compile(
    rf"^(?:.*?\b(?:{_a('question_lead')}|{_a('option_lead')})\b\s*(?:(?:{_TO})\s+)?(?:(?:{alt('option_words', 'me')}) (?:{_TO})\s+)?)",
    re.I,
)
ANY_AUX = alts("questions", "auxiliary", "wish_aux", "proposal_aux")
"""Any auxiliary a yes/no question starts with (``phrases.questions``): of a state ('is it'), a wish
('would you') or a proposal ('shall I'). Some patterns take only ``questions.auxiliary``: there a
'would you like' is a wish, not a question of fact."""

# A part that starts the question itself ('are you unable to connect', 'does it drop'): what comes
# before it is context, not an option.
_AUX_LEAD = re.compile(rf"({ANY_AUX})\s+({alt('questions', 'subject')})\b", re.I)
_RELATIVE = re.compile(rf"({_a('relative')})\b", re.I)  # ', which could include a higher cabin,'
_OFFER_ITEM = re.compile(rf"\b({_a('offer_item')})\b")
_NOT_AN_OFFER = re.compile(rf"\b({_a('not_an_offer')})\b", re.I)
_WH = re.compile(rf"({_a('question_word')})\b", re.I)
_VALUE_WH = re.compile(rf"({_a('value_question_word')})\b", re.I)
"""A question that asks which of the options ('Which would you prefer?', 'do you prefer')."""
_ITEM_SPLIT = re.compile(
    rf",\s*(?:(?:{_AND})\s+)?(?=(?:{_a('item_start')})\b)|;\s*|\b(?:{_AND}) (?=(?:{alt('option_words', 'article')})\b)"
)
_HAS_OR = re.compile(rf"\b(?:{_OR})\b", re.I)
_OR_SPLIT = re.compile(rf",\s*(?:(?:{_OR})\s+)?|\s+(?:{_OR})\s+")
_JOINED = re.compile(rf"(?:{_AND}|{_OR})\s", re.I)
_JOIN_LEAD = re.compile(rf"^(?:{_AND}|{_OR})\s+", re.I)
_CLAUSE_SPLIT = re.compile(rf",\s*(?:(?:{_OR})\s+)?|\s+(?:{_OR})\s+|:\s*")
_EXAMPLE_SPLIT = re.compile(rf",\s*(?:(?:{_OR})\s+|(?:{_AND})\s+)?|\s+(?:{_OR})\s+|\s+(?:{_AND})\s+")
_TAIL_SPLIT = re.compile(rf"\s+(?:{_AND}|{_OR})\s+")
_LISTING_LEAD = re.compile(rf"^({_a('listing_lead')})\s+", re.I)
_DASHED_WH = re.compile(rf"\s+[—–-]+\s+(?:{_a('question_word')})\b.*$", re.I)
"""A question asked after a dash, its options before it ('A, B, or C — which works best?')."""


_BARE_WORDS = 12
"""A part longer than this, in a question with no question or offer lead, is context, not an option."""


def offered_options(sents: list[str], question: str) -> list[str]:
    """The alternatives an agent offered: 'window or aisle?', the items listed before 'Which one?',
    else the options the turn's structure marks (:mod:`.marked`)."""
    return _asked_options(sents, question) or marked_options(sents, question)


def _asked_options(sents: list[str], question: str) -> list[str]:
    q = _DASHED_WH.sub("", question.rstrip("?").strip())  # 'A, B, or C — which works best?'
    if ":" in q:
        q = q.split(":", 1)[1]
    if _HAS_OR.search(q) and not examples_of_any(question):
        parts = [p.strip(" ,.") for p in _OR_SPLIT.split(q) if p.strip(" ,.")]
        if len(parts) >= 3 and (_WH.match(parts[0]) or len(parts[0].split()) == 1):
            parts = parts[1:]  # 'What would you like to handle first, A or B' / 'Next, A or B'
        lead = next((i for i, p in enumerate(parts) if _AUX_LEAD.match(p)), 0)
        if lead and len(parts) - lead >= 2:
            parts = parts[
                lead:
            ]  # 'For the Wi-Fi issue, are you unable to connect, or ...': context before the question
        if len(parts) == 2 and _VALUE_WH.match(parts[0]):
            return []  # 'What date or time would you like?': a value asked for, not two options
        led = any(_LEAD.match(p) for p in parts)
        parts = [_LEAD.sub("", p).strip(" ,.") for p in parts]
        led = led or any(OFFER_LEAD.match(p) for p in parts[:1])
        parts[:1] = [OFFER_LEAD.sub("", p) for p in parts[:1]]  # 'I can help you A, B, or C?'
        # a long option only where a question's or an offer's lead says options follow ('Do you want
        # me to help you <a request of 15 words> or ...?'); with none, a long part is context
        most = OPTION_WORDS if led else _BARE_WORDS
        parts = [p for p in parts if p and len(p.split()) <= most and not _RELATIVE.match(p)]
        if len(parts) >= 2:
            return parts
    listed: list[str] = []
    if not CHOICE_Q.search(question):
        return []
    for s in sents:
        if s == question:
            break
        # 'three times on August 21: nine AM, ten AM, and one PM': one option per item after the
        # colon; the lead (its date) is shared by all and belongs to none, so it picks none
        series = listed_series(s) if ":" in s else []
        if series and all(_OFFER_ITEM.search(" ".join(tokens(it))) for it in series):
            listed += series
            continue
        items = [p.strip(" ,.") for p in _ITEM_SPLIT.split(s) if p.strip()]
        for it in items:
            if _OFFER_ITEM.search(" ".join(tokens(it))) and not _NOT_AN_OFFER.search(it):
                listed.append(_LISTING_LEAD.sub("", it))
    if len(listed) >= 2:
        return listed
    i = sents.index(question) if question in sents else len(sents)
    before = sents[i - 1] if i > 0 else ""  # the sentence just before the question lists them
    series = [] if _STATUS.search(before) else listed_series(before)
    return [OFFER_LEAD.sub("", x) for x in series[:1]] + series[1:]  # 'We could A, B, or C.'


# A sentence reporting what the caller has ('I currently show orientation, badge pickup, and T B test
# as pending'), not what it may choose from.
_STATUS = re.compile(rf"\b({_a('status')})\b", re.I)


# Words that end the clause leading into a listed series ('I found three openings: ...', 'and I
# have ten AM, ...', 'You mentioned onboarding, ...', 'help with onboarding, ...').
_SERIES_LEAD = re.compile(rf"^.*?\b(?:{_a('series_lead')})\s+", re.I)


def listed_series(sentence: str) -> list[str]:
    """The items of a series a sentence lists ('ten AM, eleven AM, and two PM'; 'You mentioned
    onboarding, I-9, and a PTO request'; 'openings: nine AM or one PM'): at least three items, or
    two after a colon. The clause before the first item is not part of it."""
    s = sentence.rstrip(" .!")
    colon = ":" in s
    if colon:
        s = s.rsplit(":", 1)[1]
    parts = [p.strip() for p in re.split(r",\s*", s) if p.strip()]
    end = max((i for i, p in enumerate(parts) if _JOINED.match(p)), default=-1)
    if end < 0:  # 'A, B and C' / after a colon 'A or B'
        tail = _TAIL_SPLIT.split(parts[-1]) if parts else []
        if len(tail) != 2:
            return []
        parts, end = [*parts[:-1], tail[0], f"and {tail[1]}"], len(parts)
    items = [_JOIN_LEAD.sub("", parts[end])]
    for p in reversed(parts[:end]):
        lead = _SERIES_LEAD.match(p)
        if lead or _JOINED.match(p):
            items.insert(0, _JOIN_LEAD.sub("", p[lead.end() :] if lead else p))
            break
        if len(p.split()) > 5:
            break
        items.insert(0, p)
    items = [i for i in items if i and len(i.split()) <= 6 and not _NOT_AN_OFFER.search(i)]
    return items if len(items) >= (2 if colon else 3) else []


def option_clause(question: str, option: str) -> str:
    """The option as the agent said it, with the words the lead-stripping took off ('are you
    unable to connect at all' for 'unable to connect at all'); the option itself if not found."""
    q = question.rstrip("?").strip()
    for part in _CLAUSE_SPLIT.split(q):
        part = part.strip(" ,.")
        if option and part.lower().endswith(option.lower()) and len(part) > len(option):
            return part
    return option


# 'Do you need any room equipment, such as a projector, whiteboard, or speakerphone?': the list gives
# examples of what 'any' covers, a yes/no question, not alternatives to choose among.
_ANY_EXAMPLES = re.compile(
    rf"\b({_a('any_aux')}) (?:{alt('option_words', 'you')}) ({_a('any_verb')})\b[^?]*\b(?:{alt('option_words', 'any')})\b"
    rf"[^?]*?\b({_a('example_marker')})\s+(?P<ex>[^?]*)\?",
    re.I,
)


def examples_of_any(question: str) -> list[str]:
    """The examples a 'do you need any X, such as A, B, or C?' question lists ([] if it is not one)."""
    m = _ANY_EXAMPLES.search(question)
    if not m:
        return []
    return [p.strip(" ,.") for p in _EXAMPLE_SPLIT.split(m.group("ex")) if p.strip(" ,.")]
