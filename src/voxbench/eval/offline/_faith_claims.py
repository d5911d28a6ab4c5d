"""Faithfulness rules over what the agent *says*: amounts, codes and times no source holds,
statements that contradict a tool result, policies the policy text does not contain, a
different brand than the agent's role, capabilities no tool provides, lookups that failed
without asking the caller to confirm, and a record reported found that no lookup returned."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from voxbench.eval.offline._faith_rules import (
    DISAMBIGUATE,
    HALLUCINATION,
    MISREPRESENT,
    POLICY,
    Finding,
    number_grounded,
)
from voxbench.eval.offline._faith_times import durations, time_derivable
from voxbench.eval.offline._trace import Conversation, Step, lookup_missed, response_failed, tool_names
from voxbench.eval.offline._values import (
    amount_values,
    canon_code,
    code_supported,
    data_keys,
    scalar_keys,
    spoken_values,
)
from voxbench.spoken import sentences_of

_OFFER = re.compile(
    r"\b(i can|i could|i'll|i will|would you like me to|want me to|shall i|i'm able to|if you (want|like|'d like))\b",
    re.I,
)


def _later_keys(conv: Conversation, s: Step) -> set[str]:
    """Keys the agent itself put in tool calls before this point (echoing them is not new)."""
    out: set[str] = set()
    for x in conv.steps[: s.i]:
        if x.kind == "tool_call":
            for v in x.params.values():
                out |= {f"c:{canon_code(str(v))}"}
                # the clock times it searched or booked ("from ten AM to eleven thirty AM" after
                # start_time 10:00): the parameter itself is checked by the parameter rules
                out |= {k for k in scalar_keys(v) if k.startswith("t:")}
    return out


_EXAMPLE = re.compile(
    r"\b(for example|for instance|something like|such as|e\.g\.|in (this|that|the) format)|,\s*like\b", re.I
)
"""A value in an example of a format ("in this format: letters, dash, two digits and a letter,
like M G H dash zero four B") claims nothing."""


def _o_zero(keys: set[str]) -> set[str]:
    return {k.replace("o", "0") if k.startswith("c:") else k for k in keys}


def _code_heard(key: str, known: set[str]) -> bool:
    """Supported as said, or with the letter O and the digit zero taken as one (a caller's "J two
    O seven" read back as "J two zero seven": the same sound, which a read-back asks to confirm)."""
    if code_supported(key, known):
        return True
    return ("o" in key[2:] or "0" in key[2:]) and code_supported(
        "c:" + key[2:].replace("o", "0"), _o_zero(known)
    )


def unsupported_values(conv: Conversation) -> Iterator[Finding]:
    """Amounts, codes and clock times in agent speech that nothing before it supports."""
    any_tool = False
    for s in conv.steps:
        if s.kind == "tool_response":
            any_tool = True
        if s.kind != "assistant":
            continue
        known = s.known | _later_keys(conv, s)
        dim = MISREPRESENT if any_tool else HALLUCINATION
        for v in amount_values(s.text):
            x = float(v.key[2:])
            if x >= 10 and not number_grounded(x, known):
                yield Finding(dim, 1, s.turn, f"amount {v.surface!r}",
                              "amount no tool result, caller statement or policy gives (nor a sum/difference)")  # fmt: skip
        spoken = [
            v for sent in sentences_of(s.text) if not _EXAMPLE.search(sent) for v in spoken_values(sent)
        ]
        for v in spoken:
            body = v.key[2:]
            if v.kind == "c" and any(ch.isalpha() for ch in body) and any(ch.isdigit() for ch in body):
                if not _code_heard(v.key, known) and not _count_of_acronym(body, conv, s):
                    yield Finding(HALLUCINATION, 1, s.turn, f"code {v.surface!r} -> {body.upper()}",
                                  "code / number no caller statement or tool result contains")  # fmt: skip
            elif (
                v.kind == "t"
                and any_tool
                and v.key not in known
                and not time_derivable(v.key, known, durations(conv, s))
            ):
                yield Finding(dim, 1, s.turn, f"time {v.surface!r}",
                              "clock time no tool result or caller statement gives")  # fmt: skip


def _count_of_acronym(body: str, conv: Conversation, s: Step) -> bool:
    """ "two I T issues", "three V P N profiles": a count before letters the caller used as an
    acronym ("IT", "VPN") is no code."""
    m = re.match(r"^([1-9])([a-z]{2,4})$", body)
    if not m:
        return False
    acro = re.compile(rf"\b{m.group(2).upper()}\b")
    return any(x.kind == "user" and acro.search(x.text) for x in conv.steps[: s.i])


_NO_DELAY = re.compile(r"\b(no delays?|not delayed|on time|on schedule|no changes? to your flight)\b", re.I)


def contradictions(conv: Conversation) -> Iterator[Finding]:
    """'On time' / 'no delay' while an earlier tool result shows a delay or cancellation."""
    delayed: str | None = None
    for s in conv.steps:
        if s.kind == "tool_response":
            d = _find(s.response, "delay_minutes")
            st = str(_find(s.response, "status") or "").lower()
            if isinstance(d, int | float) and d > 0:
                delayed = f"delay_minutes={d}"
            elif st in ("delayed", "cancelled", "canceled"):
                delayed = f"status={st}"
        elif (
            s.kind == "assistant"
            and delayed
            and (m := _NO_DELAY.search(s.text))
            and not re.search(r"\b(not|isn't|wasn't|no longer)\s+" + re.escape(m.group(0)), s.text, re.I)
        ):
            yield Finding(MISREPRESENT, 1, s.turn, f"{m.group(0)!r} while a tool showed {delayed}",
                          "statement contradicts a tool result")  # fmt: skip


def _find(obj: object, key: str) -> object:
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for v in obj.values():
            r = _find(v, key)
            if r is not None:
                return r
    elif isinstance(obj, list):
        for v in obj:
            r = _find(v, key)
            if r is not None:
                return r
    return None


_POLICY_CUE = re.compile(
    r"\b(per our|according to (our|the|company)|under our|company (policy|policies|rules?)|guidelines|"
    r"entitled to|guarantee[sd]?|unlimited|"
    r"our (\w+ )?(policy|policies|rules) (allow|guarantee|provide|say|state|is|are|cover|let|include|entitle)s?|"
    r"all (passengers|customers|elite|members|travelers|travellers|employees|users|tickets|fares) "
    r"(are|get|receive|can|have|qualify))\b",
    re.I,
)
_NEGATED = re.compile(r"\b(not|can't|cannot|can’t|unable|won't|won’t|doesn't|doesn’t|isn't|isn’t|no)\b", re.I)
_STOP = set(
    [
        "that",
        "this",
        "with",
        "your",
        "have",
        "will",
        "from",
        "they",
        "their",
        "there",
        "what",
        "when",
        "which",
        "would",
        "could",
        "should",
        "about",
        "into",
        "them",
        "then",
        "than",
        "also",
        "just",
        "only",
        "been",
        "were",
        "being",
        "does",
        "doing",
        "done",
        "very",
        "more",
        "most",
        "such",
        "some",
        "any",
        "each",
        "every",
        "other",
        "these",
        "those",
        "here",
        "where",
        "while",
        "within",
        "without",
        "over",
        "under",
        "after",
        "before",
        "today",
        "call",
        "calls",
        "help",
        "happy",
        "sure",
        "thanks",
        "thank",
        "please",
        "like",
        "need",
        "want",
        "make",
        "made",
        "know",
        "let",
        "okay",
    ]
)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4 and w not in _STOP}


def invented_policies(conv: Conversation) -> Iterator[Finding]:
    """A sentence that states a policy ('per our guidelines', 'all passengers are entitled')
    with content words found nowhere in the policy, the tool results or the caller's words."""
    if not conv.has_policy:
        return
    vocab = _policy_vocab(conv.policy_text)
    for s in conv.steps:
        if s.kind != "assistant":
            continue
        for sent in sentences_of(s.text):
            if not _POLICY_CUE.search(sent) or _NEGATED.search(sent) or _OFFER.search(sent) or "?" in sent:
                continue
            known = vocab | _words(s.known_text)  # only for the rare policy-like sentence
            novel = sorted(w for w in _words(sent) if w not in known and _stem(w) not in known)
            if novel:
                yield Finding(POLICY, 1, s.turn, sent[:200],
                              f"policy statement not in the policy text (unknown: {', '.join(novel[:4])})")  # fmt: skip


@lru_cache(maxsize=64)
def _policy_vocab(text: str) -> frozenset[str]:
    words = _words(text)
    return frozenset(words | _stems(words))


def _stem(w: str) -> str:
    for suf in ("ies", "es", "s", "ed", "ing", "ly"):
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: -len(suf)]
    return w


def _stems(ws: set[str]) -> set[str]:
    return {_stem(w) for w in ws}


_OTHER_BRANDS = ("Southwest", "JetBlue", "United", "American", "Alaska", "Spirit", "Frontier", "Hawaiian",
                 "Allegiant", "Delta", "Lufthansa", "Ryanair", "Emirates")  # fmt: skip
_NUMWORD = r"(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"


def wrong_brand(conv: Conversation, role: str) -> Iterator[Finding]:
    """The agent names another company than the one its role names."""
    m = re.search(r"\bfor ([A-Z][\w&]+(?: [A-Z][\w&]+)*)", role)
    own = m.group(1).split()[0] if m else ""
    for s in conv.steps:
        if s.kind != "assistant":
            continue
        for b in _OTHER_BRANDS:
            if b == own:
                continue
            if re.search(rf"\b{b}\s+(Airlines?|Airways|flight|{_NUMWORD})", s.text):
                yield Finding(HALLUCINATION, 2, s.turn, f"{b!r} (agent role: {own or '?'})",
                              "brand other than the agent's own")  # fmt: skip
                break


_SEND = re.compile(r"\b(text|e-?mail|sms|send)\b(?! (?:address|on file))", re.I)
_OFFER_TO_SEND = re.compile(_OFFER.pattern + r"\W+(?:(?:also|then|just|go ahead and|be able to|to)\W+)*"
                            + _SEND.pattern, re.I)  # fmt: skip
"""The agent is the one sending: the send verb follows the offer ('I can text you...', 'want
me to email...'), not 'if he can send you the code, I can help'."""


def missing_capabilities(conv: Conversation, tools: list[dict[str, Any]]) -> Iterator[Finding]:
    """The agent offers to text / email / send something when no tool can send anything."""
    names = " ".join(tool_names(tools)).lower()
    if not names or re.search(r"send|email|sms|notify|message|text", names):
        return
    for s in conv.steps:
        if s.kind != "assistant":
            continue
        for sent in sentences_of(s.text):
            if _OFFER_TO_SEND.search(sent):
                yield Finding(HALLUCINATION, 2, s.turn, sent[:200], "offers a capability no tool provides")
                return


_ASK_CONFIRM = re.compile(
    r"\b(spell|confirm|repeat|double-?check|verify|say (it|that) again|one more time|read (it|that) back|"
    r"could you (give|provide|tell)|can you (give|provide|tell)|is that correct|try again|once more|"
    r"check (that|the|your)|read (it|that|me))\b",
    re.I,
)


def failed_lookup_not_clarified(conv: Conversation) -> Iterator[Finding]:
    """A lookup failed and the agent neither retried nor asked the caller to confirm / spell."""
    steps = conv.steps
    for s in steps:
        if s.kind != "tool_response" or conv.tool_kind(s.tool) != "read" or not lookup_missed(s.response):
            continue
        nxt_user = next((x.i for x in steps[s.i + 1 :] if x.kind == "user"), len(steps))
        window = steps[s.i + 1 : nxt_user]
        retried = any(x.kind == "tool_call" and x.tool == s.tool for x in window)
        asked = any(x.kind == "assistant" and _ASK_CONFIRM.search(x.text) for x in window)
        if _keys_from_tools(conv, s):
            continue
        if not retried and not asked and any(x.kind == "assistant" for x in window):
            yield Finding(DISAMBIGUATE, 2, s.turn, f"{s.tool} failed; agent did not ask to confirm or spell",
                          "failed lookup without clarification")  # fmt: skip


def _keys_from_tools(conv: Conversation, resp: Step) -> bool:
    """Every value of the failed call came from an earlier tool result (a flight number read off
    the reservation): nothing the caller said could have been misheard, so "not found" is an
    answer to relay, not an ambiguity to clear up with the caller."""
    call = next(
        (x for x in reversed(conv.steps[: resp.i]) if x.kind == "tool_call" and x.tool == resp.tool), None
    )
    if call is None or not call.params:
        return False
    seen: set[str] = set()
    for x in conv.steps[: call.i]:
        if x.kind == "tool_response":
            seen |= data_keys(x.response)
    return all(scalar_keys(v) & seen for v in call.params.values() if v not in (None, ""))


_FOUND = re.compile(
    r"\bi(?:'ve| have)?\s+(?:found|located|pulled up|retrieved)\b.{0,40}?\b(?:booking|reservation|record|"
    r"account|ticket|case|order|appointment|profile|file|details)\b",
    re.I,
)


def found_without_lookup(conv: Conversation) -> Iterator[Finding]:
    """The agent reports a record found ("I have found your booking. You have a flight from ...")
    when no tool call before it returned anything: what it goes on to say of the record can only
    be made up. Seen with the offline 1.5B agent (make run, 2026-12-04): route, date, fare class and
    bags of a booking it never looked up, rated 3 by the rules above (no amount, code or time)."""
    looked_up = False
    for s in conv.steps:
        if s.kind == "tool_response" and not response_failed(s.response):
            looked_up = True
        elif s.kind == "assistant" and not looked_up and (m := _FOUND.search(s.text)):
            yield Finding(HALLUCINATION, 1, s.turn, f"{m.group(0)!r} with no lookup result before it",
                          "record reported found that no tool returned")  # fmt: skip
