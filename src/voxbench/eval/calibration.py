"""Judge calibration: run judge metrics over human-labelled sets and measure agreement.

Two sources of human labels:

* EVA's judge-validation sets (`docs/metrics/judge_validation_datasets/*.jsonl`, format in
  their README): `faithfulness` and `conversation_progression` (one 1-3 rating per
  conversation), `conciseness` (a 1-3 rating per agent turn) and
  `key_entity_transcription` (per caller turn, the entities with correct true/false).
  `agent_speech_fidelity` needs the audio, which the sets do not ship: reported as skipped.
  Part of EVA's labels is held back, so this reads any file of the same format and never
  refers to individual items.
* voxbench records carrying a `human_rating` (mic-in-the-loop calls, `voxbench talk`):
  the caller's 1-3 "natural" rating against the 1-3 judge metrics, and "task done"
  against task_completion. These are proxies (the person rated the call, not the metric's
  exact question) and are labelled so.

Each item is turned into a `ConversationContext` and scored by the *registered* metric
function, so calibration measures exactly the prompt, parser and aggregation that
`voxbench eval` uses. Judge failures are counted as errors, not as disagreements.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers the metrics)
from voxbench.eval.calibration_dims import (
    METRIC_DIMENSIONS,
    dimension_agreement,
    flagged_dimensions,
    label_dimensions,
)
from voxbench.eval.context import ConversationContext
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric

CALIBRATION_SCHEMA = "1.0"

# dataset file stem -> the metric it validates
DATASET_METRICS = {
    "faithfulness": "faithfulness",
    "conversation_progression": "conversation_progression",
    "conciseness": "conciseness",
    "key_entity_transcription": "transcription_accuracy_key_entities",
    "agent_speech_fidelity": "agent_speech_fidelity",
}
UNSUPPORTED = {"agent_speech_fidelity": "needs the agent audio, which the validation set does not ship"}


# --- agreement statistics ----------------------------------------------------------------------


def cohen_kappa(
    pairs: Sequence[tuple[Any, Any]], labels: Sequence[Any], weights: str | None = None
) -> float | None:
    """Cohen's kappa of (human, judge) pairs over `labels`; `weights="quadratic"` for ordinal
    scales. None when undefined (no pairs, or chance agreement is already perfect)."""
    if not pairs:
        return None
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    n = len(pairs)
    obs = [[0.0] * k for _ in range(k)]
    for h, j in pairs:
        obs[idx[h]][idx[j]] += 1.0 / n
    row = [sum(obs[i]) for i in range(k)]
    col = [sum(obs[i][j] for i in range(k)) for j in range(k)]

    def w(i: int, j: int) -> float:
        if weights == "quadratic":
            return ((i - j) / (k - 1)) ** 2 if k > 1 else 0.0
        return 0.0 if i == j else 1.0

    d_obs = sum(w(i, j) * obs[i][j] for i in range(k) for j in range(k))
    d_exp = sum(w(i, j) * row[i] * col[j] for i in range(k) for j in range(k))
    if d_exp == 0:
        return None
    return round(1.0 - d_obs / d_exp, 4) + 0.0  # no -0.0 in reports


def agreement(
    pairs: Sequence[tuple[Any, Any]], labels: Sequence[Any], ordinal: bool = False
) -> dict[str, Any]:
    """Accuracy, Cohen's kappa (and quadratic-weighted kappa and MAE for ordinal scales),
    macro F1, the label distributions and the confusion matrix (rows human, cols judge)."""
    n = len(pairs)
    out: dict[str, Any] = {"n": n, "labels": list(labels)}
    if not n:
        return out | {"accuracy": None, "cohen_kappa": None, "macro_f1": None}
    out["accuracy"] = round(sum(h == j for h, j in pairs) / n, 4)
    out["cohen_kappa"] = cohen_kappa(pairs, labels)
    if ordinal:
        out["weighted_kappa_quadratic"] = cohen_kappa(pairs, labels, "quadratic")
        out["mae"] = round(sum(abs(float(h) - float(j)) for h, j in pairs) / n, 4)
    f1s = []
    for lab in labels:
        tp = sum(h == lab and j == lab for h, j in pairs)
        fp = sum(h != lab and j == lab for h, j in pairs)
        fn = sum(h == lab and j != lab for h, j in pairs)
        if tp + fp + fn:
            f1s.append(2 * tp / (2 * tp + fp + fn))
    out["macro_f1"] = round(sum(f1s) / len(f1s), 4) if f1s else None
    out["human_distribution"] = {str(lab): sum(h == lab for h, _ in pairs) for lab in labels}
    out["judge_distribution"] = {str(lab): sum(j == lab for _, j in pairs) for lab in labels}
    out["confusion"] = [[sum(h == a and j == b for h, j in pairs) for b in labels] for a in labels]
    return out


def mae(pairs: Sequence[tuple[float, float]]) -> float | None:
    return round(sum(abs(h - j) for h, j in pairs) / len(pairs), 4) if pairs else None


# --- entity matching (EVA's lenient rule, validation README) -------------------------------------


def _norm_entity(s: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", "", str(s).lower())).strip()


def entities_match(a: Any, b: Any) -> bool:
    """Normalised (lower-case, no punctuation, compressed spaces) containment either way, or
    SequenceMatcher ratio > 0.6."""
    x, y = _norm_entity(a), _norm_entity(b)
    if not x or not y:
        return False
    return x in y or y in x or SequenceMatcher(None, x, y).ratio() > 0.6


def match_entities(human: list[dict[str, Any]], judge: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of entity values, best similarity first."""
    cands = []
    for i, h in enumerate(human):
        for k, j in enumerate(judge):
            if entities_match(h.get("value"), j.get("value")):
                r = SequenceMatcher(None, _norm_entity(h.get("value")), _norm_entity(j.get("value"))).ratio()
                cands.append((-r, i, k))
    used_h: set[int] = set()
    used_j: set[int] = set()
    out = []
    for _, i, k in sorted(cands):
        if i not in used_h and k not in used_j:
            used_h.add(i)
            used_j.add(k)
            out.append((i, k))
    return out


# --- dataset items -> contexts ---------------------------------------------------------------------


@dataclass
class CalibItem:
    metric: str
    item_id: str
    ctx: ConversationContext
    human: Any  # int rating, {turn_id: rating}, or {turn_id: [entities]}
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class AgentInfo:
    role: str = ""
    instructions: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)


def trace_from_events(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """EVA validation-set traces (`event_type` agent_utterance / user_utterance / tool_call /
    tool_response) as a conversation trace: turn 0 is the greeting, a caller utterance after
    the agent has spoken opens the next turn."""
    out: list[dict[str, Any]] = []
    turn, agent_spoke, seen_user = 0, False, False
    for e in events:
        kind = e.get("event_type")
        if kind == "user_utterance":
            if agent_spoke or not seen_user:
                turn += 1
                agent_spoke = False
            seen_user = True
            out.append(
                {
                    "role": "user",
                    "content": str(e.get("utterance", "")),
                    "type": "transcribed",
                    "turn_id": turn,
                }
            )
        elif kind == "agent_utterance":
            agent_spoke = True
            out.append(
                {
                    "role": "assistant",
                    "content": str(e.get("utterance", "")),
                    "type": "intended",
                    "turn_id": turn,
                }
            )
        elif kind == "tool_call":
            out.append(
                {
                    "type": "tool_call",
                    "tool_name": e.get("tool_name"),
                    "parameters": e.get("params"),
                    "turn_id": turn,
                }
            )
        elif kind == "tool_response":
            out.append(
                {
                    "type": "tool_response",
                    "tool_name": e.get("tool_name"),
                    "tool_response": e.get("response"),
                    "turn_id": turn,
                }
            )
    return out


def _fill_turn_texts(ctx: ConversationContext) -> ConversationContext:
    for e in ctx.conversation_trace:
        role, t = e.get("role"), e["turn_id"]
        if role == "user":
            for d in (ctx.transcribed_user_turns, ctx.intended_user_turns):
                d[t] = (d.get(t, "") + " " + e["content"]).strip()
        elif role == "assistant":
            for d in (ctx.intended_assistant_turns, ctx.transcribed_assistant_turns):
                d[t] = (d.get(t, "") + " " + e["content"]).strip()
    ctx.num_turns = max((e["turn_id"] for e in ctx.conversation_trace), default=0)
    return ctx


def context_of(
    item_id: str, trace: list[dict[str, Any]], agent: AgentInfo | None, when: str | None
) -> ConversationContext:
    """A validation item's conversation as a judge reads it: the trace, the agent's role,
    instructions and tools, and the date of the call (the benches build theirs the same way)."""
    ctx = ConversationContext(record_id=item_id, source="eva-judge-validation", conversation_trace=trace)
    if agent is not None:
        ctx.agent_role, ctx.agent_instructions, ctx.agent_tools = agent.role, agent.instructions, agent.tools
    ctx.current_date_time = when or ""
    return _fill_turn_texts(ctx)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _modes(raw: Any) -> list[str]:
    """A label's failure modes: EVA writes a list, a comma-separated string, or "" / [""]."""
    parts = raw if isinstance(raw, list) else str(raw).split(",")
    return [str(p).strip() for p in parts if str(p).strip()]


def load_items(path: Path, agent: AgentInfo | None = None) -> tuple[str, list[CalibItem], int]:
    """(metric, items, n_excluded) of one validation file. Rows marked `invalid` or not
    `validated` are excluded (and counted)."""
    stem = path.stem
    metric = DATASET_METRICS.get(stem)
    if metric is None:
        raise ValueError(f"unknown validation set {path.name} (known: {', '.join(DATASET_METRICS)})")
    rows = _read_jsonl(path)
    kept = [r for r in rows if not r.get("invalid") and r.get("validated", True) is not False]
    items: list[CalibItem] = []
    if metric in ("faithfulness", "conversation_progression"):
        for r in kept:
            if r.get("expected_rating") not in (1, 2, 3):
                continue
            ctx = context_of(
                str(r.get("id")), trace_from_events(r.get("trace") or []), agent, r.get("current_date_time")
            )
            modes = _modes(r.get("failure_mode") or [])
            extra = {"failure_modes": label_dimensions(metric, modes)} if "failure_mode" in r else {}
            items.append(CalibItem(metric, str(r.get("id")), ctx, int(r["expected_rating"]), extra))
    elif metric == "conciseness":
        for r in kept:
            events = [
                {
                    "event_type": "agent_utterance" if t.get("role") == "agent" else "user_utterance",
                    "utterance": t.get("content", ""),
                    "position": t.get("position"),
                }
                for t in r.get("conv_turns") or []
            ]
            trace = trace_from_events(events)
            human = {
                tr["turn_id"]: t.get("expected_rating")
                for tr, t in zip(trace, r.get("conv_turns") or [], strict=True)
                if t.get("role") == "agent" and t.get("expected_rating") in (1, 2, 3)
            }
            items.append(
                CalibItem(metric, str(r.get("id")), context_of(str(r.get("id")), trace, agent, None), human)
            )
    elif metric == "transcription_accuracy_key_entities":
        for n, r in enumerate(kept):
            tts, stt = list(r.get("user_tts") or []), list(r.get("transcription") or [])
            ctx = ConversationContext(record_id=f"{stem}:{n}", source="eva-judge-validation")
            ctx.intended_user_turns = {i: str(x) for i, x in enumerate(tts)}
            ctx.transcribed_user_turns = {
                i: str(stt[i]).strip() if i < len(stt) else "" for i in range(len(tts))
            }
            human = {
                int(lab["turn_id"]): [e for e in lab.get("entities") or [] if isinstance(e, dict)]
                for lab in r.get("labels") or []
                if "turn_id" in lab
            }
            items.append(CalibItem(metric, str(r.get("id", n)), ctx, human))
    return metric, items, len(rows) - len(kept)


# --- scoring -------------------------------------------------------------------------------------------


def _int_rating(res: MetricResult) -> int | None:
    if not res.ok or res.score is None:
        return None
    return round(res.score)


def score_items(
    metric: str,
    items: list[CalibItem],
    config: EvalConfig,
    progress: Callable[[str, int, int, MetricResult], None] | None = None,
    rater: Callable[[CalibItem], MetricResult] | None = None,
) -> dict[str, Any]:
    """Run `metric` on every item (or `rater`, e.g. a model refitted without the item's fold)
    and compare with the human labels."""
    spec = REGISTRY[metric]
    rows: list[dict[str, Any]] = []
    pairs: list[tuple[Any, Any]] = []
    score_pairs: list[tuple[float, float]] = []
    ent_pairs: list[tuple[bool, bool]] = []
    ent_counts = {"human": 0, "judge": 0, "matched": 0}
    errors = 0
    prompt_hashes: set[str] = set()
    for n, it in enumerate(items, start=1):
        res = rater(it) if rater is not None else run_metric(spec, it.ctx, config)
        if res.prompt_hash:
            prompt_hashes.add(res.prompt_hash)
        row: dict[str, Any] = {"id": it.item_id, "human": it.human}
        if res.error is not None:
            errors += 1
            row["error"] = res.error
        if metric in ("faithfulness", "conversation_progression"):
            j = _int_rating(res)
            row["judge"] = j
            if "failure_modes" in it.extra:
                row["human_modes"] = it.extra["failure_modes"]
                row["judge_flagged"] = flagged_dimensions(metric, res)
            if j is not None and not (res.details or {}).get("invalid_judge_output"):
                pairs.append((it.human, j))
            elif j is not None:
                row["error"] = "invalid judge output (metric defaulted to the scale minimum)"
                errors += 1
        elif metric == "conciseness":
            per = {int(k): v for k, v in ((res.details or {}).get("per_turn_rating") or {}).items()}
            row["judge"] = per
            row["unrated_turns"] = sorted(t for t in it.human if t not in per)
            for t, h in it.human.items():
                if t in per:
                    pairs.append((h, per[t]))
            if res.ok and it.human:
                hm = sum(it.human.values()) / len(it.human)
                score_pairs.append(((hm - 1) / 2, float(res.normalized_score or 0.0)))
        elif metric == "transcription_accuracy_key_entities":
            judged = {int(k): v for k, v in ((res.details or {}).get("per_turn_entities") or {}).items()}
            row["judge"] = {t: [(e.get("value"), e.get("correct")) for e in v] for t, v in judged.items()}
            for t, hum in it.human.items():
                jents = [e for e in judged.get(t, []) if not e.get("skipped")]
                ent_counts["human"] += len(hum)
                ent_counts["judge"] += len(jents)
                if res.error is None:
                    for hi, ji in match_entities(hum, jents):
                        ent_counts["matched"] += 1
                        ent_pairs.append((bool(hum[hi].get("correct")), bool(jents[ji].get("correct"))))
                if hum and res.error is None and t in judged:
                    hs = sum(bool(e.get("correct")) for e in hum) / len(hum)
                    js = sum(bool(e.get("correct")) for e in jents) / len(jents) if jents else None
                    if js is not None:
                        score_pairs.append((hs, js))
                        pairs.append((hs == 1.0, js == 1.0))
        rows.append(row)
        if progress is not None:
            progress(metric, n, len(items), res)
    out: dict[str, Any] = {
        "metric": metric,
        "metric_version": spec.version,
        "prompt_hashes": sorted(prompt_hashes),
        "items": len(items),
        "judge_errors": errors,
    }
    if metric in ("faithfulness", "conversation_progression"):
        out["unit"] = "conversation (overall 1-3 rating)"
        out["agreement"] = agreement(pairs, [1, 2, 3], ordinal=True)
        if any("human_modes" in r for r in rows):
            out["dimensions"] = dimension_agreement(rows, METRIC_DIMENSIONS[metric])
    elif metric == "conciseness":
        out["unit"] = "agent turn (1-3 rating)"
        out["agreement"] = agreement(pairs, [1, 2, 3], ordinal=True)
        out["conversation_score_mae"] = mae(score_pairs)
        out["human_labelled_turns"] = sum(len(it.human) for it in items)  # n below: those the judge rated
    else:
        h, j, m = ent_counts["human"], ent_counts["judge"], ent_counts["matched"]
        prec, rec = (m / j if j else None), (m / h if h else None)
        out["unit"] = "entity (correctly transcribed: true/false), matched leniently by value"
        out["agreement"] = agreement(ent_pairs, [True, False])
        out["entity_extraction"] = {
            "human_entities": h,
            "judge_entities": j,
            "matched": m,
            "precision": round(prec, 4) if prec is not None else None,
            "recall": round(rec, 4) if rec is not None else None,
            "f1": round(2 * prec * rec / (prec + rec), 4) if prec and rec else None,
        }
        out["turn_score_mae"] = mae(score_pairs)
        out["turn_all_correct_agreement"] = agreement(pairs, [True, False])
    out["per_item"] = rows
    return out


def sample(items: list[CalibItem], limit: int | None, seed: int = 0) -> list[CalibItem]:
    """A seeded random subset (the files are not in random order), or all items."""
    if limit is None or limit >= len(items):
        return items
    rng = random.Random(seed)
    return sorted(rng.sample(items, limit), key=lambda it: items.index(it))


def calibrate_dataset(
    dataset_dir: Path,
    config: EvalConfig,
    *,
    metrics: Sequence[str] | None = None,
    limit: int | None = None,
    seed: int = 0,
    agent: AgentInfo | None = None,
    progress: Callable[[str, int, int, MetricResult], None] | None = None,
    cv_folds: int = 5,
) -> dict[str, Any]:
    """Calibrate on every `*.jsonl` validation set in `dataset_dir` (or only `metrics`). With
    the offline judge, methods fitted on labels also get `cv_folds`-fold cross-validated figures."""
    files = sorted(dataset_dir.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no *.jsonl validation sets in {dataset_dir}")
    out: dict[str, Any] = {"metrics": {}, "skipped": {}, "files": {}}
    for f in files:
        metric = DATASET_METRICS.get(f.stem)
        if metric is None:
            out["skipped"][f.name] = "unknown validation set"
            continue
        if metrics and metric not in metrics:
            continue
        out["files"][f.name] = hashlib.sha256(f.read_bytes()).hexdigest()
        if f.stem in UNSUPPORTED:
            out["skipped"][metric] = UNSUPPORTED[f.stem]
            continue
        _, items, excluded = load_items(f, agent)
        chosen = sample(items, limit, seed)
        res = score_items(metric, chosen, config, progress)
        if config.text_judge_mode() == "offline":
            from voxbench.eval.calibration_offline import offline_block

            res |= offline_block(metric, chosen, res, cv_folds, seed, f.stem, out["files"][f.name])
        res["available_items"] = len(items)
        res["excluded_invalid_rows"] = excluded
        res["sample"] = {"limit": limit, "seed": seed} if limit is not None and limit < len(items) else None
        out["metrics"][metric] = res
    return out


# --- human-rated voxbench records --------------------------------------------------------------------


RECORD_PROXY_METRICS = ("conversation_progression", "conciseness", "faithfulness")


def calibrate_records(
    contexts: Sequence[tuple[ConversationContext, dict[str, Any]]],
    config: EvalConfig,
    metrics: Sequence[str] = RECORD_PROXY_METRICS,
) -> dict[str, Any]:
    """(context, human_rating) pairs: `natural` (1-3) against each 1-3 judge metric's raw score
    (rounded), `task_done` against task_completion. Proxies, not the metric's own question."""
    out: dict[str, Any] = {"records": len(contexts), "metrics": {}}
    for m in [*metrics, "task_completion"]:
        pairs: list[tuple[Any, Any]] = []
        rows = []
        for ctx, hr in contexts:
            human = hr.get("task_done") if m == "task_completion" else hr.get("natural")
            if human is None:
                continue
            res = run_metric(REGISTRY[m], ctx, config)
            if m == "task_completion":
                judge: Any = None if not res.ok else bool(res.value == 1.0)
            else:
                judge = _int_rating(res)
            rows.append({"record_id": ctx.record_id, "human": human, "judge": judge, "error": res.error})
            if judge is not None:
                pairs.append((bool(human), judge) if m == "task_completion" else (int(human), judge))
        if m == "task_completion":
            out["metrics"][m] = {"human_field": "task_done", "agreement": agreement(pairs, [True, False])}
        else:
            out["metrics"][m] = {
                "human_field": "natural (1-3), a proxy",
                "agreement": agreement(pairs, [1, 2, 3], ordinal=True),
            }
        out["metrics"][m]["per_record"] = rows
    return out
