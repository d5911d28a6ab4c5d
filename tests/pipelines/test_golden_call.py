"""Golden record of one live call: fake services on the virtual clock, same seed, same record.

The call is a real pipecat call over the loopback WebSocket, run the way every driver runs
one (a :class:`CallSpec` into :class:`CallSession`): the built-in ``toy`` scenario ty.1,
the reference agent and the trace caller, both with the model-free tone voice, under the
``bad_line`` condition (telephony and seeded bursty packet loss on what the caller sends),
seeds derived from run seed 7 by ``records/seeds.py``. On a ``VirtualClockLoop`` no step
depends on the machine's speed, so the record directory is a function of the spec: this test
re-runs the call and compares it with ``tests/golden/live_call_toy.json``: record.json and
every event of events.jsonl exactly, the databases, scenario and agent files by SHA-256, and
each audio track by its length and loudness envelope (RMS per 100 ms; see ``AUDIO_LSB``).

The record is then scored by ``voxbench.eval``'s code metrics (those that need no judge
model, so deterministic) and compared with ``tests/golden/live_call_toy_metrics.json``.
Either test fails on any difference and prints a unified diff. Regenerate both on purpose (a
deliberate change of what a call records or how a metric scores it), then review the diff:

    VOXBENCH_REGEN_GOLDEN=1 .venv/bin/pytest tests/pipelines/test_golden_call.py
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from voxbench.eval.from_record import load_context
from voxbench.eval.metrics_doc import metrics_json
from voxbench.eval.runner import score_context
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.pipelines.call.selftest import selftest_call_config
from voxbench.pipelines.call.session import CallSession
from voxbench.pipelines.call.spec import CallSeeds, CallSpec, ConversationRef, ReferenceAgent, SimulatorSpec
from voxbench.processors.perturbations import resolve_condition
from voxbench.scenarios.loader import toy_dataset_dir
from voxbench.transports.virtual_loop import run_virtual

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "live_call_toy.json"
GOLDEN_METRICS = GOLDEN.with_name("live_call_toy_metrics.json")
RUN_SEED = 7
CONDITION = "bad_line"

# What may differ between two runs of the same spec, and why. Everything else must match.
HOST_FIELDS = {
    "started_at": "the host's wall clock when the call started (datetime.now)",
    "ended_at": "the host's wall clock when the call ended",
    "versions": "the installed packages' versions: the environment, not the call",
}
HOST_EXTRA = {"wall_s": "host seconds the call took (CPU speed and load), not virtual time"}
# pipecat names each processor "<Class>#<n>", n counting the instances made in the process so
# far: the same call after other tests in one pytest process reads "ToneTTSService#6", alone
# "#0". The class name is kept; the number is the process's history, not the call's.
PROCESSOR_NO = re.compile(r"#\d+$")
# record.json and events.jsonl are compared field by field, the audio by its envelope, the
# other files by content hash; stage.txt is a progress hint for a display, not part of the
# record (records/stage.py)
COMPARED_APART = ("record.json", "events.jsonl", "stage.txt")
# The voices are numpy sines and the phone line scipy filters: a different CPU or numpy build
# may round a sample one LSB the other way (SIMD sin/sum), which a file hash would call a new
# record. The envelope keeps every timing and level change visible and allows that one LSB.
AUDIO_LSB = 1
ENVELOPE_S = 0.1


def golden_spec() -> CallSpec:
    conv = ConversationRef(
        conversation_id="toy__ty.1__t0__bad_line",
        dataset=str(toy_dataset_dir()),
        domain="toy",
        scenario_id="ty.1",
        condition=CONDITION,
    )
    return CallSpec(
        conversation=conv,
        agent=ReferenceAgent(voice="tone"),
        simulator=SimulatorSpec(kind="trace", voice="tone"),
        perturbation=resolve_condition(CONDITION),
        call=selftest_call_config("tone", time_limit_s=120.0),
        seeds=CallSeeds.derive(RUN_SEED, conv, perturbed=True),
    )


def record_snapshot(out: Path) -> dict[str, Any]:
    """The record directory as comparable JSON, host-specific fields replaced by their name."""
    record = json.loads((out / "record.json").read_text(encoding="utf-8"))
    for key in HOST_FIELDS:
        record[key] = f"<{key}>"
    for key in HOST_EXTRA:
        record["extra"][key] = f"<{key}>"
    events = [json.loads(line) for line in (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    for e in events:
        if isinstance(e.get("processor"), str):
            e["processor"] = PROCESSOR_NO.sub("#<n>", e["processor"])
    kept = [p for p in sorted(out.rglob("*")) if p.is_file() and p.name not in COMPARED_APART]
    files = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in kept if p.suffix != ".wav"}
    audio = {p.name: audio_envelope(p) for p in kept if p.suffix == ".wav"}
    return {"record": record, "events": events, "files": files, "audio": audio}


def audio_envelope(path: Path) -> dict[str, Any]:
    """A WAV's sample rate, length and per-channel RMS (int16 units) over 100 ms frames."""
    data, sr = sf.read(path, dtype="int16", always_2d=True)
    hop = round(ENVELOPE_S * sr)
    n = -(-data.shape[0] // hop)
    pad = np.zeros((n * hop - data.shape[0], data.shape[1]), dtype=np.int16)
    frames = np.concatenate([data, pad]).astype(np.float64).reshape(n, hop, data.shape[1])
    rms = np.sqrt(np.mean(frames**2, axis=1)).round().astype(int)
    return {"sample_rate": sr, "samples": data.shape[0], "rms": rms.T.tolist()}


def assert_same_audio(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert sorted(got) == sorted(want)
    for name, g in got.items():
        w = want[name]
        assert (g["sample_rate"], g["samples"]) == (w["sample_rate"], w["samples"]), name
        diff = np.abs(np.asarray(g["rms"]) - np.asarray(w["rms"]))
        assert diff.max(initial=0) <= AUDIO_LSB, f"{name}: envelope differs at {np.argmax(diff)}"


def run_golden_call(out: Path) -> dict[str, Any]:
    session = CallSession(golden_spec(), out)
    record = run_virtual(session.run())
    assert record.status == "completed", record.error
    return record_snapshot(out)


def golden_metrics(out: Path) -> dict[str, Any]:
    """The record scored by ``voxbench.eval``'s code metrics (every registered metric that needs
    no judge model: deterministic), as metrics.json has it, without the conversation view
    (the record's own golden covers that)."""
    ctx = load_context(out)
    names = [n for n, spec in REGISTRY.items() if not spec.needs_judge]
    doc = metrics_json(score_context(ctx, EvalConfig(), names), ctx)
    del doc["context"]
    return json.loads(json.dumps(doc))  # as read back from a file (tuples become lists)


def assert_same_json(got: Any, want: Any, what: str) -> None:
    """Equal, or fail with a unified diff of the two (golden first) and how to regenerate."""
    if got == want:
        return
    a = json.dumps(want, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    b = json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    diff = "\n".join(difflib.unified_diff(a, b, f"{what} (golden)", f"{what} (this run)", lineterm="", n=3))
    pytest.fail(
        f"{what} differs from the golden (a deliberate change: VOXBENCH_REGEN_GOLDEN=1, then review "
        f"git diff tests/golden/):\n{diff}",
        pytrace=False,
    )


def _golden(path: Path, got: dict[str, Any]) -> dict[str, Any]:
    if os.environ.get("VOXBENCH_REGEN_GOLDEN"):
        path.write_text(
            json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    assert path.is_file(), f"{path.name} missing: run with VOXBENCH_REGEN_GOLDEN=1"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def golden_call(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The call run once for this module: its record directory and snapshot."""
    out = tmp_path_factory.mktemp("golden") / "call"
    return out, run_golden_call(out)


def test_same_spec_gives_the_golden_record(golden_call: tuple[Path, dict[str, Any]]) -> None:
    got = golden_call[1]
    want = _golden(GOLDEN, got)
    assert_same_json(got["record"], want["record"], "record.json")
    assert_same_json(got["files"], want["files"], "file hashes")
    assert_same_audio(got["audio"], want["audio"])
    assert_same_json(got["events"], want["events"], "events.jsonl")


def test_golden_record_gives_the_golden_metrics(golden_call: tuple[Path, dict[str, Any]]) -> None:
    """The same record scores the same: a change in a code metric, in how eval reads a record,
    or in the call itself shows here as a diff of metrics.json."""
    got = golden_metrics(golden_call[0])
    assert got["status"] == "completed" and got["validation"]["valid"], got["validation"]
    assert_same_json(got, _golden(GOLDEN_METRICS, got), "metrics.json")
