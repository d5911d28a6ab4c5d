"""Offline transcription_accuracy_key_entities: EVA's per-turn entity scoring, by rule.

For each caller turn, key entities are extracted from what the caller's TTS was meant to say
(`_entities`), then looked for in what the agent's STT heard, on normalised value keys
(`voxbench.eval.normalize` + `_values`: "one hundred twenty dollars" = "$120", "Z K three F F
W" = "ZK3FFW", "eight fifty five a m" = "8:55 a.m."). An entity is correct when every key it
carries is in the transcript as often as it was said (a code said twice and heard once is
wrong; a clock time heard without its am/pm counts, as EVA's people count it, and so do
letters the STT wrote as the word they spell); EVA's adjacent-turn drift rule lets a value
found in a neighbouring turn count.
Entities before a cut-off tag ("[likely cut off by assistant]"...: maybe never spoken, EVA's
tag semantics) are reported but skipped. Turn score = correct / judged;
turns without entities are -1 and excluded; the metric is the mean, as with the LLM judge.
"""

from __future__ import annotations

import re
from collections import Counter
from statistics import mean
from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import offline_method
from voxbench.eval.offline._entities import Entity, email_canon, extract
from voxbench.eval.offline._values import spoken_values
from voxbench.eval.tags import CUT_OFF_TAGS
from voxbench.eval.types import MetricResult, sub

NAME = "transcription_accuracy_key_entities"
VERSION = "0.3"
_CUT_OFF = re.compile("|".join(re.escape(t) for t in sorted(CUT_OFF_TAGS)))
_TAG = re.compile(r"\[[^\]]*\]")


class Heard:
    """What the STT of one turn holds, in every comparable form."""

    def __init__(self, text: str) -> None:
        self.keys = Counter(v.key for v in spoken_values(text))
        words = [re.sub(r"[^a-z]", "", w) for w in text.lower().split()]
        words = [w for w in words if w]
        self.spans = {
            "w:" + "".join(words[i:j])
            for i in range(len(words))
            for j in range(i + 1, min(i + 5, len(words) + 1))
        }
        self.email = email_canon(text)
        self.digits = "".join(
            re.findall(r"\d", re.sub(r"[a-z]+", lambda m: _DW.get(m.group(0), ""), text.lower()))
        )

    def holds(self, key: str, times: int = 1) -> bool:
        kind, body = key.split(":", 1)
        if kind == "w":
            return key in self.spans
        if kind == "e":
            return body in self.email
        if kind == "p":
            return body in self.digits
        return self.keys[key] >= times

    def holds_spelled_word(self, key: str, meant: Heard) -> bool:
        """Letters spelled out ("L E W I S") that the STT wrote as the word they spell ("LEWIS"),
        when the caller did not also say that word (else the word is no evidence of the spelling)."""
        kind, body = key.split(":", 1)
        return kind == "c" and body.isalpha() and "w:" + body in self.spans and "w:" + body not in meant.spans


def clock_forms(key: str) -> set[str]:
    """The keys one clock reading may be heard as. EVA's people count a time heard without its
    am/pm as heard ("5:00 PM" heard "5", "five P M" heard "5:00", "3 o'clock" heard "3:00"), so
    a time entity's `t:` key (or the bare `n:` of "three o'clock") also matches those forms."""
    kind, body = key.split(":", 1)
    if kind == "t":
        h, m = int(body[:2]), int(body[2:])
        h12 = h % 12 or 12
        return {key, f"n:{h12}{m:02d}"} | ({f"n:{h12}"} if m == 0 else set())
    if kind == "n" and body.isdigit():
        h, m = (int(body), 0) if int(body) <= 12 else divmod(int(body), 100)
        if 1 <= h <= 12 and m < 60:
            return {key, f"n:{h}{m:02d}", f"t:{h % 12:02d}{m:02d}", f"t:{h % 12 + 12:02d}{m:02d}"} | (
                {f"n:{h}"} if m == 0 else set()
            )
    return {key}


_DW = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
       "seven": "7", "eight": "8", "nine": "9"}  # fmt: skip


def judge_turn(
    ents: list[Entity], heard: Heard, neighbours: list[tuple[Heard, Heard]], meant: Heard | None = None
) -> list[dict[str, Any]]:
    """`neighbours`: (what the STT heard, what the caller meant) of the adjacent turns; a value
    heard next door counts only when that turn did not mean to say it itself. `meant`: what
    this turn meant to say (for spellings written as the word they spell)."""
    out = []
    for e in ents:
        times = e.mentions if e.type in ("code", "flight_number", "phone") else 1
        forms = clock_forms if e.type == "time" else (lambda k: {k})
        missing = sorted(
            k
            for k in e.keys
            if not any(heard.holds(f, times) for f in forms(k))
            and not (times == 1 and meant is not None and heard.holds_spelled_word(k, meant))
        )
        drift = (
            bool(missing)
            and times == 1
            and all(any(n.holds(k) and not own.holds(k) for n, own in neighbours) for k in missing)
        )
        ok = not missing or drift
        why = (
            "all values heard"
            if not missing
            else ("heard in an adjacent turn" if drift else f"not heard: {', '.join(missing)}")
        )
        out.append({"type": e.type, "value": e.value, "correct": ok, "skipped": False, "analysis": why,
                    "mentions": e.mentions})  # fmt: skip
    return out


def _maybe_unspoken(text: str) -> list[tuple[int, int]]:
    """EVA's tag semantics: the text before a cut-off tag, back to the turn start or the
    previous cut-off tag (the resumption point), may not have been said."""
    spans, start = [], 0
    for m in _CUT_OFF.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    return spans


@offline_method(NAME, method="entity-rules", version=VERSION)
def key_entities_offline(ctx: ConversationContext) -> MetricResult:
    """Per caller turn: entities of the intended text found in the STT text; mean over turns."""
    turns = {t: x for t, x in sorted(ctx.intended_user_turns.items())}
    if not turns or not ctx.transcribed_user_turns:
        return MetricResult.skip(NAME, "needs intended and transcribed caller text")
    heard = {t: Heard(_TAG.sub(" ", ctx.transcribed_user_turns.get(t, ""))) for t in turns}
    meant = {t: Heard(_TAG.sub(" ", x)) for t, x in turns.items()}
    per_turn_entities: dict[int, list[dict[str, Any]]] = {}
    turn_scores: dict[int, float] = {}
    by_type: dict[str, list[float]] = {}
    for t, text in turns.items():
        unspoken = _maybe_unspoken(text)
        ents = extract(_TAG.sub(lambda m: " " * len(m.group(0)), text))
        neighbours = [(heard[n], meant[n]) for n in (t - 1, t + 1) if n in heard]
        judged = judge_turn(ents, heard[t], neighbours, meant[t])
        for e, j in zip(ents, judged, strict=True):
            if any(a <= e.start < b for a, b in unspoken):
                j["skipped"] = True
                j["analysis"] += " (before a cut-off tag, maybe never spoken: skipped)"
        per_turn_entities[t] = judged
        scored = [j for j in judged if not j["skipped"]]
        if not scored:
            turn_scores[t] = -1.0
            continue
        turn_scores[t] = round(sum(j["correct"] for j in scored) / len(scored), 4)
        for j in scored:
            by_type.setdefault(j["type"], []).append(float(j["correct"]))
    applicable = [v for v in turn_scores.values() if v >= 0]
    evidence = [
        {"turn": t, "claim": f"{j['type']} {j['value']!r}", "rule": j["analysis"]}
        for t, js in per_turn_entities.items()
        for j in js
        if not j["correct"] and not j["skipped"]
    ]
    if not applicable:
        return MetricResult.skip(
            NAME, "no caller turn carried key entities", details={"per_turn_score": turn_scores}
        )
    s = round(mean(applicable), 3)
    return MetricResult(
        name=NAME,
        score=s,
        normalized_score=s,
        details={
            "per_turn_score": turn_scores,
            "per_turn_entities": per_turn_entities,
            "num_turns": len(turns),
            "num_evaluated": len(applicable),
            "evidence": evidence,
        },
        sub_metrics={f"{k}_accuracy": sub(f"{k}_accuracy", round(mean(v), 4)) for k, v in by_type.items()},
    )
