"""A perturbation condition applied to one live call: the caller's voice, behaviour and audio.

The runner builds a :class:`CallerSide` from a :class:`CallPerturbation` (condition + seed)
and wires it in three places:

* the simulator's **continuous output mixer** gets :meth:`CallerSide.transform`: every chunk
  the caller sends, speech and silence, passes the behaviour engine (acts, pauses) and then
  the condition's ``PerturbationProcessor`` chain in playback order, so the noise bed plays
  between turns too (:mod:`voxbench.processors.perturbations.live`);
* the **recorder** stamps caller speech from the clean reference (before noise), keeps it as
  ``user_clean.wav``, and receives ``CallerAct`` events; it feeds agent speech back so acts
  can be timed against the agent's turns;
* the **trace caller's lines** (disfluencies, a forgetful stall) and the **LLM caller's
  prompt** (impatient / forgetful persona).

The condition's accent ``voice_id`` selects the simulator's TTS voice where the services are
built (:func:`tts_config_for_voice`, used by ``local_simulator``); the record says which voice
the simulator actually used.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.config import CallConfig
from voxbench.processors.perturbations import (
    Condition,
    PerturbationProcessor,
    behave_lines,
    persona_instruction,
    resolve_condition,
)
from voxbench.processors.perturbations.live import Act, CallerAudio
from voxbench.processors.perturbations.streaming import BabbleProvider
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import CallerAct, Event, Speech
from voxbench.transports.pacing import AudioTransform

Int16 = npt.NDArray[np.int16]
ClipSynth = Callable[[str, int], Int16]
"""(text, sample_rate) -> int16 mono: how injected caller acts are voiced."""


@dataclass(frozen=True)
class CallPerturbation:
    """What the orchestrator (or a CLI) hands the runner: a condition and its seed.

    ``clip_synth`` voices injected acts (default: the simulator's Piper voice when it has one,
    else a synthetic speech-like signal); ``babble_provider`` overrides how babble is built.
    """

    condition: Condition
    seed: int
    clip_synth: ClipSynth | None = None
    babble_provider: BabbleProvider | None = None

    @classmethod
    def named(cls, name: str, seed: int, **kw: Any) -> CallPerturbation:
        return cls(resolve_condition(name), seed, **kw)


def tts_config_for_voice(voice_id: str | None, base: Any = None) -> Any:
    """The simulator's TTSConfig for a condition's voice id; ``None`` returns ``base`` unchanged.

    * ``kokoro:<voice>`` (``kokoro:jf_alpha``) is that Kokoro voice, ``kokoro:<voice>:slow``
      20% slower;
    * ``piper:joe@<espeak voice>`` (``piper:joe@fr``, ``...:slow``) is Piper joe phonemised with
      that espeak-ng voice. It keeps the base voice's pitch when the base is a Piper voice, and
      starts from the pitch-shifted ``user-piper`` caller otherwise, so an accent never turns
      the caller into the agent's plain joe.

    espeak-ng binary voices have no pipecat service yet and raise, as do unknown ids (the
    message names the bad id).
    """
    from voxbench.pipelines.services import TTSConfig

    base = base or TTSConfig(voice="user")
    if voice_id is None:
        return base
    if voice_id.startswith("kokoro:"):
        name, _, variant = voice_id.removeprefix("kokoro:").partition(":")
        if variant not in ("", "slow"):
            raise ValueError(f"unknown voice variant {variant!r} in {voice_id!r} (only ':slow')")
        from voxbench.pipelines.services.kokoro import parse_kokoro_voice

        parse_kokoro_voice(f"kokoro:{name}")  # a one-line error naming an unknown voice
        cfg = TTSConfig(voice=f"kokoro:{name}", sample_rate=base.sample_rate, n_threads=base.n_threads)
        return cfg.model_copy(update={"speaking_rate": round(1 / 1.2, 4)}) if variant else cfg
    if not voice_id.startswith("piper:joe"):
        raise ValueError(
            f"caller voice {voice_id!r} is not available in live calls "
            "(use 'kokoro:<voice>' or 'piper:joe@<espeak voice>')"
        )
    if base.kind != "piper-local":
        base = TTSConfig(voice="user-piper", sample_rate=base.sample_rate, n_threads=base.n_threads)
    if voice_id in ("piper:joe", "piper:joe@en-us"):
        return base
    if not voice_id.startswith("piper:joe@"):
        raise ValueError(f"unknown caller voice {voice_id!r} (expected 'piper:joe@<espeak voice>')")
    rest = voice_id.removeprefix("piper:joe@")
    espeak, _, variant = rest.partition(":")
    rate = base.speaking_rate or base.voice_params().speaking_rate
    if variant == "slow":
        rate = rate / 1.2
    elif variant:
        raise ValueError(f"unknown accent voice variant {variant!r} in {voice_id!r}")
    return base.model_copy(update={"espeak_voice": espeak, "speaking_rate": round(rate, 4)})


def _synthetic_clip(text: str, sr: int) -> Int16:
    from voxbench.processors.perturbations import speech_like

    rng = np.random.default_rng(zlib.crc32(text.encode()))
    dur = min(2.5, 0.25 + 0.06 * len(text))
    x = np.asarray(speech_like(sr, dur, rng, f0_hz=120.0, pause_fraction=0.0), dtype=np.float64)
    y = x / (float(np.max(np.abs(x))) or 1.0) * 0.3
    return np.asarray(np.round(y * 32767), dtype=np.int16)


def default_clip_synth(services: SimulatorServices) -> ClipSynth:
    """The simulator's own voice (Piper or Kokoro synthesiser) when its TTS has one, else synthetic speech."""
    synth = getattr(services.tts, "_synth", None)
    if synth is not None and hasattr(synth, "synthesize"):

        def own_voice(text: str, sr: int) -> Int16:
            return np.frombuffer(synth.synthesize(text, sr), dtype="<i2").astype(np.int16)

        return own_voice
    return _synthetic_clip


class CallerSide:
    """One call's perturbation state: behaviour engine, perturbation chain, records."""

    def __init__(
        self,
        pert: CallPerturbation,
        recorder: ConversationRecorder,
        now: Callable[[], float],
        sample_rate: int,
        services: SimulatorServices,
    ) -> None:
        self.pert = pert
        self.condition = pert.condition
        self.rec = recorder
        self.sr = sample_rate
        self.services = services
        self.processor = PerturbationProcessor(
            self.condition, pert.seed, babble_provider=pert.babble_provider
        )
        self.processor.prepare(sample_rate)  # babble beds are built here, not mid-call
        beh = self.condition.behavior
        synth = pert.clip_synth or default_clip_synth(services)
        clips = {t: synth(t, sample_rate) for t in beh.clip_texts()}
        self.audio = CallerAudio(
            beh,
            sample_rate,
            pert.seed,
            clips=clips,
            perturber=self.processor,
            now=now,
            on_act=self._on_act,
            on_clean=self._on_clean,
        )
        self.lines_changed = 0
        recorder.use_reference("user")
        recorder.listeners.append(self._on_event)

    # -- wiring -------------------------------------------------------------------------------
    def _on_event(self, ev: Event) -> None:
        if isinstance(ev, Speech) and ev.channel == "agent":
            self.audio.on_agent_speech(ev.state, ev.t)

    def _on_act(self, act: Act) -> None:
        self.rec.emit(
            CallerAct(
                t=act.t,
                side="user",
                kind=act.kind,
                text=act.text,
                duration_s=round(act.duration_s, 3),
                agent_turn=act.agent_turn,
                agent_speaking=act.agent_speaking,
            )
        )

    def _on_clean(self, pcm: Int16, t: float) -> None:
        self.rec.add_reference("user", pcm, t)

    def transform(self, inner: AudioTransform | None = None) -> AudioTransform:
        """The mixer transform: ``inner`` (a harness's own hook) first, then the caller side."""
        if inner is None:
            return self.audio

        def both(pcm: np.ndarray) -> np.ndarray:
            return self.audio(np.asarray(inner(pcm), dtype=np.int16))

        return both

    def adjust_config(self, cfg: CallConfig) -> CallConfig:
        """An impatient trace caller waits less for the agent (shorter gap and patience)."""
        if self.condition.behavior.persona != "impatient":
            return cfg
        tr = cfg.simulator.trace
        trace = tr.model_copy(
            update={"turn_gap_s": min(tr.turn_gap_s, 0.7), "reply_timeout_s": min(tr.reply_timeout_s, 8.0)}
        )
        return cfg.model_copy(
            update={"simulator": cfg.simulator.model_copy(update={"trace": trace})}, deep=True
        )

    def lines(self, lines: list[str]) -> list[str]:
        """The trace caller's lines under the condition's behaviour (seeded)."""
        out = behave_lines(lines, self.condition.behavior, random.Random(self.pert.seed))
        self.lines_changed = (
            sum(1 for a, b in zip(lines, out, strict=False) if a != b) + len(out) - len(lines)
        )
        return out

    def persona_text(self) -> str:
        """The condition's persona instruction for the LLM caller's system prompt ("" for none)."""
        return persona_instruction(self.condition.behavior) or ""

    def record(self) -> dict[str, Any]:
        """``ConversationRecord.perturbation``: condition dump, seed, achieved values."""
        summary = self.processor.summary()
        stages = [st for ch in summary["chains"] for st in ch["stages"]]
        noise = [st for st in stages if st["kind"] == "noise"]
        loss = [st for st in stages if st["kind"] == "packet_loss"]
        return {
            "condition": self.condition.model_dump(mode="json"),
            "seed": self.pert.seed,
            "voice_id": self.condition.voice_id,
            "tts_voice": self.services.info.tts.model if self.services.info.tts else None,
            "achieved_snr_db": noise[-1]["achieved_snr_db"] if noise else None,
            "achieved_loss_rate": loss[-1]["achieved_loss_rate"] if loss else None,
            "applied_at": "mixer",
            "summary": summary,
            "behavior": {**self.audio.summary(), "lines_changed": self.lines_changed},
        }
