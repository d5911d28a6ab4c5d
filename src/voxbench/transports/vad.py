"""VAD analyzers besides pipecat's Silero: webrtcvad (optional) and a plain energy gate.

Both drop into anything that takes a pipecat `VADAnalyzer` (`VADProcessor`,
`LLMUserAggregatorParams(vad_analyzer=...)`). The energy gate is for synthetic test
audio (tones, noise bursts) that a speech model rightly refuses to call speech.
"""

from __future__ import annotations

import numpy as np
from pipecat.audio.vad.silero import SileroVADAnalyzer
from pipecat.audio.vad.vad_analyzer import VADAnalyzer, VADParams, VADState

from voxbench.transports.config import VADConfig


class InlineVADAnalyzer(VADAnalyzer):
    """A VAD whose per-window work is microseconds: analysed in the event loop's own thread.

    pipecat hands every chunk (40 ms, per side) to a one-thread executor so that a model's
    inference does not block the loop. For a gate this cheap the hand-off is the cost: the
    loop thread then waits for the GIL back from the worker thread (up to the 5 ms switch
    interval, much more on a loaded machine), the same loop that paces the outgoing audio.
    Profiled on a toy re-enactment at load ~20 on 2 cores: 7.9 s of a 34 s call waiting in
    the executor's queue put, for 840 chunks.
    """

    async def analyze_audio(self, buffer: bytes) -> VADState:
        return self._run_analyzer(buffer)


class EnergyVADAnalyzer(InlineVADAnalyzer):
    """Confidence 1.0 for 20 ms windows above `threshold_db` dBFS, else 0.0."""

    def __init__(
        self, *, threshold_db: float = -40.0, sample_rate: int | None = None, params: VADParams | None = None
    ):
        super().__init__(sample_rate=sample_rate, params=params)
        self._thr = 32768.0 * 10 ** (threshold_db / 20)

    def num_frames_required(self) -> int:
        return int(self.sample_rate * 0.02) if self.sample_rate else 320

    def voice_confidence(self, buffer: bytes) -> float:
        x = np.frombuffer(buffer, dtype=np.int16).astype(np.float64)
        if x.size == 0:
            return 0.0
        return 1.0 if float(np.sqrt(np.mean(x * x))) >= self._thr else 0.0


class WebRTCVADAnalyzer(InlineVADAnalyzer):
    """Google's WebRTC VAD (`webrtcvad-wheels`); less selective than Silero (merges pauses)."""

    def __init__(
        self, *, aggressiveness: int = 2, sample_rate: int | None = None, params: VADParams | None = None
    ):
        super().__init__(sample_rate=sample_rate, params=params)
        import webrtcvad  # optional dependency, imported when chosen

        self._vad = webrtcvad.Vad(aggressiveness)

    def num_frames_required(self) -> int:
        return int(self.sample_rate * 0.02) if self.sample_rate else 320

    def voice_confidence(self, buffer: bytes) -> float:
        try:
            return 1.0 if self._vad.is_speech(buffer, self.sample_rate) else 0.0
        except Exception:  # a short/odd buffer at stream edges
            return 0.0


def make_vad(cfg: VADConfig, sample_rate: int) -> VADAnalyzer:
    params = VADParams(
        confidence=cfg.confidence,
        start_secs=cfg.start_secs,
        stop_secs=cfg.stop_secs,
        min_volume=cfg.min_volume,
    )
    if cfg.engine == "webrtc":
        return WebRTCVADAnalyzer(sample_rate=sample_rate, params=params)
    if cfg.engine == "energy":
        return EnergyVADAnalyzer(sample_rate=sample_rate, params=params)
    return SileroVADAnalyzer(sample_rate=sample_rate, params=params)
