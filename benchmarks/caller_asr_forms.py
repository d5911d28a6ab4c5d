"""Does the goal caller hold when it hears the agent through speech recognition, not as written text?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_asr_forms.py --data /work/shared/eva-data \
        [--rows] [--domain D] [--limit N] [--out report.json]

Live, the caller reads the recogniser's transcript of the agent: numbers as digits or words
inconsistently, spelled codes joined or split, question marks lost, 'I.D.' for 'ID', a trailing
'Please.' cut off as its own segment, all lower case from some models. ``voxbench caller check``
feeds the reference agent text as written. Here each reference agent turn of the bench (the same
turns, in order, :func:`voxbench.bench.reference.reference_turns`, the caller built as the bench
builds it, :class:`voxbench.bench.callers.GoalRules`) is also rewritten by each rule of
:data:`RULES` (data: a regex and what it becomes); where a rule changes the text, a copy of the
caller in the state the written turns left it in hears the variant instead, and its reply is
compared with the reply to the written text. Per rule and per half (dev/test: the fixed split of
``caller_check_halves.half``):

* **changed**: the reply's act (kind, yes/no/option choice, whether it ends the call) or the
  facts it discloses differ;
* **false corrections**: the variant's reply corrects (kind ``correct``, or a ``misread:`` /
  ``misstated:`` rule fired) where the written text's did not: live, a derailed call;
* **lost corrections**: the written text's reply corrected and the variant's does not.

The rule ``identity`` (no rewrite, every turn) checks that a copied caller replies as the caller
itself does: its counts must be 0. ``--rows`` prints the changed rows of DEV scenarios only
(agent text, variant, both replies, rules); test is read as the aggregate table only.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import turn_variants

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.spoken.words import DIGIT, DIGIT_WORDS, TENS, UNITS

_NUM_WORD = "|".join(sorted([w for w in [*UNITS, *TENS] if w != "oh"], key=len, reverse=True))
_TENS_WORD = "|".join(TENS)
_DIGIT_WORD = "|".join(DIGIT_WORDS[1:])
"""Number words one by one ('six four' -> '6 4', as a recogniser writes a code read digit by digit);
a tens word and a digit joined by a hyphen are one number ('twenty-five' -> '25'); an ordinal
compound ('twenty-ninth') is left as it is."""
_SPELL_PIECE = rf"(?:[A-Z]|\d|(?:{'|'.join(DIGIT_WORDS)}))"
_SPELLED = rf"\b{_SPELL_PIECE}(?:[ -]{_SPELL_PIECE})+\b"
"""A code spelled out: capital letters and digits (or digit words) one by one ('B L D two'), at
least one capital letter in it (checked by the rewrite), so 'one two' alone is not a code."""
_CODE = r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]*[A-Z0-9]\b"
"""A code written as one upper-case token with a letter and a digit ('BLD2', 'PTPL-34')."""


def _pieces(spelled: str) -> list[str]:
    return [DIGIT.get(p.lower(), p) for p in re.split(r"[ -]", spelled)]


def _spelled(f: Callable[[list[str]], str]) -> Callable[[re.Match[str]], str]:
    """A rewrite of a spelled code's pieces (digit words as digits); a run of digits only is left."""

    def sub(m: re.Match[str]) -> str:
        ps = _pieces(m.group(0))
        return f(ps) if any(p.isalpha() for p in ps) else m.group(0)

    return sub


def _joined(ps: list[str]) -> str:
    return "".join(ps)


def _letters_joined_digits_apart(ps: list[str]) -> str:
    """Each run of letters joined, each run of digits joined, a space between ('BLD 2', 'FL 1')."""
    return " ".join(m.group(0) for m in re.finditer(r"[A-Z]+|\d+", "".join(ps)))


def _split_code(m: re.Match[str]) -> str:
    return " ".join(c for c in m.group(0) if c != "-")


def _digits_to_words(m: re.Match[str]) -> str:
    n = int(m.group(0))
    if n < 20:
        return next(w for w, v in UNITS.items() if v == n and w != "oh")
    tens = next(w for w, v in TENS.items() if v == n // 10 * 10)
    return tens if n % 10 == 0 else f"{tens}-{DIGIT_WORDS[n % 10]}"


def _words_to_digits(m: re.Match[str]) -> str:
    ws = re.split(r"[ -]", m.group(0).lower())
    return str(sum(UNITS.get(w, TENS.get(w, 0)) for w in ws))


Rewrite = str | Callable[[re.Match[str]], str]
RULES: dict[str, tuple[str, Rewrite, str]] = {
    "identity": (r"^", "", "no rewrite: a copied caller replies as the caller does"),
    "spelled_joined": (_SPELLED, _spelled(_joined), "'B L D two' -> 'BLD2'"),
    "spelled_letters_joined": (_SPELLED, _spelled(_letters_joined_digits_apart), "'B L D two' -> 'BLD 2'"),
    "spelled_hyphenated": (_SPELLED, _spelled(lambda ps: "-".join(ps)), "'B L D two' -> 'B-L-D-2'"),
    "spelled_digits": (_SPELLED, _spelled(lambda ps: " ".join(ps)), "'B L D two' -> 'B L D 2'"),
    "code_split": (_CODE, _split_code, "'BLD2' -> 'B L D 2'"),
    "digits_to_words": (
        r"(?<![\d.,:$/-])\b\d{1,2}\b(?![\d.,:/-]\d)",
        _digits_to_words,
        "'floor 3' -> 'floor three'",
    ),
    "words_to_digits": (
        rf"\b(?:(?:{_TENS_WORD})[ -](?:{_DIGIT_WORD})|{_NUM_WORD})\b(?!-[a-z])",
        _words_to_digits,
        "'floor three' -> 'floor 3', 'twenty-five' -> '25', 'B L D two' -> 'B L D 2'",
    ),
    "numbers_merged": (
        r"\b(\d{1,2})[.,] (\d{1,2})\b(?![:/.,]\d)",
        r"\1.\2",
        "'four, three' heard as '4.3' (two numbers run together)",
    ),
    "no_question_marks": (r"\?", ".", "'?' -> '.'"),
    "no_commas": (r",(?!\d)", "", "commas dropped"),
    "please_split": (r",? please([?.!])", r"\1 Please.", "'..., please?' -> '...? Please.'"),
    "id_dotted": (r"\bID\b", "I.D.", "'ID' -> 'I.D.'"),
    "lowercase": (r"[\s\S]+", lambda m: m.group(0).lower(), "all lower case"),
}
"""The rewrites: name -> (pattern, what a match becomes, what it models)."""


def variant(rule: str, text: str) -> str:
    pattern, rewrite, _ = RULES[rule]
    return re.sub(pattern, rewrite, text) if rule != "identity" else text


def corrects(act: CallerAct) -> bool:
    """A reply that tells the agent a value it stated is wrong."""
    return act.kind == "correct" or any(r.startswith(("misread:", "misstated:")) for r in act.rules)


def _act(act: CallerAct) -> tuple[Any, ...]:
    return act.kind, act.choice, act.ends_call, tuple(sorted(act.facts))


def run_scenario(
    domain: str, sc: Any, rules: list[str], rows: list[dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Counts per rule over one scenario; the changed rows go to ``rows``."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def variants(_i: int, agent: str, _ref: str) -> dict[str, str]:
        return {r: v for r in rules if (v := variant(r, agent)) != agent or r == "identity"}

    for f in turn_variants.forked_replies(domain, sc, variants):
        written = f.written
        for r, (v, heard) in f.heard.items():
            c = counts[r]
            c["turns"] += 1
            changed = _act(heard) != _act(written)
            false, lost = corrects(heard) and not corrects(written), corrects(written) and not corrects(heard)
            c["changed"] += changed
            c["false_corrections"] += false
            c["lost_corrections"] += lost
            c["written_corrections"] += corrects(written)
            if changed or false or lost:
                rows.append({"domain": domain, "scenario": sc.id, "turn": f.turn, "rule": r, "agent": f.agent,
                             "variant": v, "written_reply": written.text, "written_act": list(_act(written)),
                             "heard_reply": heard.text, "heard_act": list(_act(heard)),
                             "heard_rules": heard.rules, "false_correction": false, "lost_correction": lost})  # fmt: skip
    return counts


def main() -> int:
    args = turn_variants.parser(__doc__.split("\n")[0], "rule", "rules").parse_args()
    rules = args.rules or list(RULES)
    totals, dev_rows = turn_variants.run(args, rules, run_scenario)
    cols = ("turns", "changed", "false_corrections", "lost_corrections", "written_corrections")
    turn_variants.report(args, totals, dev_rows, rules, cols, "rule")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
