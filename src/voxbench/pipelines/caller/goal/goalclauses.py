"""The clauses of a goal's statement that say something about the caller, for
:mod:`.openask` to answer open questions from.

A clause is about the caller when 'you' or 'your' is its subject ('Your Wi-Fi shows connected,
but nothing loads' -> the first). Two forms of a goal's prose say that with no subject first:

* a short lead-in before the subject ('and after troubleshooting you want a technician visit
  scheduled'): a word of ``clause_lead_in`` and up to two words, then 'you'; the lead-in is left
  out ('you want a technician visit scheduled');
* a verb phrase after ', and' in a list of what 'you need to' do ('you need to provision accounts
  ..., get yourself read-only access to Confluence, and book a conference room'): it shares the
  subject and verb of the clause before it ('you need to book a conference room') only when it
  is a bare verb phrase (``_verb_phrase``): no determiner, pronoun or adverb first
  (``clause_not_verb``) and no finite verb of its own (``clause_finite``), so 'and everything
  should work after' stays a clause of its own.

An instruction ('If the agent ...') is no statement; a condition ('... once that is handled')
is cut at the sentence's first ``yesno.cut`` word. The words are data (``openask`` in
``goal/lang/<lang>.json``).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.lang import alt


def _a(name: str) -> str:
    return alt("openask", name)


_CUT = re.compile(rf"\s+(?:{alt('yesno', 'cut')})\b.*$", re.I)
_CLAUSE = re.compile(
    rf"\s*(?:[;:](?=\s)|,\s*(?:{alt('yesno', 'clause_conj')})\b|,\s*(?=(?:{_a('about_caller')})\b)"
    rf"|\b(?:{alt('yesno', 'clause_but')})\b|\b(?:{alt('yesno', 'clause_and')})\b(?=\s+(?:{_a('about_caller')})\b))\s*",
    re.I,
)
_ABOUT_CALLER = re.compile(rf"^(?:{_a('about_caller')})\b", re.I)
_INSTRUCTION_LEAD = re.compile(rf"^(?:{_a('instruction_lead')})\b", re.I)
_LEAD_IN = re.compile(
    rf"^(?:{_a('clause_lead_in')})(?:\s+[\w'-]+){{1,2}}?\s+(?=(?:{_a('about_caller')})\s)", re.I
)
_SHARED = re.compile(rf"^(?:{_a('about_caller')})(?:\s+[\w'-]+){{1,3}}?\s+(?:{_a('clause_shared')})\s+", re.I)
"""The subject and verb a list of verb phrases shares ('you need to ', 'you also want to ')."""
_NOT_VERB = re.compile(rf"^(?:{_a('clause_not_verb')})\b", re.I)
_FINITE = re.compile(rf"(?<![\w'-])(?:{_a('clause_finite')})(?![\w'-])", re.I)


def _verb_phrase(part: str) -> bool:
    """Whether ``part`` is a bare verb phrase that shares the subject and verb before it ('book a
    conference room'): it opens lowercase with no word of ``clause_not_verb`` (a determiner,
    pronoun or adverb: 'everything should work', 'hopefully the fee is waived') and holds no finite
    verb of its own (``clause_finite``: a be-verb, modal or has/does: 'nobody else can do it')."""
    return part[:1].islower() and not _NOT_VERB.match(part) and not _FINITE.search(part)


def caller_clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence`` about the caller, each with its subject (module docstring)."""
    if _INSTRUCTION_LEAD.match(sentence.strip()):
        return []
    parts = [p.strip(" ,.;:") for p in _CLAUSE.split(_CUT.sub("", sentence)) if p and p.strip(" ,.;:")]
    out, shared = [], ""
    for p in parts:
        p = _LEAD_IN.sub("", p)
        if not _ABOUT_CALLER.match(p) and shared and _verb_phrase(p):
            p = f"{shared}{p}"  # 'and book a conference room': 'you need to book a conference room'
        m = _SHARED.match(p)
        shared = m.group(0) if m else ""
        out += [p] if _ABOUT_CALLER.match(p) else []
    return out
