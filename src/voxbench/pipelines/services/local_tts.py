"""In-process TTS services for pipecat: Piper and Kokoro on one run loop.

Both engines synthesise in a worker thread one chunk (a sentence, or several) at a time
and push each as a ``TTSAudioRawFrame`` at the pipeline rate; only the synth differs
(:class:`~.tts.PiperSynth`, :class:`~.kokoro.KokoroSynth`, each with
``iter_sentences(text, out_rate, on_pause, on_open)``). A silence the pacing held past its
natural length goes out as a ``HarnessPauseFrame`` right before the chunk that ends it; a line
withdrawn or cut off (an ``InterruptionFrame``) while held sends the part of the silence that
played, at once (:meth:`LocalTTSService.process_frame`). Imports pipecat; the factories (:func:`~.tts.make_piper_tts`, :func:`~.kokoro.make_kokoro_tts`) import
this module on use.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Iterator
from typing import Any, Protocol

from pipecat.frames.frames import ErrorFrame, Frame, InterruptionFrame, TTSAudioRawFrame
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.settings import TTSSettings
from pipecat.services.tts_service import TTSService

from voxbench.pipelines.services.kokoro import KEEPALIVE_S, KokoroSynth, KokoroVoiceParams, parse_kokoro_voice
from voxbench.pipelines.services.playout import HeldPause, OpenPause
from voxbench.pipelines.services.tts import PiperSynth, PiperVoiceParams, resolve_piper_voice
from voxbench.processors.harness_pause import HarnessPauseFrame
from voxbench.spoken.money import said_amounts


class Synth(Protocol):
    """What the run loop needs of an engine: its voice and its audio, chunk by chunk."""

    @property
    def params(self) -> Any: ...

    def iter_sentences(
        self,
        text: str,
        out_rate: int,
        on_pause: Callable[[HeldPause], None] | None = None,
        on_open: Callable[[OpenPause], None] | None = None,
    ) -> Iterator[bytes]: ...


class LocalTTSService(TTSService):
    """A local engine behind pipecat's ``TTSService``; one audio frame per synthesised chunk."""

    engine = "local"

    def __init__(self, synth: Synth, **kwargs: Any) -> None:
        params = synth.params
        super().__init__(
            push_start_frame=True,
            push_stop_frames=True,
            settings=TTSSettings(model=params.model, voice=params.voice_id, language="en"),
            **kwargs,
        )
        self._synth = synth
        self._open: tuple[OpenPause, str] | None = None  # the line being released, and its text

    @property
    def voice_params(self) -> Any:
        return self._synth.params

    @property
    def voice_id(self) -> str:
        return str(self._synth.params.voice_id)

    def can_generate_metrics(self) -> bool:
        return True

    async def _synthesize_next(self, next_pcm: Callable[[], bytes | None], context_id: str) -> bytes | None:
        """Run one chunk in a worker thread, keeping pipecat's audio context alive.

        Pipecat ends an audio context that gets no item for ``stop_frame_timeout_s`` (3 s)
        and reports it as "completed with no audio"; enough of those in a row mark the
        service unusable. A long sentence on a loaded 2-core machine takes longer than that
        (Kokoro's RTF above 1 measured under load), so the context is refreshed while the
        sentence is being made.
        """
        job = asyncio.ensure_future(asyncio.to_thread(next_pcm))
        every = min(KEEPALIVE_S, self._stop_frame_timeout_s / 3)
        try:
            while True:
                done, _ = await asyncio.wait({job}, timeout=every)
                if done:
                    return job.result()
                self._refresh_audio_context(context_id)
        finally:
            # cancelled (the call ended, the caller was interrupted): the thread finishes its
            # chunk unheard, but no task is left waiting for it
            if not job.done():
                job.cancel()

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        if isinstance(frame, InterruptionFrame):
            await self._push_cut_pause()  # before the base class cancels the line's synthesis
        await super().process_frame(frame, direction)

    async def _push_cut_pause(self) -> None:
        """The line is withdrawn or cut off: if it was in a held silence, that silence ends
        here, unresumed; the part that played goes to the recorder now (no chunk will end it)."""
        opened, self._open = self._open, None
        held = opened[0]() if opened is not None else None
        if held is not None and opened is not None:
            await self.push_frame(
                HarnessPauseFrame(duration_s=held.length_s, sentence=held.sentence, line=opened[1])
            )

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame, None]:
        await self.start_tts_usage_metrics(text)
        out_rate = self.sample_rate
        held: list[HeldPause] = []  # appended by the worker thread, read here between chunks

        def opened(so_far: OpenPause) -> None:  # from the worker thread, when the line is decided
            self._open = (so_far, text)

        it = self._synth.iter_sentences(said_amounts(text), out_rate, on_pause=held.append, on_open=opened)

        def next_pcm() -> bytes | None:
            return next(it, None)

        try:
            while True:
                pcm = await self._synthesize_next(next_pcm, context_id)
                if pcm is None:
                    break
                await self.stop_ttfb_metrics()
                for p in held:  # the silence this chunk ends, stamped by the recorder as it is pushed
                    yield HarnessPauseFrame(duration_s=p.length_s, sentence=p.sentence, line=text)
                held.clear()
                yield TTSAudioRawFrame(pcm, out_rate, 1, context_id=context_id)
        except Exception as e:  # pragma: no cover - surfaced as a pipeline error
            yield ErrorFrame(error=f"{self.engine} synthesis failed: {e}")
        finally:
            if self._open is not None and self._open[1] is text:
                self._open = None  # released whole (or failed): no silence of it is open
            await self.stop_ttfb_metrics()


class LocalPiperTTSService(LocalTTSService):
    """In-process Piper TTS for pipecat; emits one audio frame per sentence at the pipeline rate."""

    engine = "Piper"

    def __init__(
        self, *, voice: str | PiperVoiceParams = "agent", n_threads: int | None = None, **kwargs: Any
    ):
        super().__init__(PiperSynth(resolve_piper_voice(voice), n_threads=n_threads), **kwargs)


class LocalKokoroTTSService(LocalTTSService):
    """In-process Kokoro TTS for pipecat; audio frames at the pipeline rate, one per released chunk."""

    engine = "Kokoro"

    def __init__(
        self,
        *,
        voice: str | KokoroVoiceParams = "kokoro:jm_kumo",
        n_threads: int | None = None,
        **kwargs: Any,
    ):
        params = voice if isinstance(voice, KokoroVoiceParams) else parse_kokoro_voice(voice)
        super().__init__(KokoroSynth(params, n_threads=n_threads), **kwargs)
