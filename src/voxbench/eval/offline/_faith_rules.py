"""Faithfulness rules: each looks for one kind of issue EVA's faithfulness judge rates and
returns findings (dimension, rating 1 or 2, turn, claim, rule).

Severity follows EVA's rating scale: a wrong value reaching a write tool, an irreversible
action without the confirmation or disclosure the policy asks for, a wrong amount or an
invented policy told to the caller are 1; an ungrounded read-only lookup, a brand slip or an
offered capability no tool provides are 2.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import combinations

from voxbench.eval.offline._trace import Conversation, Step, charges, is_ancillary, response_failed
from voxbench.eval.offline._values import (
    amount_values,
    canon_code,
    code_supported,
    scalar_keys,
    spoken_values,
)

FABRICATION = "fabricating_tool_parameters"
MISREPRESENT = "misrepresenting_tool_result"
POLICY = "violating_policies"
DISAMBIGUATE = "failing_to_disambiguate"
HALLUCINATION = "hallucination"


@dataclass(frozen=True)
class Finding:
    dimension: str
    rating: int
    turn: int
    claim: str
    rule: str

    def evidence(self) -> dict[str, object]:
        return {"turn": self.turn, "claim": self.claim, "rule": self.rule, "dimension": self.dimension,
                "rating": self.rating}  # fmt: skip


# --- tool parameters ------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"^(\?+|unknown|placeholder|missing|n/?a|tbd|x{3,}|<.*>|\{.*\})$", re.I)
_ID_LIKE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{3,}$")
SNAKE_CASE = re.compile(r"^[a-z]+(?:_[a-z0-9]+)+$")
"""A snake_case value: a category the agent picks ('full_refund'), not a fact to ground."""
_PERSON_NAME = re.compile(
    r"(first|last|given|family|full|middle|sur|passenger|caller|employee)_?name$|^name$"
)
FREE_TEXT_WORDS = "summary|reason|note|description|comment|message|details"
"""Words of a tool parameter's name that make it free text, the agent's own words with no value to
ground ('issue_summary', 'cancellation_reason'): the one list the faithfulness rules and the fault
benches read (a use that takes more names adds them where it is)."""
_FREE_TEXT_PARAM = re.compile(FREE_TEXT_WORDS)


_SHORT_CODE = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9]{3}$")


def _id_like(v: str, kind: str) -> bool:
    """An identifier with a digit: 4+ characters, or in a write also 3 (a floor "FL2", a seat
    "21C": what the system records must come from somewhere)."""
    if not any(ch.isdigit() for ch in v):
        return False
    return bool(_ID_LIKE.match(v)) or (kind == "write" and bool(_SHORT_CODE.match(v)))


def _named_by_its_word(value: str, conv: Conversation, before: int) -> bool:
    """A short code the caller named by the word it abbreviates and its number ("floor three"
    for FL3, "building two" for BLD2): a standard mapping, grounded (EVA)."""
    m = re.match(r"^([A-Za-z]{1,3})(\d{1,2})$", value)
    if not m:
        return False
    pat = re.compile(rf"\b{re.escape(m.group(1).lower())}[a-z]*\s+(?:number\s+)?([\w-]+)", re.I)
    for x in conv.steps[:before]:
        if x.kind == "user":
            for hit in pat.finditer(x.text):
                if f"n:{int(m.group(2))}" in {v.key for v in spoken_values(hit.group(1))}:
                    return True
    return False


def _severity(conv: Conversation, tool: str) -> int:
    return 2 if conv.tool_kind(tool) == "read" else 1


def _variants_ok(value: str, conv: Conversation, before: int) -> bool:
    """A retried lookup with a close variant of a caller-stated code is disambiguation."""
    failed = any(s.kind == "tool_response" and response_failed(s.response) for s in conv.steps[:before])
    if not failed:
        return False
    v = re.sub(r"[^a-z0-9]", "", value.lower())
    for s in conv.steps[:before]:
        if s.kind == "user":
            for val in spoken_values(s.text):
                body = val.key[2:]
                if (
                    val.kind == "c"
                    and abs(len(body) - len(v)) <= 1
                    and SequenceMatcher(None, body, v).ratio() >= 0.6
                ):
                    return True
    return False


def fabricated_params(conv: Conversation) -> Iterator[Finding]:
    for s in conv.steps:
        if s.kind != "tool_call":
            continue
        for name, val in s.params.items():
            if isinstance(val, bool) or val is None or _FREE_TEXT_PARAM.search(name):
                continue
            if (s.tool, name) in conv.enums or (isinstance(val, str) and SNAKE_CASE.match(val)):
                continue  # a categorical choice, judged by the policy rules, not grounding
            sval = str(val).strip()
            if _PLACEHOLDER.match(sval):
                yield Finding(FABRICATION, _severity(conv, s.tool), s.turn, f"{s.tool}({name}={sval!r})",
                              "placeholder value instead of asking the caller")  # fmt: skip
                continue
            if isinstance(val, int | float):
                if val > 9 and not number_grounded(float(val), s.known):
                    yield Finding(FABRICATION, _severity(conv, s.tool), s.turn, f"{s.tool}({name}={val})",
                                  "number no caller statement, tool result or policy gives (nor a sum/difference)")  # fmt: skip
                continue
            if not isinstance(val, str) or not _id_like(sval, conv.tool_kind(s.tool)):
                if (
                    _PERSON_NAME.search(name.lower())
                    and isinstance(val, str)
                    and sval
                    and sval.lower() not in s.known_text
                    and f"c:{canon_code(sval)}" not in s.known
                ):
                    yield Finding(FABRICATION, _severity(conv, s.tool), s.turn, f"{s.tool}({name}={sval!r})",
                                  "name never said by the caller nor returned by a tool")  # fmt: skip
                continue
            keys = {k for k in scalar_keys(sval) if k.startswith("c:")}
            code = f"c:{canon_code(sval)}"
            if code_supported(code, s.known) or any(k in s.known for k in keys if len(k) > 5):
                continue
            if sval[:4].isdigit() and "-" in sval:  # a date: checked by the date rules, not here
                continue
            if _variants_ok(sval, conv, s.i) or _named_by_its_word(sval, conv, s.i):
                continue
            yield Finding(FABRICATION, _severity(conv, s.tool), s.turn, f"{s.tool}({name}={sval!r})",
                          "identifier no caller statement or earlier tool result contains")  # fmt: skip


def _numbers(keys: set[str], prefix: str) -> list[float]:
    out = []
    for k in keys:
        if k.startswith(prefix):
            try:
                out.append(float(k[2:]))
            except ValueError:
                continue
    return [x for x in out if x < 100000]


_MIN_TERM = 5
"""Amounts below this are no term of a sum: with 1-3 as terms nearly any figure is a sum. (It
was also the guard against seat counts read as fees, "premium_economy": 2; a field name now
needs a money word as its head, :func:`voxbench.spoken.data.is_money_field`.)"""


def number_grounded(x: float, known: set[str]) -> bool:
    """Held by a source, or a sum / difference of two, a sum of three, or a difference plus
    a smaller third of the *amounts* the sources hold (fares, fees, totals, amounts in the
    policy or said by the caller; not phone digits or flight numbers), each term at least
    `_MIN_TERM`."""
    if f"n:{_fmt(x)}" in known or f"m:{_fmt(x)}" in known:
        return True
    cand = sorted({n for n in _numbers(known, "m:") if n >= _MIN_TERM})
    for a, b in combinations(cand, 2):
        if abs(a + b - x) < 0.01 or abs(abs(a - b) - x) < 0.01:
            return True
    if len(cand) <= 60:
        for a, b, c in combinations(cand, 3):
            if abs(a + b + c - x) < 0.01:
                return True
    # a fare difference plus a fee: (new - old) + fee, the fee smaller than either fare (with
    # any third term nearly every figure is some difference plus some amount)
    fees = {round(c, 2) for c in cand}
    return any((f := round(x - (a - b), 2)) in fees and f < b for a in cand for b in cand if a > b)


# --- irreversible writes: confirmation and disclosure --------------------------------------------

_CONSENT = re.compile(
    r"\b(yes|yeah|yep|yup|sure|okay|ok|alright|all right|go ahead|please do|do it|do that|proceed|"
    r"confirm(ed)?|that works|works for me|sounds good|perfect|let'?s do|let'?s go|book (it|that|me)|"
    r"i'?ll take|take (it|that|the)|please (re)?book|please cancel|please process|please switch|"
    r"cancel (it|that|my|the)|rebook me|switch me|move me|put me|i accept|i approve|approved?|authori[sz]e|"
    r"agreed|correct)\b",
    re.I,
)
_ONLY_ASKS = re.compile(
    r"^(can|could|would|will|what|which|how|is|are|do|does)\b|\b(check|see|find out|tell me|let me know|"
    r"how much|what would|before (you|we|i))\b",
    re.I,
)


def _user_before(conv: Conversation, i: int) -> Step | None:
    return next((s for s in reversed(conv.steps[:i]) if s.kind == "user"), None)


def _consented(text: str) -> bool:
    """The caller's last words carry an explicit go-ahead (not only a question or a request to
    check first)."""
    if not _CONSENT.search(text):
        return False
    first = re.split(r"(?<=[.!?])\s+", text.strip())[0]
    return not (
        _ONLY_ASKS.search(first) and not re.match(r"^\W*(yes|yeah|yep|sure|okay|ok|go ahead)\b", text, re.I)
    )


_REQUIRES_CONFIRMATION = re.compile(
    r"explicit confirmation|confirmation before (proceeding|acting)|"
    r"explain before acting",
    re.I,
)


def unconfirmed_writes(conv: Conversation) -> Iterator[Finding]:
    """EVA policy rule: explain before acting, explicit confirmation before an irreversible
    write; reading and writing in one agent turn leaves the caller no moment to confirm.
    Only when the policy asks for it (EVA: do not invent requirements the policy lacks)."""
    if not _REQUIRES_CONFIRMATION.search(conv.policy_text):
        return
    seen: set[tuple[int, str]] = set()
    for s in conv.steps:
        if s.kind != "tool_call" or conv.tool_kind(s.tool) != "write" or is_ancillary(s.tool):
            continue
        if (s.turn, s.tool) in seen:
            continue
        seen.add((s.turn, s.tool))
        resp = next(
            (r.response for r in conv.steps[s.i + 1 :] if r.kind == "tool_response" and r.tool == s.tool), {}
        )
        if response_failed(resp):
            continue
        paid = charges(resp)
        spoke_since_user = any(
            x.kind == "assistant" for x in conv.steps[: s.i] if x.i > ((_user_before(conv, s.i) or s).i)
        )
        user = _user_before(conv, s.i)
        told = any(x.kind == "assistant" and x.turn < s.turn for x in conv.steps[: s.i])
        heavy = bool(paid) or re.search(r"cancel|refund|delete|terminate", s.tool.lower()) is not None
        if user is None or not _consented(user.text):
            # EVA: "an irreversible action without the explicit user confirmation that the
            # agent's policies require" is a 1 whatever it costs
            yield Finding(POLICY, 1, s.turn, f"{s.tool} after caller said {_q(user)}",
                          "write tool run without the caller's explicit confirmation")  # fmt: skip
        elif not told and not spoke_since_user:
            yield Finding(POLICY, 1 if heavy else 2, s.turn, f"{s.tool} before the agent explained anything",
                          "write tool run before explaining the change to the caller")  # fmt: skip
        elif _read_then_write(conv, s, user):
            yield Finding(POLICY, 1 if heavy else 2, s.turn, f"{s.tool} right after a lookup in the same turn",
                          "read and write in one turn: no pause for the caller to confirm")  # fmt: skip
        yield from _charge_findings(conv, s, paid)


def _charge_findings(conv: Conversation, s: Step, paid: list[tuple[str, float]]) -> Iterator[Finding]:
    """The first charge of write `s` the caller was not told before it: told as its parts (a
    fee plus a fare difference) is fine; at a figure within 10 % a misstatement (2); only as
    "a fee" a partial disclosure (2); not at all an undisclosed charge (1)."""
    for key, amount in paid:
        said = any(
            x.kind == "assistant" and f"n:{_fmt(amount)}" in {v.key for v in amount_values(x.text)}
            for x in conv.steps[: s.i]
        )
        if said:
            continue
        amounts = _amounts_told_before(conv, s)
        near = [k for k in amounts if _near_miss(float(k), amount)]
        if not near and number_grounded(amount, {f"m:{k}" for k in amounts}):
            continue
        charged = f"{s.tool} charged {key}={_fmt(amount)}"
        if near:
            yield Finding(MISREPRESENT, 2, s.turn, f"{charged}; the caller was told {amounts[near[0]]}",
                          "charge told as a slightly different amount before the write")  # fmt: skip
        elif _fee_named_before(conv, s):
            yield Finding(POLICY, 2, s.turn, f"{charged}; a fee was named, not its amount",
                          "fee named but its amount not told before the write")  # fmt: skip
        else:
            yield Finding(POLICY, 1, s.turn, f"{charged} never told before",
                          "fee or charge not disclosed before the write (explain before acting)")  # fmt: skip
        return


def _since_last_write(conv: Conversation, w: Step) -> list[Step]:
    """What the agent said after the previous write (or the start) and before write `w`."""
    prev = max((x.i for x in conv.steps[: w.i] if x.kind == "tool_call" and conv.tool_kind(x.tool) == "write"),
               default=-1)  # fmt: skip
    return [x for x in conv.steps[prev + 1 : w.i] if x.kind == "assistant"]


def _amounts_told_before(conv: Conversation, w: Step) -> dict[str, str]:
    """{amount key: words} of the money amounts the agent said before write `w` (since the
    previous write). A charge equal to their sum or difference was told in parts; a figure
    within 10 % of it means the caller heard the charge at a miscalculated figure: a
    misstatement of the tool's numbers (EVA: minor when it did not change the decision), not
    an undisclosed charge. Other amounts (a fare, a refund) disclose nothing about the charge."""
    return {v.key[2:]: v.surface for x in _since_last_write(conv, w) for v in amount_values(x.text)}


def _near_miss(said: float, charged: float) -> bool:
    """A figure within 10 % of the charge but not equal: a miscalculated total, not another item."""
    return said != charged and abs(said - charged) <= 0.1 * charged


_FEE_WORD = re.compile(r"\b(fee|charge|penalty|fare difference|cost)s?\b", re.I)


def _fee_named_before(conv: Conversation, w: Step) -> bool:
    """The agent said a fee or charge applies (without its amount) before write `w`: the caller
    knew there was one, so an untold amount is a partial disclosure, not a hidden charge."""
    return any(_FEE_WORD.search(x.text) for x in _since_last_write(conv, w))


def _read_then_write(conv: Conversation, w: Step, user: Step | None) -> bool:
    """A read tool ran after the caller's last words and before this write, with no agent
    speech in between: the caller confirmed something they had not yet heard."""
    start = user.i if user is not None else 0
    between = conv.steps[start + 1 : w.i]
    reads = [x for x in between if x.kind == "tool_call" and conv.tool_kind(x.tool) == "read"]
    return bool(reads) and not any(x.kind == "assistant" for x in between)


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0")


def _q(s: Step | None) -> str:
    return repr(s.text[:120]) if s is not None else "nothing"
