"""Bounded configs for each perturbation op, named composable conditions, seed derivation.

A :class:`Condition` is data: an optional caller voice (accent) plus a list of audio ops applied
to the caller's outgoing audio. It is stored in every conversation record (``model_dump``), and
with the seed from :func:`derive_seed` the perturbation is reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voxbench.records.seeds import perturbation_seed

from .behavior import (
    BackchannelConfig,
    BargeInPoint,
    CallerBehavior,
    DisfluencyConfig,
    PauseConfig,
    SideSpeechConfig,
    VocalTicConfig,
)


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NoiseOp(_Op):
    """Background noise mixed at a target SNR over the speech-active part."""

    kind: Literal["noise"] = "noise"
    source: Literal["cafe", "babble", "clatter", "pink", "white", "file"] = "cafe"
    snr_db: float = Field(default=10.0, ge=-5.0, le=40.0)
    files: tuple[Path, ...] = ()
    """Noise files (any format soundfile reads) when ``source == "file"``; concatenated, looped."""
    babble: Literal["auto", "piper", "synthetic"] = "auto"
    """How babble is built: Piper talkers (cached), synthetic speech-like talkers, or Piper when
    installed else synthetic. The choice actually made is reported in the summary."""
    level_mode: Literal["adaptive", "fixed"] = "adaptive"
    """adaptive: the noise level follows the speech-active level measured so far (starting
    from ``reference_speech_dbfs``); fixed: the level is set from ``reference_speech_dbfs``.
    The achieved SNR is always measured and reported: with adaptive level on Piper speech it
    came out ~1 dB below target after one 7 s utterance and ~0.35 dB below after 28 s (the
    running level estimate converges). The whole-signal :func:`.ops.mix_noise_at_snr` is exact."""
    reference_speech_dbfs: float = Field(default=-20.0, ge=-60.0, le=0.0)
    headroom_db: float = Field(default=6.0, ge=0.0, le=20.0)
    """The mix (speech and noise alike, so the SNR is kept) is lowered by this much, because
    TTS output is often peak-normalised and adding noise would clip it. Clipping is reported."""
    bed_seconds: float = Field(default=30.0, ge=2.0, le=300.0)

    @model_validator(mode="after")
    def _files_for_file_source(self) -> NoiseOp:
        if self.source == "file" and not self.files:
            raise ValueError("source 'file' needs at least one path in files")
        return self


class TelephonyOp(_Op):
    """Narrowband phone line: band-pass, 8 kHz, G.711 mu-law round trip."""

    kind: Literal["telephony"] = "telephony"
    low_hz: float = Field(default=300.0, ge=50.0, le=1000.0)
    high_hz: float = Field(default=3400.0, ge=2000.0, le=3800.0)
    codec: Literal["mulaw", "none"] = "mulaw"


class PacketLossOp(_Op):
    """Gilbert-Elliott burst loss over fixed frames, optional jitter (late loss)."""

    kind: Literal["packet_loss"] = "packet_loss"
    loss_rate: float = Field(default=0.05, ge=0.0, le=0.5)
    mean_burst: float = Field(default=2.0, ge=1.0, le=20.0)
    """Mean number of consecutive lost frames."""
    frame_ms: float = Field(default=20.0, ge=5.0, le=60.0)
    jitter_ms: float = Field(default=0.0, ge=0.0, le=200.0)
    jitter_buffer_ms: float = Field(default=60.0, ge=0.0, le=500.0)


class GainClipOp(_Op):
    """Level change and hard clipping (a hot microphone)."""

    kind: Literal["gain_clip"] = "gain_clip"
    gain_db: float = Field(default=0.0, ge=-30.0, le=30.0)
    clip_level: float = Field(default=1.0, gt=0.0, le=1.0)


class MuffleOp(_Op):
    """Low-pass (a hand over the mic, a phone in a pocket)."""

    kind: Literal["muffle"] = "muffle"
    cutoff_hz: float = Field(default=1500.0, ge=200.0, le=8000.0)
    order: int = Field(default=6, ge=1, le=10)


Op = Annotated[NoiseOp | TelephonyOp | PacketLossOp | GainClipOp | MuffleOp, Field(discriminator="kind")]

# Where each op sits in the physical signal path: room noise reaches the microphone with the
# voice, the mic may be covered and overdriven, then the phone codec, then the network.
CANONICAL_ORDER: tuple[str, ...] = ("noise", "muffle", "gain_clip", "telephony", "packet_loss")


class Condition(BaseModel):
    """A named perturbation profile: caller voice + audio ops.

    Ops run in :data:`CANONICAL_ORDER` (stable for equal kinds), whatever order they are listed
    or composed in, so ``accent+noise`` and ``noise+accent`` are the same condition.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9_][a-z0-9_+\-.]*$", max_length=80)
    description: str = ""
    voice_id: str | None = None
    """Caller TTS voice (``kokoro:jf_alpha``, ``piper:joe@fr``, ...; docs/voices.md); None keeps
    the simulator's default voice."""
    ops: tuple[Op, ...] = ()
    behavior: CallerBehavior = Field(default_factory=CallerBehavior)
    """What the caller does besides its lines (barge-ins, backchannels, side speech, ...)."""

    def ordered_ops(self) -> tuple[Op, ...]:
        return tuple(sorted(self.ops, key=lambda op: CANONICAL_ORDER.index(op.kind)))

    @property
    def is_clean(self) -> bool:
        return not self.ops and self.voice_id is None and self.behavior.is_default

    def compose(self, *others: Condition, name: str | None = None) -> Condition:
        """Combine conditions: ops are concatenated, the last voice set wins, behaviours merge
        field by field (what a later part sets wins; barge-in points add up)."""
        parts = (self, *others)
        voice = next((c.voice_id for c in reversed(parts) if c.voice_id is not None), None)
        behavior = CallerBehavior()
        for c in parts:
            behavior = behavior.merge(c.behavior)
        return Condition(
            name=name or "+".join(c.name for c in parts if not c.is_clean) or "clean",
            description="; ".join(c.description for c in parts if c.description),
            voice_id=voice,
            ops=tuple(op for c in parts for op in c.ops),
            behavior=behavior,
        )

    def seed(self, scenario_id: str, trial: int) -> int:
        return derive_seed(scenario_id, trial, self.name)


def derive_seed(scenario_id: str, trial: int, condition_name: str) -> int:
    """Stable 63-bit seed from (scenario id, trial, condition name), same on every machine
    (:func:`voxbench.records.seeds.perturbation_seed`, the project's one seed derivation)."""
    return perturbation_seed(scenario_id, trial, condition_name)


_FRENCH = "piper:joe@fr"

_BUILTINS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition(name="clean", description="no perturbation"),
        Condition(name="noise", description="coffee-shop babble + clatter at 10 dB SNR", ops=(NoiseOp(),)),
        Condition(
            name="noise_heavy",
            description="coffee-shop babble + clatter at 3 dB SNR",
            ops=(NoiseOp(snr_db=3.0),),
        ),
        Condition(
            name="pink_noise",
            description="pink noise at 15 dB SNR",
            ops=(NoiseOp(source="pink", snr_db=15.0),),
        ),
        Condition(name="telephony", description="300-3400 Hz, 8 kHz G.711 mu-law", ops=(TelephonyOp(),)),
        Condition(
            name="packet_loss",
            description="5% Gilbert-Elliott loss, mean burst 2 frames of 20 ms",
            ops=(PacketLossOp(),),
        ),
        Condition(
            name="bad_line",
            description="telephony + 10% bursty loss (mean burst 3) + 20 ms jitter past an 80 ms buffer (~2% late)",
            ops=(
                TelephonyOp(),
                PacketLossOp(loss_rate=0.1, mean_burst=3.0, jitter_ms=20.0, jitter_buffer_ms=80.0),
            ),
        ),
        Condition(name="muffled", description="low-pass at 1.2 kHz", ops=(MuffleOp(cutoff_hz=1200.0),)),
        Condition(
            name="clipping",
            description="+18 dB into a clip at 0.5 full scale",
            ops=(GainClipOp(gain_db=18.0, clip_level=0.5),),
        ),
        Condition(name="quiet", description="-20 dB", ops=(GainClipOp(gain_db=-20.0),)),
        Condition(
            name="accent",
            description="French-accented English (Piper joe, French phonemes)",
            voice_id=_FRENCH,
        ),
        Condition(
            name="accent_mild",
            description="Scottish English (Piper joe)",
            voice_id="piper:joe@en-gb-scotland",
        ),
        # caller behaviour
        Condition(
            name="barge_in",
            description="the caller cuts in 1 s into the agent's 2nd and 4th turns",
            behavior=CallerBehavior(
                barge_in=(BargeInPoint(turn=2, after_ms=1000.0), BargeInPoint(turn=4, after_ms=1000.0))
            ),
        ),
        Condition(
            name="backchannel",
            description="'mm-hmm', 'okay' while the agent speaks (60% of agent turns)",
            behavior=CallerBehavior(backchannel=BackchannelConfig(probability=0.6)),
        ),
        Condition(
            name="side_speech",
            description="the caller talks to someone in the room while the agent speaks (40% of turns)",
            behavior=CallerBehavior(side_speech=SideSpeechConfig(probability=0.4)),
        ),
        Condition(
            name="interaction_panel",
            description="every event of τ-voice's panel: barge-ins on odd agent turns, backchannels, "
            "side speech and vocal tics in the agent's speech, side speech and tics in its silences",
            behavior=CallerBehavior(
                barge_in=tuple(BargeInPoint(turn=k, after_ms=1200.0) for k in (1, 3, 5, 7, 9, 11)),
                backchannel=BackchannelConfig(probability=0.7),
                side_speech=SideSpeechConfig(probability=0.35, silence_probability=0.3),
                vocal_tic=VocalTicConfig(probability=0.35, silence_probability=0.3),
            ),
        ),
        Condition(
            name="disfluent",
            description="fillers and restarts in half the lines, mid-line pauses in a third",
            behavior=CallerBehavior(
                disfluency=DisfluencyConfig(probability=0.5), pauses=PauseConfig(probability=0.33)
            ),
        ),
        Condition(
            name="impatient",
            description="impatient caller: short gaps, short fuse, cuts in on the agent's 3rd turn",
            behavior=CallerBehavior(
                persona="impatient",
                barge_in=(BargeInPoint(turn=3, after_ms=1500.0, text="Yes, yes, I know."),),
            ),
        ),
        Condition(
            name="forgetful",
            description="forgetful caller: stalls before the first code or number",
            behavior=CallerBehavior(persona="forgetful"),
        ),
    )
}
_BUILTINS["accent+noise"] = _BUILTINS["accent"].compose(_BUILTINS["noise"])
_BUILTINS["telephony+noise"] = _BUILTINS["noise"].compose(_BUILTINS["telephony"], name="telephony+noise")
_BUILTINS["accent+telephony"] = _BUILTINS["accent"].compose(_BUILTINS["telephony"])

BUILTIN_CONDITIONS: Mapping[str, Condition] = MappingProxyType(_BUILTINS)


def resolve_condition(name: str, extra: Mapping[str, Condition] | None = None) -> Condition:
    """Look up ``name`` in ``extra`` (user conditions, which win) then the built-ins.

    Unknown names joined by ``+`` are composed from their parts, e.g. ``muffled+packet_loss``.
    """
    table: dict[str, Condition] = {**BUILTIN_CONDITIONS, **(extra or {})}
    if name in table:
        return table[name]
    if "+" in name:
        parts = [resolve_condition(p, extra) for p in name.split("+")]
        return parts[0].compose(*parts[1:], name=name)
    raise KeyError(f"unknown condition {name!r}; known: {', '.join(sorted(table))}")


def condition_from_spec(name: str, spec: Mapping[str, object] | Condition | None) -> Condition:
    """A run config's ``conditions: {name: spec}`` entry as a Condition.

    An empty spec is the built-in (or ``+``-composed) condition of that name; a spec with
    ``base`` starts from that condition and overrides fields; anything else is a full
    Condition definition (``ops``, ``voice_id``, ``behavior``). A Condition passes as is.
    """
    if isinstance(spec, Condition):
        return spec
    data = dict(spec or {})
    if not data:
        return resolve_condition(name)
    base = data.pop("base", None)
    if base is not None:
        merged = resolve_condition(str(base)).model_dump(mode="json")
        merged.update(data)
        merged["name"] = name
        return Condition.model_validate(merged)
    return Condition.model_validate({"name": name, **data})
