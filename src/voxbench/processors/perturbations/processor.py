"""Thin pipecat wrapper: perturb the user simulator's outgoing audio frames.

All DSP lives in :mod:`.ops`, :mod:`.telephony`, :mod:`.packet_loss` and :mod:`.streaming`;
this class only finds the audio frames, swaps their bytes for perturbed ones (a new ``bytes``
object, so anything that already holds the clean bytes keeps them) and keeps the summary for
the conversation record.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from pipecat.frames.frames import Frame, OutputAudioRawFrame
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from .config import Condition
from .streaming import BabbleProvider, StreamingChain


class PerturbationProcessor(FrameProcessor):
    """Applies a :class:`Condition`'s audio ops to downstream ``OutputAudioRawFrame`` s
    (``TTSAudioRawFrame`` included), statefully across frames.

    Place it after the simulator's TTS, before its output transport. Everything else passes
    through untouched. With a continuous output (a mixer that sends silence between turns), use
    :meth:`process_audio` from the mixer instead and leave the processor out of the pipeline:
    then the noise bed continues between turns and every chunk passes the chain in playback
    order (the live runner does this). A chain is built per sample rate on first use (a rate change restarts
    the chain and is counted in the summary). Multi-channel frames pass through unperturbed and
    are counted, since the simulator speaks mono.
    """

    METADATA_KEY = "voxbench_perturbation"

    def __init__(
        self,
        condition: Condition,
        seed: int,
        *,
        babble_provider: BabbleProvider | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._condition = condition
        self._seed = seed
        self._babble_provider = babble_provider
        self._ops = condition.ordered_ops()
        self._chain: StreamingChain | None = None
        self._frames = 0
        self._skipped_multichannel = 0
        self._rate_changes = 0
        self._finished_chains: list[dict[str, Any]] = []

    @property
    def condition(self) -> Condition:
        return self._condition

    def _chain_for(self, sample_rate: int) -> StreamingChain:
        if self._chain is None or self._chain.sample_rate != sample_rate:
            if self._chain is not None:
                self._rate_changes += 1
                self._finished_chains.append(self._chain.summary())
            self._chain = StreamingChain(
                self._ops, sample_rate, self._seed, babble_provider=self._babble_provider
            )
        return self._chain

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if (
            self._ops
            and direction == FrameDirection.DOWNSTREAM
            and isinstance(frame, OutputAudioRawFrame)
            and frame.audio
        ):
            if frame.num_channels != 1:
                self._skipped_multichannel += 1
            else:
                frame.audio = self._chain_for(frame.sample_rate).process_pcm16(frame.audio)
                frame.metadata[self.METADATA_KEY] = self._condition.name
                self._frames += 1
        await self.push_frame(frame, direction)

    def prepare(self, sample_rate: int) -> None:
        """Build the chain now (a Piper babble bed may take seconds): call it before the
        conversation clock starts, not from the real-time audio path."""
        if self._ops:
            self._chain_for(sample_rate)

    def process_audio(self, pcm: npt.NDArray[np.int16], sample_rate: int) -> npt.NDArray[np.int16]:
        """Perturb one mono int16 chunk (the mixer-level entry point; same chain and summary)."""
        if not self._ops or pcm.size == 0:
            return pcm
        out = self._chain_for(sample_rate).process_pcm16(np.asarray(pcm, dtype="<i2").tobytes())
        self._frames += 1
        return np.frombuffer(out, dtype="<i2").astype(np.int16)

    def summary(self) -> dict[str, Any]:
        """What went into the conversation record: condition, seed, achieved values per op."""
        chains = [*self._finished_chains]
        if self._chain is not None:
            chains.append(self._chain.summary())
        return {
            "condition": self._condition.model_dump(mode="json"),
            "seed": self._seed,
            "voice_id": self._condition.voice_id,
            "frames_perturbed": self._frames,
            "frames_skipped_multichannel": self._skipped_multichannel,
            "sample_rate_changes": self._rate_changes,
            "chains": chains,
        }
