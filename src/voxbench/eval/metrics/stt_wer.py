"""stt_wer: the agent's speech recognition of the caller, intended text as reference."""

from __future__ import annotations

from collections import Counter
from typing import Any

import jiwer

from voxbench.eval.context import ConversationContext
from voxbench.eval.normalize import NORMALIZER_ID, normalize_text
from voxbench.eval.types import EvalConfig, MetricResult, metric, sub

CER_LANGS = ("ja", "zh", "ko")


@metric(
    "stt_wer", category="diagnostic", version="v0.1-vb2", higher_is_better=False, exclude_from_pass_at_k=True
)
def stt_wer(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Corpus WER over caller turns that have both texts; score = WER, norm = 1 - min(1, WER)."""
    if ctx.pipeline_type == "s2s":
        return MetricResult.skip("stt_wer", "speech-to-speech agent has no STT", sub_metrics=_rates(None))
    pairs = [
        (
            t,
            normalize_text(ctx.intended_user_turns[t], ctx.language),
            normalize_text(ctx.transcribed_user_turns[t], ctx.language),
        )
        for t in sorted(ctx.intended_user_turns)
        if t in ctx.transcribed_user_turns
    ]
    pairs = [p for p in pairs if p[1]]
    params = {"normalizer": NORMALIZER_ID, "unit": "char" if ctx.language[:2] in CER_LANGS else "word"}
    if not pairs:  # no common turn: not measurable, and the rates say so (present, null)
        return MetricResult.skip(
            "stt_wer",
            "no caller turn with both intended and transcribed text",
            params=params,
            sub_metrics=_rates(None),
            details={
                "num_turns": len(ctx.intended_user_turns),
                "num_transcribed_turns": len(ctx.transcribed_user_turns),
                "num_evaluated": 0,
            },
        )
    refs, hyps = [p[1] for p in pairs], [p[2] for p in pairs]
    co: Any = (
        jiwer.process_characters(refs, hyps) if params["unit"] == "char" else jiwer.process_words(refs, hyps)
    )
    n_ref = co.hits + co.substitutions + co.deletions
    wer = (co.substitutions + co.deletions + co.insertions) / n_ref if n_ref else 0.0
    if params["unit"] == "word":
        per_turn = dict(zip([t for t, _, _ in pairs], _sentence_wers(co), strict=True))
    else:  # character error rate overall, word error rate per turn (as before)
        per_turn = {t: round(jiwer.wer(r, h), 4) if r else None for t, r, h in pairs}
    errs: Counter[str] = Counter()
    if params["unit"] == "word":
        for al, r, h in zip(co.alignments, co.references, co.hypotheses, strict=True):
            for chunk in al:
                if chunk.type == "substitute":
                    errs[
                        f"{' '.join(r[chunk.ref_start_idx : chunk.ref_end_idx])} -> {' '.join(h[chunk.hyp_start_idx : chunk.hyp_end_idx])}"
                    ] += 1
                elif chunk.type == "delete":
                    errs[f"{' '.join(r[chunk.ref_start_idx : chunk.ref_end_idx])} -> "] += 1
    return MetricResult(
        name="stt_wer",
        score=round(wer, 4),
        normalized_score=round(1 - min(1.0, wer), 4),
        params=params,
        details={
            "per_turn_wer": per_turn,
            "substitutions": co.substitutions,
            "deletions": co.deletions,
            "insertions": co.insertions,
            "reference_words": n_ref,
            "top_errors": errs.most_common(10),
            "num_turns": len(ctx.intended_user_turns),
            "num_evaluated": len(pairs),
            # caller turns the agent never transcribed (call ended): intended text stands in (EVA)
            "stt_fallback_turns": list(ctx.stt_fallback_turns),
        },
        sub_metrics=_rates((co.substitutions, co.deletions, co.insertions, n_ref)),
    )


def _rates(counts: tuple[int, int, int, int] | None) -> dict[str, MetricResult]:
    """The WER's components over reference words: substitution, deletion and insertion
    rates (they sum to the WER). Null when there is nothing to measure."""
    s, d, i, n_ref = counts if counts is not None else (0, 0, 0, 0)
    return {
        name: sub(name, round(x / n_ref, 4) if n_ref else None)
        for name, x in (("substitution_rate", s), ("deletion_rate", d), ("insertion_rate", i))
    }


def _sentence_wers(co: Any) -> list[float | None]:
    """Each pair's WER (jiwer.wer of that pair alone), read from the corpus alignment: the
    edit distance over the reference length, whichever optimal alignment was chosen (the
    pairs are already aligned once; aligning each again cost as much as the corpus)."""
    out: list[float | None] = []
    for chunks, ref in zip(co.alignments, co.references, strict=True):
        if not ref:
            out.append(None)
            continue
        edits = sum(
            0
            if c.type == "equal"
            else (c.hyp_end_idx - c.hyp_start_idx if c.type == "insert" else c.ref_end_idx - c.ref_start_idx)
            for c in chunks
        )
        out.append(round(float(edits) / float(len(ref)), 4))
    return out
