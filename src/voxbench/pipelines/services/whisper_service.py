"""faster-whisper behind pipecat's ``SegmentedSTTService``: one transcription per VAD segment.

Imports pipecat; :func:`~.stt.make_whisper_stt` imports this module on use.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from pipecat.frames.frames import ErrorFrame, Frame, TranscriptionFrame
from pipecat.services.settings import STTSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.transcriptions.language import Language
from pipecat.utils.time import time_now_iso8601

from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber


class LocalWhisperSTTService(SegmentedSTTService):
    """faster-whisper from installed packages; one ``TranscriptionFrame`` per VAD segment."""

    def __init__(self, *, options: WhisperOptions | None = None, **kwargs: Any) -> None:
        opts = options or WhisperOptions()
        super().__init__(settings=STTSettings(model=opts.model, language=opts.language), **kwargs)
        self._transcriber = WhisperTranscriber(opts)

    @property
    def wants_wav_segments(self) -> bool:
        return False

    @property
    def transcriber(self) -> WhisperTranscriber:
        return self._transcriber

    def can_generate_metrics(self) -> bool:
        return True

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame, None]:
        await self.start_processing_metrics()
        try:
            text = await asyncio.to_thread(self._transcriber.transcribe_pcm16, audio, self.sample_rate)
        except Exception as e:  # pragma: no cover - surfaced as a pipeline error
            yield ErrorFrame(error=f"whisper transcription failed: {e}")
            return
        finally:
            await self.stop_processing_metrics()
        if text:
            lang = Language.EN if self._transcriber.options.language == "en" else None
            yield TranscriptionFrame(text, self._user_id, time_now_iso8601(), lang)
