"""The golden call again, in real time: the same spec gives the same record on the real clock.

`test_golden_call.py` runs the golden call on the virtual clock (compute takes no time). Here
the same `CallSpec` runs through `CallSession` in real time, on the `LogicalClockLoop` every
real-time call uses (`transports/logical_loop.py`): audio is paced by the real clock, the
WebSocket is the real loopback one, and the run takes the call's length (~22 s). A callback
reads when its cause was due, not when a busy loop got round to it, so every event, the
record and the audio must equal the golden ones exactly. Set aside, besides the host fields
the golden test already sets aside: how late the chunks *really* left (the pacing events'
`late_chunks` / `max_lateness_ms`, measured on the real clock on purpose: the machine's load).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.pipelines.test_golden_call import (
    GOLDEN,
    assert_same_audio,
    assert_same_json,
    golden_spec,
    record_snapshot,
)
from voxbench.pipelines.call.session import CallSession
from voxbench.transports.logical_loop import run_logical

REAL_LATENESS = ("late_chunks", "max_lateness_ms")


def _without_real_lateness(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {k: ("<real clock>" if e["type"] == "pacing" and k in REAL_LATENESS else v) for k, v in e.items()}
        for e in events
    ]


def test_real_time_run_gives_the_golden_record(tmp_path: Path) -> None:
    out = tmp_path / "call"
    # a loaded test machine (the full suite, other jobs on 2 cores) stalls the loop for a few
    # hundred ms at times; tolerating a second of lag keeps the test about the record, not
    # about the machine (calls use 0.1 s, tuned for local models: logical_loop.MAX_LAG_S)
    record = run_logical(CallSession(golden_spec(), out).run(), max_lag_s=1.0)
    assert record.status == "completed", record.error
    got = record_snapshot(out)
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert_same_json(got["record"], want["record"], "record.json")
    assert_same_json(got["files"], want["files"], "file hashes")
    assert_same_audio(got["audio"], want["audio"])
    assert_same_json(_without_real_lateness(got["events"]), _without_real_lateness(want["events"]), "events")
