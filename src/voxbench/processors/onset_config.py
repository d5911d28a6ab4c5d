"""The energy onset detector's thresholds: pure pydantic, so a call config can hold them
without importing numpy (worker processes parse a job's config before anything else)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class OnsetConfig(BaseModel):
    """Thresholds of the energy detector (dBFS; full scale int16 = 0 dB)."""

    model_config = ConfigDict(extra="forbid")

    threshold_db: float = Field(default=-40.0, le=0.0, description="window RMS level that counts as sound")
    window_ms: float = Field(default=10.0, gt=0, le=50)
    hangover_ms: float = Field(default=300.0, ge=0, description="silence that ends a speech segment")
    min_speech_ms: float = Field(default=50.0, ge=0, description="shorter loud blips are ignored")
    lookback_ms: float = Field(
        default=100.0, ge=0, le=500, description="how far an onset may be back-dated over a fade-in"
    )
