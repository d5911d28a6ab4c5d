"""What each running conversation is doing, read from its ``stage.txt`` for the progress display.

A live attempt runs in its own worker process and says nothing to the orchestrator until it
ends, minutes later. The call notes its steps in its staging folder
(:mod:`voxbench.records.stage`); this watcher polls the folders of the attempts in flight
and puts the current step, with when it began, into :class:`RunStats` for the display.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from voxbench.orchestrator.progress import ProgressSink, RunStats, Stage
from voxbench.records.stage import STAGE_FILE, read_stage


class StageWatch:
    """Polls the stage files of the attempts in flight; calls the display every poll so a
    line display can print a heartbeat during a long step."""

    def __init__(self, stats: RunStats, progress: ProgressSink, clock: Callable[[], float] = time.monotonic):
        self.stats, self.progress, self.clock = stats, progress, clock
        self._dirs: dict[str, Path] = {}
        #: seconds spent per step over all attempts (a step is its text up to " ("), in the
        #: order first seen: where a run's time went, for its summary
        self.spent: dict[str, float] = {}

    def _close(self, conversation_id: str) -> None:
        old = self.stats.stages.get(conversation_id)
        if old is not None:
            step = old.text.split(" (", 1)[0]
            self.spent[step] = self.spent.get(step, 0.0) + self.clock() - old.since

    def begin(self, conversation_id: str, stage_dir: Path) -> None:
        self._dirs[conversation_id] = stage_dir

    def end(self, conversation_id: str) -> None:
        """The attempt is over: forget its step and drop the hint file from its folder."""
        stage_dir = self._dirs.pop(conversation_id, None)
        self._close(conversation_id)
        self.stats.stages.pop(conversation_id, None)
        if stage_dir is not None:
            (stage_dir / STAGE_FILE).unlink(missing_ok=True)

    def poll(self) -> bool:
        """Read every stage file once; True when some step changed."""
        changed = False
        for cid, stage_dir in list(self._dirs.items()):
            text = read_stage(stage_dir)
            old = self.stats.stages.get(cid)
            if text is not None and (old is None or old.text != text):
                self._close(cid)
                self.stats.stages[cid] = Stage(text, self.clock())
                changed = True
        return changed

    async def run(self, interval_s: float = 1.0) -> None:
        """Until cancelled: poll, then hand the counters to the display."""
        while True:
            self.poll()
            self.progress.update(self.stats)
            await asyncio.sleep(interval_s)
