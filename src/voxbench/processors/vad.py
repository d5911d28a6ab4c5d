"""VAD analyzers besides pipecat's Silero: webrtcvad (optional) and a plain energy gate.

Both drop into anything that takes a pipecat `VADAnalyzer` (`VADProcessor`,
`LLMUserAggregatorParams(vad_analyzer=...)`). The energy gate is for synthetic test
audio (tones, noise bursts) that a speech model rightly refuses to call speech.
"""

from __future__ import annotations

import numpy as np
from pipecat.audio.vad.vad_analyzer import VADAnalyzer, VADParams


class EnergyVADAnalyzer(VADAnalyzer):
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


class WebRTCVADAnalyzer(VADAnalyzer):
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
