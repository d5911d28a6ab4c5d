"""Pipecat processors and observers: timing taps, VAD analyzers, the recorder.

Pure numpy parts (`speech_onset`, `audio_track`, `turn_taking`) are importable without
pipecat; the rest subclass pipecat's base classes.
"""
