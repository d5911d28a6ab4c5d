"""Offline speakability: EVA's rule, checked with patterns on the text the agent sent to TTS.

EVA rates a turn 0 if it has any markdown or visual formatting, JSON or brackets, words
run together without spaces (CJK exempt) or emojis, else 1; the metric is the mean. Each
of those is a surface pattern, so no model is needed: every 0 names the rule and quotes
the offending snippet. voxbench's own inline interruption tags are removed first (they
are eval annotations, not TTS text). Nothing here is fitted.
"""

from __future__ import annotations

import re
from statistics import mean

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import offline_method
from voxbench.eval.types import MetricResult

NAME = "speakability"

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("markdown emphasis", re.compile(r"\*\*|__|(?<!\w)\*[^*\s][^*]*\*(?!\w)|`")),
    ("markdown header", re.compile(r"^\s{0,3}#{1,6}\s", re.MULTILINE)),
    ("bullet or numbered list", re.compile(r"^\s*(?:[-*•▪◦]|\d{1,2}[.)])\s+\S", re.MULTILINE)),
    ("table", re.compile(r"^\s*\|.*\|\s*$", re.MULTILINE)),
    ("markdown link", re.compile(r"\[[^\]]+\]\([^)]+\)")),
    ("JSON or brackets", re.compile(r"[{}\[\]<>()]")),
    ("URL or markup", re.compile(r"https?://|www\.|</?\w+>")),
    (
        "emoji",
        re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]"),
    ),
    # a lower-case word glued to the next: "flightConfirmed", "done.Your" (not "a.m." or "McD")
    ("words run together", re.compile(r"[a-z]{2,}(?:[A-Z][a-z]{2,}|[.!?,;:][A-Z][a-z]+)")),
)


def check_turn(text: str) -> tuple[int, list[dict[str, str]]]:
    """(rating 0/1, the rules broken with the matched snippet)."""
    text = "\n".join(strip_tags(line) for line in text.splitlines())  # keep line starts
    hits = []
    for rule, pat in RULES:
        m = pat.search(text)
        if m:
            a, b = max(0, m.start() - 20), min(len(text), m.end() + 20)
            hits.append({"rule": rule, "snippet": text[a:b].replace("\n", "\\n")})
    return (0 if hits else 1), hits


@offline_method(NAME, method="format-rules", version="1")
def speakability_offline(ctx: ConversationContext) -> MetricResult:
    """Per-turn 0/1: any markdown, brackets/JSON, URL, emoji or run-together words rates 0."""
    if ctx.pipeline_type == "s2s":
        return MetricResult.skip(NAME, "speech-to-speech agent has no TTS text")
    turns = ctx.intended_assistant_turns
    if not turns:
        return MetricResult.skip(NAME, "no intended assistant text")
    ratings: dict[int, int] = {}
    evidence = []
    for t, text in sorted(turns.items()):
        ratings[t], hits = check_turn(text)
        for h in hits:
            evidence.append({"turn": t, "claim": h["snippet"], "rule": h["rule"], "rating": 0})
    s = round(mean(ratings.values()), 3)
    return MetricResult(
        name=NAME,
        score=s,
        normalized_score=s,
        details={
            "per_turn_rating": ratings,
            "num_turns": len(turns),
            "num_evaluated": len(ratings),
            "evidence": evidence,
        },
    )
