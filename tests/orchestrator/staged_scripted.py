"""A scripted conversation fn that notes a step and holds it until the run's display saw it.

It stands in for a live call's model loading (minutes in a real run): the worker notes
``loading pretend models`` in its folder, then waits for the file the test's progress sink
writes into ``$VOXBENCH_TEST_SEEN_DIR`` when that step reached it, so the test needs no
timing window (a missing display gives up after 30 s and the test's assertion fails).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from voxbench.orchestrator.jobs import ConversationJob
from voxbench.orchestrator.scripted import scripted_conversation
from voxbench.records.stage import note_stage

STEP = "loading pretend models"


def staged_scripted(job: ConversationJob) -> Path:
    note_stage(job.output_dir, STEP)
    seen = Path(os.environ["VOXBENCH_TEST_SEEN_DIR"]) / f"{job.conversation_id}.seen"
    give_up = time.monotonic() + 30.0
    while not seen.exists() and time.monotonic() < give_up:
        time.sleep(0.05)
    return scripted_conversation(job)
