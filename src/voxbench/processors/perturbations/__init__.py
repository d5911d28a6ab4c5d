"""Caller-side audio perturbations: pure numpy ops, bounded configs, conditions, streaming.

The DSP (:mod:`.ops`, :mod:`.noise`) is independent of pipecat and of TTS; :mod:`.processor`
is the thin pipecat wrapper and is imported lazily so the DSP stays importable without pipecat.
"""
