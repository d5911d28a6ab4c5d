"""Read EVA run directories (`output/<run_id>/records/<id>[/trial_i]/`) as contexts.

EVA's processor merges three logs (reference §3.1, §5.3); we flatten them into the same
`HEvent` history our own records produce and cut turns with the same `segment()`:

* `user_simulator_events.jsonl` (legacy `elevenlabs_events.jsonl`): audio_start /
  audio_end with `audio_timestamp` (unix s), `user_speech` (the caller's intended text),
  `assistant_speech` (the caller's STT of the agent), `connection_state`;
* `audit_log.json` transcript: `user` (the agent's STT), `tool_call`, `tool_response`,
  `turn_fallback`; `assistant` only when no TTS text was logged;
* `pipecat_logs.jsonl`: `tts_text` chunks (what the agent handed to TTS).

The scenario (expected database, goal) comes from an EVA dataset folder when given.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voxbench.eval.context import ConversationContext, HEvent, segment
from voxbench.records.io import JsonlLines, read_json, read_jsonl

if TYPE_CHECKING:
    from voxbench.eval.eva_dataset import EvaDataset

_USER_NAMES = {"simulated_user", "elevenlabs_user", "user"}
_ASSISTANT_NAMES = {"assistant", "framework_agent", "pipecat_agent"}
SIM_EVENT_FILES = ("user_simulator_events.jsonl", "elevenlabs_events.jsonl")
_TRIAL_RE = re.compile(r"^(?P<id>.+?)(?:/|_)trial_(?P<trial>\d+)$")
_SUFFIX_RE = re.compile(r"_(failed_attempt|extra|unvalidated|attempt)_\d+$")


def is_eva_record(path: Path) -> bool:
    return (path / "result.json").is_file() and (path / "audit_log.json").is_file()


def parse_trial_record_id(rid: str) -> tuple[str, int | None]:
    """`1.1.2/trial_3` or `1.1.2_trial_3` -> ("1.1.2", 3); archive suffixes (`_attempt_2`,
    `_failed_attempt_1`, ...) are stripped first. An id without a trial at its end (none
    at all, `1.1.2_trial_3_notes`, an empty id) has no trial: None, not 0, since trial 0
    is a real trial (`trial_0`)."""
    rid = _SUFFIX_RE.sub("", rid)
    m = _TRIAL_RE.match(rid)
    return (m["id"], int(m["trial"])) if m else (rid, None)


def _jsonl(p: Path) -> list[dict[str, Any]]:
    return list(read_jsonl(p).rows) if p.is_file() else []


class RecordLogs:
    """The JSON-lines logs of one EVA record folder, each read and parsed at most once
    (loading a record used to parse the simulator log three times and the pipecat log,
    EVA's largest, twice)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[str, JsonlLines] = {}

    def __call__(self, name: str) -> JsonlLines:
        if name not in self._read:
            p = self.folder / name
            self._read[name] = read_jsonl(p) if p.is_file() else JsonlLines([])
        return self._read[name]


def torn_logs(folder: Path, logs: RecordLogs | None = None) -> dict[str, str]:
    """JSONL logs of an EVA record whose last line is torn (a killed writer), with that line."""
    logs = logs or RecordLogs(folder)
    out: dict[str, str] = {}
    for name in (*SIM_EVENT_FILES, "pipecat_logs.jsonl"):
        if (folder / name).is_file() and (tail := logs(name).torn_tail) is not None:
            out[name] = tail
    return out


def _sim_events(folder: Path, logs: RecordLogs | None = None) -> tuple[list[dict[str, Any]], Path | None]:
    logs = logs or RecordLogs(folder)
    for name in SIM_EVENT_FILES:
        p = folder / name
        if p.is_file():
            return list(logs(name).rows), p
    return [], None


def eva_history(
    folder: Path,
    pipeline_type: str = "cascade",
    logs: RecordLogs | None = None,
    audit: list[dict[str, Any]] | None = None,
) -> list[HEvent]:
    """The merged history; pass the record's `logs` and parsed `audit` transcript when the
    caller has them, so each file is parsed once per record."""
    logs = logs or RecordLogs(folder)
    out: list[HEvent] = []
    sim, _ = _sim_events(folder, logs)
    for e in sim:
        et = e.get("event_type") or e.get("type")
        ts = float(e.get("timestamp", 0)) / 1000.0
        if et in ("audio_start", "audio_end"):
            u = e.get("user")
            who = "user" if u in _USER_NAMES else "assistant" if u in _ASSISTANT_NAMES else None
            if who is not None:
                out.append(HEvent(float(e.get("audio_timestamp", ts)), et, who))  # type: ignore[arg-type]
        elif et == "user_speech":
            out.append(HEvent(ts, "user_intended", text=(e.get("data") or {}).get("text", "")))
        elif et == "assistant_speech":
            out.append(HEvent(ts, "assistant_transcribed", text=(e.get("data") or {}).get("text", "")))
    tts = [
        (float(e["timestamp"]) / 1000.0, str((e.get("data") or {}).get("frame", "")))
        for e in logs("pipecat_logs.jsonl").rows
        if e.get("type") == "tts_text"
    ]
    if pipeline_type != "s2s":
        out.extend(HEvent(t, "assistant_intended", text=x) for t, x in tts)
    if audit is None:
        audit = _audit(folder)
    for a in audit:
        ts = float(a.get("timestamp", 0)) / 1000.0
        mt = a.get("message_type")
        v = a.get("value")
        if mt == "user":
            out.append(HEvent(ts, "user_transcribed", text=str(v)))
        elif mt == "assistant" and (not tts or pipeline_type == "s2s"):
            out.append(HEvent(ts, "assistant_intended", text=str(v)))
        elif mt == "tool_call" and isinstance(v, dict):
            out.append(HEvent(ts, "tool_call", name=v.get("tool", ""), data=v.get("parameters")))
        elif mt == "tool_response" and isinstance(v, dict):
            out.append(HEvent(ts, "tool_response", name=v.get("tool", ""), data=v.get("response")))
        elif mt == "turn_fallback":
            out.append(HEvent(ts, "fallback"))
    return out


def _audit(folder: Path) -> list[dict[str, Any]]:
    p = folder / "audit_log.json"
    if not p.is_file():
        return []
    return list(read_json(p).get("transcript") or [])


def _stamp(a: dict[str, Any]) -> float:
    try:
        return float(a.get("timestamp") or 0)
    except (TypeError, ValueError):
        return 0.0


def pretool_speech_rate(audit: list[dict[str, Any]]) -> float | None:
    """Share of contiguous tool-call groups preceded by non-empty agent speech since the
    previous group; a caller message resets the flag (EVA's `pretoolspeech_rate`). The log
    is read in timestamp order (stable for equal stamps), as EVA sorts it before grouping:
    entries are appended by concurrent tasks and can be out of order in the file."""
    groups = spoken_groups = 0
    spoke, in_group = False, False
    for a in sorted(audit, key=_stamp):
        mt = a.get("message_type")
        if mt in ("tool_call", "tool_response"):
            if not in_group:
                groups += 1
                spoken_groups += spoke
                in_group = True
            spoke = False
        else:
            if mt in ("user", "assistant"):
                in_group = False
            if mt == "user":
                spoke = False
            elif mt == "assistant" and str(a.get("value") or "").strip():
                spoke = True
    return round(spoken_groups / groups, 4) if groups else None


def _valid_end(sim: list[dict[str, Any]]) -> bool | None:
    if not sim:
        return None
    last = sim[-1]
    data = last.get("data") or {}
    # EVA accepts any connection-state event whose reason is goodbye (the simulator hung up),
    # whatever its state value; the reason sits in `details` (or directly in `data`).
    reason = (data.get("details") or {}).get("reason") or data.get("reason")
    return (last.get("type") or last.get("event_type")) == "connection_state" and reason == "goodbye"


def sim_events_problem(
    folder: Path, sim: list[dict[str, Any]], torn: dict[str, str]
) -> dict[str, str] | None:
    """Why the simulator log cannot tell how the call ended, if it cannot: no file, a file
    without events, or a last line that does not parse (EVA: "Failed to parse ...")."""
    present = [n for n in SIM_EVENT_FILES if (folder / n).is_file()]
    if not present:
        return {
            "kind": "missing",
            "message": f"no simulator events file ({' or '.join(SIM_EVENT_FILES)}) in {folder}",
        }
    name = present[0]
    if name in torn:
        return {
            "kind": "malformed",
            "message": f"Failed to parse the last line of {name}: {torn[name][:200]!r}",
        }
    if not sim:
        return {"kind": "empty", "message": f"{folder / name} is empty: no simulator events"}
    return None


def run_language(folder: Path) -> str:
    """The run's language (EVA's RunConfig.language in the run's config.json), "en" if unset:
    WER normalisation is chosen by it."""
    for d in (folder, *list(folder.parents)[:3]):
        p = d / "config.json"
        if p.is_file():
            try:
                lang = read_json(p).get("language")
            except (ValueError, AttributeError):
                continue
            if isinstance(lang, str) and lang:
                return lang
    return "en"


def load_eva_context(
    folder: str | Path,
    record_id: str | None = None,
    dataset_root: str | Path | None = None,
    domain: str | None = None,
    pipeline_type: str = "cascade",
    dataset: EvaDataset | None = None,
    language: str | None = None,
) -> ConversationContext:
    """One EVA record folder as a context. The scenario comes from `dataset` (pass one
    `EvaDataset` for a whole run: it loads each domain once) or else from `dataset_root`."""
    folder = Path(folder)
    result = read_json(folder / "result.json")
    rid = record_id or str(result.get("record_id") or folder.name)
    sid, trial = parse_trial_record_id(rid)
    logs = RecordLogs(folder)
    sim, _ = _sim_events(folder, logs)
    torn = torn_logs(folder, logs)
    # EVA reads the simulator log's last line for the goodbye: a torn last line means the call
    # did not end cleanly (not finished), never an unreadable record
    sim_torn = any(name in torn for name in SIM_EVENT_FILES)
    ctx = ConversationContext(
        record_id=rid,
        scenario_id=sid,
        trial=trial or 0,  # a record without trials is the run's only trial
        domain=domain or "",
        pipeline_type=pipeline_type,
        language=language or run_language(folder),
        source="eva",
        status="completed" if result.get("completed", True) else "infra_failure",
        error=result.get("error"),
        conversation_ended_reason=result.get("conversation_ended_reason"),
        simulator_ended_call=False if sim_torn else _valid_end(sim),
        final_db_hash=result.get("final_scenario_db_hash"),
    )
    for name, attr in (("initial_scenario_db.json", "initial_db"), ("final_scenario_db.json", "final_db")):
        p = folder / name
        if p.is_file():
            setattr(ctx, attr, read_json(p))
    if torn:
        ctx.extra["torn_logs"] = torn
    if (problem := sim_events_problem(folder, sim, torn)) is not None:
        ctx.extra["sim_events_problem"] = problem
    audit = _audit(folder)
    segment(
        eva_history(folder, pipeline_type, logs=logs, audit=audit),
        ctx,
        caller_first_is_turn_1=False,
        final_agent_cut=True,
    )
    ctx.pretool_speech_rate = pretool_speech_rate(audit)
    for stage in ("llm", "stt", "tts"):
        lat = result.get(f"{stage}_latency") or {}
        if lat.get("mean_ms") is not None:
            # EVA stores only summaries; keep the mean so response_speed can report it
            ctx.stage_latencies[stage] = [float(lat["mean_ms"]) / 1000.0]
    perf = folder / "agent_perf_stats.csv"
    if perf.is_file():
        csv.field_size_limit(1 << 30)
        with perf.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                if (row.get("output_tokens") or "").strip().isdigit():
                    ctx.output_tokens.append(int(row["output_tokens"]))
                if (row.get("reasoning_tokens") or "").strip().isdigit():  # newer EVA runs only
                    ctx.reasoning_tokens.append(int(row["reasoning_tokens"]))
    for key, fname in (
        ("agent", "audio_assistant.wav"),
        ("user_clean", "audio_user_clean.wav"),
        ("mix", "audio_mixed.wav"),
    ):
        if (folder / fname).is_file():
            ctx.audio_paths[key] = str(folder / fname)
    if dataset is None and dataset_root is not None:
        from voxbench.eval.eva_dataset import EvaDataset

        dataset = EvaDataset(Path(dataset_root))
    if dataset is not None and domain:
        dataset.attach(ctx, domain)
    return ctx


def domain_from_config(run_dir: Path) -> str | None:
    p = run_dir / "config.json"
    if not p.is_file():
        return None
    cfg = json.loads(p.read_text(encoding="utf-8"))
    if cfg.get("domain"):
        return str(cfg["domain"])
    for key in ("agent_config_path", "dataset_path"):
        m = re.search(r"(airline|itsm|medical_hr)", str(cfg.get(key) or ""))
        if m:
            return m.group(1)
    return None
