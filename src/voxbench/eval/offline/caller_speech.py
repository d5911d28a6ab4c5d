"""Offline user_speech_fidelity: did the caller's voice say the line the caller meant?

The caller's intended text is in the record (`utterance` events). After the call the harness
transcribes the caller's own recording (`transcript` events on the user channel with
`source="post_call"`, written like the agent side's post-call STT), so the two can be
compared without an audio judge. Each caller turn is rated on EVA's 1-3 scale:

* 3: the recording carries the line (normalised letters in order, matched over the longer of
  the two, ≥ `FAITHFUL`; every key entity present);
* 2: minor deviations (word match ≥ `MINOR`), every key entity present;
* 1: a key entity of the line (a code, number, amount, date, time or email) is missing or
  different in what was said, the content differs substantially, or nothing was said.

Key entities are compared as value keys (`voxbench.eval.offline._values`), so "Z K three F F W"
and "ZK3FFW" match; a transcription error of the post-call STT itself can rate a turn lower
(the recogniser is not perfect), which is why a turn rated 1 carries its evidence.
Records without post-call caller transcripts are not rated (the metric stays unscored).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from statistics import mean
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.normalize import normalize_text
from voxbench.eval.offline import offline_method
from voxbench.eval.offline._values import text_keys
from voxbench.eval.types import MetricResult

NAME = "user_speech_fidelity"
FAITHFUL = 0.9
MINOR = 0.7
HEARD_KEY = "caller_post_call_transcripts"  # ctx.extra: {turn: what the caller's recording said}
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def _words(text: str) -> list[str]:
    return normalize_text(strip_tags(text)).split()


def _carried(key: str, got: set[str], flat: str, said: str) -> bool:
    """The key entity is in what was said: the same key, or (spelled and written forms split
    values differently: "E M P 6 4 0" / "EMP640") its characters in order in the normalised
    text; a date by its month and day."""
    if key in got:
        return True
    kind, _, body = key.partition(":")
    if kind in ("c", "n") and body:
        return body.replace(".0", "") in flat
    if kind == "d" and len(body) == 4:
        month = _MONTHS[int(body[:2]) - 1] if 1 <= int(body[:2]) <= 12 else ""
        return bool(month) and month in said.lower() and str(int(body[2:])) in re.findall(r"\d+", said)
    if kind == "t" and len(body) == 4:
        return body.lstrip("0") in flat or f"{int(body[:2]) % 12 or 12}{body[2:]}" in flat
    return False


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")  # fmt: skip


def _unsaid_sentences(meant: str, said: str) -> list[str]:
    """Sentences of the meant line none of whose words the recording carries, the two aligned
    in order (a turn can hold several caller lines: a short one never spoken, "Yes.", is
    swamped by the rest in the turn's overall match, but is still a line not said)."""
    spans: list[tuple[str, int, int]] = []
    words: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", strip_tags(meant).strip()):
        w = _words(sentence)
        if w:
            spans.append((sentence, len(words), len(words) + len(w)))
            words += w
    heard = _words(said)
    matched: set[int] = set()
    for b in SequenceMatcher(None, words, heard, autojunk=False).get_matching_blocks():
        matched.update(range(b.a, b.a + b.size))
    return [s for s, lo, hi in spans if not matched & set(range(lo, hi))]


def rate_turn(meant: str, said: str) -> tuple[int, dict[str, Any]]:
    """(rating, what differed) for one caller turn."""
    if not said.strip():
        return 1, {"missing": "the whole line", "match": 0.0}
    keys = text_keys(meant) | {m.lower() for m in _EMAIL.findall(meant)}
    got = text_keys(said) | {m.lower() for m in _EMAIL.findall(said)}
    flat = "".join(_words(said))
    missing = sorted(k for k in keys if not _carried(k, got, flat, said))
    a, b = "".join(_words(meant)), "".join(_words(said))  # spelled or written codes compare alike
    same = sum(m.size for m in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    match = same / max(len(a), len(b), 1)  # the share of the line said, penalising additions too
    info: dict[str, Any] = {"match": round(match, 3)}
    unsaid = _unsaid_sentences(meant, said)
    if unsaid:
        missing.append(f"the sentence {unsaid[0]!r}")
    if missing:
        info["missing"] = ", ".join(missing)
    if missing or match < MINOR:
        return 1, info
    return (3 if match >= FAITHFUL else 2), info


@offline_method(NAME, method="post-call-stt-rules", version="0.2")
def user_speech_fidelity_offline(ctx: ConversationContext) -> MetricResult:
    """Each caller turn's intended text against the post-call transcript of its recording."""
    heard: dict[int, str] = ctx.extra.get(HEARD_KEY) or {}
    if not heard:
        return MetricResult.unscored(
            NAME, "needs an audio judge, or post-call transcripts of the caller's audio"
        )
    per: dict[int, int] = {}
    evidence = []
    last = max(ctx.intended_user_turns, default=None)
    for t, meant in sorted(ctx.intended_user_turns.items()):
        if not meant.strip() or (t == last and t not in heard and not ctx.audio_timestamps_user_turns.get(t)):
            continue  # the call ended before the caller's last line was spoken: not a fidelity fault
        said = heard.get(t, "")
        r, info = rate_turn(meant, said)
        per[t] = r
        if r < 3:
            evidence.append(
                {"turn": t, "claim": f"meant {meant[:120]!r}; recording said {said[:120]!r} ({info})",
                 "rule": "caller's speech did not carry its line" if r == 1 else "minor deviation"}
            )  # fmt: skip
    if not per:
        return MetricResult.skip(NAME, "no caller text")
    m = mean(per.values())
    return MetricResult(
        name=NAME, score=round(m, 3), normalized_score=round((m - 1) / 2, 3),
        details={"per_turn_rating": per, "any_turn_rated_1": any(v == 1 for v in per.values()), "evidence": evidence},
    )  # fmt: skip
