"""tts_fidelity: did the agent's audio say the text it sent to TTS? (EVA §3.4, opt-in)

Per agent turn 0/1 with failure modes, mean over turns; excluded from the default metric
set as in EVA (run it with `--metrics tts_fidelity`). Two methods, named in
`params["method"]`:

* ``audio_judge`` (EVA's method): an audio-capable judge hears `agent.wav` and reads the
  tagged intended turns.
* ``offline_stt_alignment``: no audio judge, so we compare the intended text with what the
  caller side's speech recognition heard on the agent channel during the call (the
  record's `transcript` events, or the harness's post-call transcription of the
  recording when nothing heard the agent live; eval never runs STT itself). Both are normalised
  (`voxbench.eval.normalize`) and aligned word by word (jiwer), and a turn fails with:

  - ``entity_error``: an entity of the intended text (codes, numbers, amounts;
    `extract_entities`) is not in the transcript;
  - ``truncation``: ``RUN_MIN_WORDS`` or more consecutive intended words missing;
  - ``garbled_hallucination``: ``RUN_MIN_WORDS`` or more consecutive non-entity words
    heard as other words;
  - ``insertion_hallucination``: ``RUN_MIN_WORDS`` or more consecutive heard words the
    text does not have.

  Words before a cut-off tag (``CUT_OFF_TAGS`` or an inline ``[user interrupts]``) may
  never have been spoken: they are not required, nor their entities. Trailing words
  missing from the conversation's last agent turn, and the entities among them, are not
  held against it (the recording may end first), as EVA's prompt rules. Runs of three words, not one, because the
  recogniser's own slips (one word at a time) would otherwise fail most turns; it still
  counts against the agent, so this is a bound on TTS faults, not a measurement of them.
  ``wrong_language`` is not checked offline: a transcript made with a fixed-language
  recogniser cannot show it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

import jiwer

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.judges import Judge, parse_json_list
from voxbench.eval.judges import prompts as P
from voxbench.eval.metrics.accuracy import entity_heard, extract_entities, transcript_source_params
from voxbench.eval.normalize import NORMALIZER_ID, normalize_text
from voxbench.eval.tags import CUT_OFF_TAGS, TAG_USER_INTERRUPTS, iter_regions
from voxbench.eval.types import EvalConfig, MetricResult, metric, prompt_hash, sub

NAME = "tts_fidelity"
FAILURE_MODES = (
    "entity_error",
    "truncation",
    "garbled_hallucination",
    "insertion_hallucination",
    "wrong_language",
)
OFFLINE_MODES = FAILURE_MODES[:4]
RUN_MIN_WORDS = 3
_UNSPOKEN_BEFORE = CUT_OFF_TAGS | {TAG_USER_INTERRUPTS}


@dataclass
class TurnCheck:
    """The offline verdict on one agent turn, with the evidence for each failure mode."""

    rating: int
    failure_modes: list[str] = field(default_factory=list)
    missing_entities: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    garbled: list[str] = field(default_factory=list)
    inserted: list[str] = field(default_factory=list)
    unspoken_ok_words: int = 0


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """Maximal [start, end) runs of True of at least RUN_MIN_WORDS."""
    out, start = [], None
    for i, f in enumerate([*flags, False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            if i - start >= RUN_MIN_WORDS:
                out.append((start, i))
            start = None
    return out


def check_turn(intended: str, heard: str, language: str = "en", last_turn: bool = False) -> TurnCheck | None:
    """Compare one turn's intended (tagged) text with the transcript of its audio; None when
    the intended text has no words."""
    words: list[str] = []
    optional: list[bool] = []
    entities: list[str] = []
    for text, tag in iter_regions(intended):
        toks = normalize_text(text, language).split()
        unspoken_ok = tag in _UNSPOKEN_BEFORE
        words += toks
        optional += [unspoken_ok] * len(toks)
        if not unspoken_ok:
            entities += extract_entities(text, language)
    if not words:
        return None
    heard_norm = normalize_text(strip_tags(heard), language)
    hyp = heard_norm.split()
    entity_tokens = {tok for e in entities for tok in e.split()}
    dropped = [False] * len(words)
    garbled = [False] * len(words)
    inserted: list[str] = []
    for chunk in jiwer.process_words(" ".join(words), " ".join(hyp)).alignments[0]:
        r0, r1 = chunk.ref_start_idx, chunk.ref_end_idx
        if chunk.type == "delete":
            for i in range(r0, r1):
                dropped[i] = not optional[i]
        elif chunk.type == "substitute":
            for i in range(r0, r1):
                garbled[i] = not optional[i] and words[i] not in entity_tokens
        elif chunk.type == "insert" and chunk.hyp_end_idx - chunk.hyp_start_idx >= RUN_MIN_WORDS:
            inserted.append(" ".join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx]))
    drops = _runs(dropped)
    tail = ""
    if last_turn and drops and drops[-1][1] == len(words):
        tail = f" {' '.join(words[drops.pop()[0] :])} "  # the recording may end before the call's last words
    res = TurnCheck(
        rating=1,
        missing_entities=[
            e for e in dict.fromkeys(entities) if not entity_heard(e, heard_norm) and f" {e} " not in tail
        ],
        dropped=[" ".join(words[a:b]) for a, b in drops],
        garbled=[" ".join(words[a:b]) for a, b in _runs(garbled)],
        inserted=inserted,
        unspoken_ok_words=sum(optional),
    )
    evidence = (res.missing_entities, res.dropped, res.garbled, res.inserted)
    res.failure_modes = [m for m, ev in zip(OFFLINE_MODES, evidence, strict=True) if ev]
    res.rating = 0 if res.failure_modes else 1
    return res


def _result(
    per: dict[int, int], modes: dict[int, list[str]], checked: tuple[str, ...], **kw: Any
) -> MetricResult:
    s = round(mean(per.values()), 4)
    n = len(per)
    return MetricResult(
        name=NAME,
        score=s,
        normalized_score=s,
        sub_metrics={
            f"{m}_rate": sub(f"{m}_rate", round(sum(m in v for v in modes.values()) / n, 4)) for m in checked
        },
        **kw,
    )


@metric(NAME, category="diagnostic", version="v0.1-vb1", exclude_from_pass_at_k=True, default=False)
def tts_fidelity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Share of agent turns whose audio says the text sent to TTS (opt-in, EVA diagnostic)."""
    if ctx.pipeline_type == "s2s":
        return MetricResult.skip(NAME, "speech-to-speech agent has no TTS text")
    turns = {t: x for t, x in ctx.intended_assistant_turns.items() if strip_tags(x)}
    if not turns:
        return MetricResult.skip(NAME, "no intended assistant text")
    agent_wav = ctx.audio_paths.get("agent")
    if config.audio_judge is not None and agent_wav:
        return _audio_judge(ctx, config.audio_judge, Path(agent_wav), turns)
    params = {
        "method": "offline_stt_alignment",
        "normalizer": NORMALIZER_ID,
        "run_min_words": RUN_MIN_WORDS,
        **transcript_source_params(ctx),
    }
    if not ctx.transcribed_assistant_turns:
        return MetricResult.unscored(
            NAME, "no transcript of the agent channel (and no audio judge)", params=params
        )
    last = max(turns)
    checks: dict[int, TurnCheck] = {}
    not_evaluated: dict[int, str] = {}
    for t, intended in sorted(turns.items()):
        heard = ctx.transcribed_assistant_turns.get(t)
        if heard is None:
            not_evaluated[t] = "no transcript of this turn"
            continue
        c = check_turn(intended, heard, ctx.language, last_turn=t == last)
        if c is None:
            not_evaluated[t] = "no words after normalisation"
        else:
            checks[t] = c
    if not checks:
        return MetricResult.skip(NAME, "no agent turn with both texts", params=params)
    return _result(
        {t: c.rating for t, c in checks.items()},
        {t: c.failure_modes for t, c in checks.items()},
        OFFLINE_MODES,
        params=params,
        details={
            "per_turn_rating": {t: c.rating for t, c in checks.items()},
            "per_turn_failure_modes": {t: c.failure_modes for t, c in checks.items()},
            "per_turn_evidence": {t: asdict(c) for t, c in checks.items()},
            "not_evaluated": not_evaluated,
            "not_checked": ["wrong_language"],
            "num_turns": len(turns),
            "num_evaluated": len(checks),
            "note": "STT errors count against the agent; a bound on TTS faults, not a judge",
        },
    )


def _audio_judge(ctx: ConversationContext, judge: Judge, wav: Path, turns: dict[int, str]) -> MetricResult:
    body = f"Expected language: {ctx.language}\n\nIntended turns:\n" + "\n".join(
        f"Turn {t}: {x}" for t, x in sorted(turns.items())
    )
    reply = judge.complete(P.render(P.TTS_FIDELITY), body, audio_wav=wav.read_bytes())
    meta: dict[str, Any] = {
        "judge_model": judge.model,
        "prompt_hash": prompt_hash(P.render(P.TTS_FIDELITY)),
        "params": {"method": "audio_judge"},
    }
    per: dict[int, int] = {}
    modes: dict[int, list[str]] = {}
    for item in parse_json_list(reply.text) or []:
        tid, r = item.get("turn_id"), item.get("rating")
        if not (isinstance(tid, int) and tid in turns and r in (0, 1) and not isinstance(r, bool)):
            continue  # no positional fallback, no guessed ratings
        per[tid] = int(r)
        modes[tid] = [] if r == 1 else [m for m in item.get("failure_modes") or [] if m in FAILURE_MODES]
    if not per:
        return MetricResult.fail(NAME, "judge rated no turn", details={"raw": reply.text[:2000]}, **meta)
    return _result(
        per,
        modes,
        FAILURE_MODES,
        details={
            "per_turn_rating": per,
            "per_turn_failure_modes": modes,
            "num_turns": len(turns),
            "num_evaluated": len(per),
        },
        **meta,
    )
