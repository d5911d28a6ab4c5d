"""A re-asked fact, read from the record: the finding EVA's progression rubric names as a flag
outright.

The fitted counts of `progression` price stalls that are often harmless (the same tool called
again, a sentence worded like an earlier one), so one of them alone rarely lowers a rating. A
re-asked fact needs no pricing (`information_loss`: "re-asking the user for information they
already provided (e.g. ... after the user stated it and it was used successfully)"), so it caps
the rating instead.

It is decided from the record, not from how the agent worded its question: after a successful
tool call used a value the caller had given, the agent speaks and the caller's next line gives
that same value back (the same value key by the project's spoken-value reader; a name or word
value by its words or its spelled letters). Whatever the agent said ("Remind me, what was your
ID?", "Please give me your confirmation number one more time.", "Can I get that code again?"),
the caller's answer shows what it asked for. A caller line with a value the caller never gave
before is a new record ("the other booking") or a correction ("I read you the old code"), not a
re-ask. Not a re-ask either:

* a line that carries the value itself (a read-back: "Is your last name Rodriguez?"), asks for
  the go-ahead (`confirm_step`) or offers help (`open_offer`), or says it verifies
  ("confirm", "verify": the rubric's read-back of an error-prone value, which policies ask for
  before a write);
* a caller line that is itself a question ("Can you do it with J U O P dash two one C?"): the
  caller pressing its own point, not answering an ask;
* a line answering a caller line that was cut off: an interruption tag in the raw trace
  content ("[likely cut off by assistant]", "[user interrupts]"; the judges' texts have them
  stripped, so they are read here) or a line ending "..." or a dash (the rubric's
  speech-recognition exemption);
* a line after a lookup with the value found nothing ("not found": checking the value is
  disambiguation, which faithfulness asks for; another error, "swap locked", is no reason to
  ask for it again);
* a line after a write finished, for a value only that finished request used (the next
  request's delivery building may be the same one); the caller's identity, used by an
  authentication call, stays known for the whole call.

It reads the raw trace once, with the calls as ``_progression_record.read_record`` paired them
with their responses (the reading progression's counts use); no value is looked up in the policy
or the tool results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from voxbench.eval.context import strip_tags
from voxbench.eval.offline._progression_record import Answered, Record
from voxbench.eval.offline._trace import lookup_missed
from voxbench.eval.offline._values import scalar_keys, spoken_values
from voxbench.eval.offline.lang import word_set
from voxbench.eval.tags import cut_off

_CUT_OFF_ENDS = tuple(word_set("_progression", "cut_off_endings"))
"""How a line the recogniser cut short ends ("...", a dash)."""
_VERIFIES = re.compile(
    r"\b(" + "|".join(map(re.escape, word_set("_progression", "verification_cues"))) + r")\b"
)
"""Words of a line that says it verifies a value ("can you confirm", "so I can match it")."""
_IDENTITY = re.compile(r"auth|verif|login|otp")
"""A tool that establishes who the caller is, by its name ("verify_employee_auth"), where the
schema does not say so (``tool_type: auth``, as airline's ``get_reservation``): what it used
stays known for the whole call."""
_WORD = re.compile(r"[a-z0-9]+")
_WHOLE = ("d:", "t:")
"""Key kinds that stand for a whole value as said (a date said without its year, a clock time)."""
MAX_WORDS = 3
"""A value read by its words has at most this many (a name, a city); longer free text is no fact a
caller gives back word for word."""
MIN_CHARS = 3
"""A value of fewer letters and digits ("2", "B") names no record a caller would be asked for."""
SMALL_NUMBER = 4
"""A plain number key of at most this many characters ("n:25" of a date, "n:1" in "one more
time") names no record."""


@dataclass(frozen=True)
class Said:
    """What a line says, as the re-ask test compares it: value keys and its words."""

    keys: frozenset[str]
    words: str

    @staticmethod
    def of(text: str) -> Said:
        keys = frozenset(v.key for v in spoken_values(text) if _names_a_record(v.key))
        return Said(keys, " " + " ".join(_WORD.findall(text.lower())) + " ")


@dataclass(frozen=True)
class Value:
    """A tool parameter's value, in the forms a caller line can give it back."""

    param: str
    keys: frozenset[str]
    words: str

    @staticmethod
    def of(param: str, raw: str) -> Value | None:
        """The value's whole keys, read as tool data and as speech (its code, its date, its clock
        time; not the year of a date or a code's first part; a code's zeros may be dropped in
        speech, "E M P four eight" for EMP048) and, a name or a word value, its words."""
        whole = "".join(_WORD.findall(raw.lower()))
        if len(whole) < MIN_CHARS:
            return None
        forms = scalar_keys(raw) | {v.key for v in spoken_values(raw)}
        keys = frozenset(
            k for k in forms if k[:2] in _WHOLE or k[2:].replace("0", "") == whole.replace("0", "")
        )
        words = " ".join(_WORD.findall(raw.lower()))
        wordy = not any(c.isdigit() for c in whole) and len(words.split()) <= MAX_WORDS
        if not keys and not wordy:
            return None
        return Value(param, keys, words if wordy else "")

    def in_line(self, line: Said) -> bool:
        return bool(self.keys & line.keys) or (bool(self.words) and f" {self.words} " in line.words)


def _names_a_record(key: str) -> bool:
    return not key.startswith("n:") or len(key) > SMALL_NUMBER


def _cut_off(raw: str) -> bool:
    """The caller line was cut off or overlapped: an interruption tag, or a broken-off end."""
    return cut_off(raw) or strip_tags(raw).endswith(_CUT_OFF_ENDS)


def _exempt(ask: str, confirm_step: re.Pattern[str], open_offer: re.Pattern[str]) -> bool:
    return any(p.search(ask) for p in (confirm_step, open_offer)) or bool(_VERIFIES.search(ask.lower()))


def _given(param: str, raw: Any, said: Said) -> Value | None:
    """The call parameter's value when the caller said it before the call."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    v = Value.of(param, raw)
    return v if v is not None and v.in_line(said) else None


@dataclass
class _Known:
    """What the re-ask test knows at a point of the call: the values the caller gave, the call
    parameters a successful call used that the caller had given, and which of them are its
    identity."""

    heard_keys: set[str] = field(default_factory=set)
    heard_words: str = " "
    used: dict[str, Value] = field(default_factory=dict)
    identity: set[str] = field(default_factory=set)

    def answered(
        self, a: Answered, categorical: set[tuple[str, str]], auth: set[str] | frozenset[str]
    ) -> None:
        """A call answered: a missed lookup drops its values (checking them again is no re-ask), a
        write finishes a request (its values, but the caller's identity, are the next request's to
        ask again), a successful read or system call used the values the caller gave."""
        said = Said(frozenset(self.heard_keys), self.heard_words)
        facts = {n: raw for n, raw in a.params.items() if (a.tool, n) not in categorical}
        values = [v for n, raw in facts.items() if (v := _given(n, raw, said)) is not None]
        if lookup_missed(a.response):
            for v in values:
                self.used.pop(v.param, None)
        elif a.failed:
            return
        elif a.write:
            self.used = {n: v for n, v in self.used.items() if n in self.identity}
        else:
            self.used.update({v.param: v for v in values})
            if a.tool in auth or _IDENTITY.search(a.tool.lower()):
                self.identity |= {v.param for v in values}


def reasked_facts(
    trace: list[dict[str, Any]],
    rec: Record,
    categorical: set[tuple[str, str]],
    confirm_step: re.Pattern[str],
    open_offer: re.Pattern[str],
    auth: set[str] | frozenset[str] = frozenset(),
) -> list[dict[str, Any]]:
    """Agent lines after which the caller gave back a value it had given and a successful call
    had used, as {feature, turn, claim, rule} (see the module doc for what is no re-ask). The calls
    are the record's (`rec`: ``read_record``'s reading of the trace). A parameter whose schema
    lists its values (`categorical`: (tool, parameter) pairs) holds a choice, not a fact of the
    caller's. A successful write finishes a request: the values its request used, other than the
    caller's identity (the values of an `auth` tool, by its schema, or of one named as such), are
    the next request's to ask again ("what building and floor?" for a second delivery)."""
    answered = {a.at: a for a in rec.answered}
    known = _Known()
    asks: list[tuple[int, str]] = []
    broken = False
    out: list[dict[str, Any]] = []
    for i, e in enumerate(trace):
        role = e.get("role")
        if i in answered:
            known.answered(answered[i], categorical, auth)
        elif e.get("type") in ("tool_call", "tool_response"):
            continue
        elif role == "assistant":
            asks.append((int(e.get("turn_id", 0)), strip_tags(str(e.get("content", "")))))
        elif role == "user":
            raw = str(e.get("content", ""))
            line = Said.of(strip_tags(raw))
            ask = " ".join(t for _, t in asks)
            answers = "?" not in raw and line.keys <= known.heard_keys  # a new value: a new record
            if known.used and asks and answers and not broken and not _exempt(ask, confirm_step, open_offer):
                back = [v for v in known.used.values() if v.in_line(line)]
                asked = Said.of(ask) if back else line
                back = [v for v in back if not v.in_line(asked)]
                if back:
                    fields = ", ".join(sorted(v.param for v in back))
                    out.append({"feature": "reasked_facts", "turn": asks[-1][0], "claim": asks[-1][1][:160],
                                "rule": f"the caller gave back {fields}, which it gave and a call used"})  # fmt: skip
            known.heard_keys |= line.keys
            known.heard_words += line.words
            broken, asks = _cut_off(raw), []
    return out
