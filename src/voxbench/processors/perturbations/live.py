"""The caller's outgoing audio at send time: behaviour acts, pauses, then the condition's chain.

:class:`CallerAudio` is an ``int16 -> int16`` transform for the simulator's continuous output
mixer, which calls it for every chunk in playback order, speech and silence alike. That is
what makes the noise bed continue between the caller's turns, and what lets acts start at
exact times ("1 s into the agent's 2nd turn"). Pure numpy; the clock, the agent-speech feed
and the sinks for events and clean audio are callables handed in by the pipelines layer.

Per chunk:

1. **pause** (delay line): inside a caller line, after ``after_ms`` of speech, silence is sent
   for ``duration_ms`` while the line is buffered; the delay is absorbed in the silence after
   the line (buffered silence is dropped once the line is over).
2. **acts**: barge-in, backchannel, side-speech and vocal-tic clips are mixed in when due, while
   the agent is speaking and the caller is not saying a line; side speech and vocal tics can
   also come in the silence after the agent's speech (``silence_probability``), before the
   caller's next line. Agent turn ``k`` starts at the first agent speech onset after the
   caller said a line (turn 0 = the greeting).
3. the clean result goes to ``on_clean`` (the reference track the harness stamps caller speech
   from), then through the perturbation chain (noise, telephony, loss, ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from .behavior import CallerBehavior

Int16 = npt.NDArray[np.int16]
ActKind = Literal["barge_in", "backchannel", "side_speech", "vocal_tic", "pause"]
SILENCE_DBFS = -60.0
LINE_OVER_S = 0.3
SILENCE_DUE_S = (0.15, 0.4)
"""When an act planned for the silence comes, seconds after the agent fell silent: before the
caller's own answer (its turn-taking waits longer), so the act is out of turn."""


class ChunkPerturber(Protocol):
    def process_audio(self, pcm: Int16, sample_rate: int) -> Int16: ...


@dataclass(frozen=True)
class Act:
    """One thing the caller did, for the record (``CallerAct`` event)."""

    t: float
    kind: ActKind
    text: str = ""
    duration_s: float = 0.0
    agent_turn: int | None = None
    agent_speaking: bool = False


@dataclass
class _Planned:
    due_s: float  # seconds into the agent turn
    kind: ActKind
    text: str
    gain: float


@dataclass
class _Playing:
    clip: Int16
    pos: int = 0


@dataclass
class CallerAudioStats:
    chunks: int = 0
    acts: dict[str, int] = field(default_factory=dict)
    planned_not_fired: int = 0
    pause_s: float = 0.0
    max_delay_s: float = 0.0


def _db(x: Int16) -> float:
    if x.size == 0:
        return -120.0
    r = float(np.sqrt(np.mean(np.square(x.astype(np.float64)))))
    return 20.0 * np.log10(max(r, 1e-9) / 32768.0)


class CallerAudio:
    """The simulator's send-time audio transform (see module doc)."""

    def __init__(
        self,
        behavior: CallerBehavior,
        sample_rate: int,
        seed: int,
        *,
        clips: Mapping[str, Int16] | None = None,
        perturber: ChunkPerturber | None = None,
        now: Callable[[], float] = lambda: 0.0,
        on_act: Callable[[Act], None] | None = None,
        on_clean: Callable[[Int16, float], None] | None = None,
    ) -> None:
        self.behavior = behavior
        self.sr = sample_rate
        self.rng = random.Random(seed ^ 0x5EED_CA11)
        self.clips = {k: np.asarray(v, dtype=np.int16) for k, v in (clips or {}).items()}
        self.perturber = perturber
        self.now = now
        self.on_act = on_act
        self.on_clean = on_clean
        self.stats = CallerAudioStats()
        # agent turns, from the harness's speech stamps of the agent channel
        self.agent_turn = -1
        self.agent_speaking = False
        self._turn_start = 0.0
        self._caller_spoke = True  # so the first agent onset opens turn 0
        self._planned: list[_Planned] = []
        self._silent_planned: list[_Planned] = []  # due_s: seconds after the agent fell silent
        self._agent_offset: float | None = None
        self._playing: _Playing | None = None
        # lines and pauses
        self._in_line = False
        self._line_speech_s = 0.0
        self._silent_run_s = 0.0
        self._pause_at: float | None = None
        self._pause_left = 0
        self._fifo = np.zeros(0, dtype=np.int16)

    # -- inputs from the harness --------------------------------------------------------------
    def on_agent_speech(self, state: str, t: float) -> None:
        """Feed the agent channel's speech onsets/offsets (as the caller hears them)."""
        if state == "onset":
            self.agent_speaking = True
            if self._caller_spoke:
                self._caller_spoke = False
                self._new_agent_turn(t)
        else:
            self.agent_speaking = False
            self._agent_offset = t

    def _new_agent_turn(self, t: float) -> None:
        self.stats.planned_not_fired += len(self._planned) + len(self._silent_planned)
        self.agent_turn += 1
        self._turn_start = t
        self._agent_offset = None
        b, k = self.behavior, self.agent_turn
        plan = [_Planned(p.after_ms / 1000.0, "barge_in", p.text, 1.0) for p in b.barge_in if p.turn == k]
        for kind, cfg in (
            ("backchannel", b.backchannel),
            ("side_speech", b.side_speech),
            ("vocal_tic", b.vocal_tic),
        ):
            if cfg.probability and self.rng.random() < cfg.probability:
                due = cfg.min_agent_speech_ms / 1000.0 + self.rng.uniform(0.0, 1.5)
                gain = float(10.0 ** (cfg.gain_db / 20.0))
                plan.append(_Planned(due, kind, self.rng.choice(list(cfg.texts)), gain))  # type: ignore[arg-type]
        silent: list[_Planned] = []
        for kind, scfg in (("side_speech", b.side_speech), ("vocal_tic", b.vocal_tic)):
            if scfg.silence_probability and self.rng.random() < scfg.silence_probability:
                gain = float(10.0 ** (scfg.gain_db / 20.0))
                due = self.rng.uniform(*SILENCE_DUE_S)
                silent.append(_Planned(due, kind, self.rng.choice(list(scfg.texts)), gain))  # type: ignore[arg-type]
        self._planned = sorted(plan, key=lambda p: p.due_s)
        self._silent_planned = sorted(silent, key=lambda p: p.due_s)

    # -- the transform ------------------------------------------------------------------------
    def __call__(self, pcm: Int16) -> Int16:
        x = np.asarray(pcm, dtype=np.int16)
        t = self.now()
        self.stats.chunks += 1
        line = self._line_stage(x, t)
        out = self._act_stage(line, t)
        if self.on_clean is not None:
            self.on_clean(out, t)
        if self.perturber is not None:
            out = self.perturber.process_audio(out, self.sr)
        return out

    def _line_stage(self, x: Int16, t: float) -> Int16:
        dur = x.size / self.sr
        silent = _db(x) < SILENCE_DBFS
        if silent:
            self._silent_run_s += dur
            if self._in_line and self._silent_run_s >= LINE_OVER_S:
                self._in_line = False
        else:
            if not self._in_line:
                self._start_line()
            self._silent_run_s = 0.0
            self._line_speech_s += dur
        if self._pause_left > 0:
            self._fifo = np.concatenate([self._fifo, x])
            self._pause_left -= x.size
            return np.zeros_like(x)
        if self._pause_at is not None and self._in_line and self._line_speech_s >= self._pause_at:
            self._pause_at = None
            lo, hi = self.behavior.pauses.duration_ms
            n = round(self.rng.uniform(lo, hi) / 1000.0 * self.sr)
            self._pause_left = n - x.size
            self._fifo = np.concatenate([self._fifo, x])
            self.stats.pause_s += n / self.sr
            self._emit(Act(t=t, kind="pause", duration_s=n / self.sr, agent_turn=self.agent_turn))
            return np.zeros_like(x)
        drop = self._fifo.size > 0 and silent and not self._in_line
        if not drop:
            self._fifo = np.concatenate([self._fifo, x])
        self.stats.max_delay_s = max(self.stats.max_delay_s, max(0, self._fifo.size - x.size) / self.sr)
        out, self._fifo = self._fifo[: x.size], self._fifo[x.size :]
        if out.size < x.size:
            out = np.concatenate([out, np.zeros(x.size - out.size, dtype=np.int16)])
        return out

    def _start_line(self) -> None:
        self._in_line = True
        self._caller_spoke = True
        self._line_speech_s = 0.0
        self.stats.planned_not_fired += len(self._planned) + len(self._silent_planned)
        self._planned = []  # the caller's own line replaces anything still planned
        self._silent_planned = []
        p = self.behavior.pauses
        self._pause_at = (
            self.rng.uniform(*p.after_ms) / 1000.0
            if p.probability and self.rng.random() < p.probability
            else None
        )

    def _due(self, t: float) -> _Planned | None:
        """The act to start now, if any: in the agent's speech, or in the silence after it."""
        if self._playing is not None or self._in_line or self._fifo.size:
            return None
        if self.agent_speaking and self._planned and t - self._turn_start >= self._planned[0].due_s:
            return self._planned.pop(0)
        off = self._agent_offset
        quiet = not self.agent_speaking and off is not None and bool(self._silent_planned)
        if quiet and off is not None and t - off >= self._silent_planned[0].due_s:
            return self._silent_planned.pop(0)
        return None

    def _act_stage(self, x: Int16, t: float) -> Int16:
        p = self._due(t)
        if p is not None:
            clip = self.clips.get(p.text)
            if clip is not None and clip.size:
                scaled = np.clip(np.round(clip.astype(np.float64) * p.gain), -32768, 32767).astype(np.int16)
                self._playing = _Playing(scaled)
                self._emit(
                    Act(
                        t=t,
                        kind=p.kind,
                        text=p.text,
                        duration_s=clip.size / self.sr,
                        agent_turn=self.agent_turn,
                        agent_speaking=self.agent_speaking,
                    )
                )
        if self._playing is None:
            return x
        pl = self._playing
        seg = pl.clip[pl.pos : pl.pos + x.size]
        pl.pos += seg.size
        if pl.pos >= pl.clip.size:
            self._playing = None
        mixed = x.astype(np.int32)
        mixed[: seg.size] += seg
        return np.clip(mixed, -32768, 32767).astype(np.int16)

    def _emit(self, act: Act) -> None:
        self.stats.acts[act.kind] = self.stats.acts.get(act.kind, 0) + 1
        if self.on_act is not None:
            self.on_act(act)

    def summary(self) -> dict[str, Any]:
        s = self.stats
        return {
            "chunks": s.chunks,
            "acts": dict(s.acts),
            "planned_not_fired": s.planned_not_fired,
            "pause_s": round(s.pause_s, 3),
            "max_delay_s": round(s.max_delay_s, 3),
            "agent_turns_seen": self.agent_turn + 1,
        }
