"""Fast tests: voice names pick the engine, unknown names fail naming the voice, Kokoro assets are pinned."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pydantic import ValidationError

from voxbench.localmodels.assets import ModelAssetError
from voxbench.localmodels.kokoro import (
    KOKORO_INT8,
    KOKORO_VOICES,
    kokoro_installed,
    kokoro_model_path,
    spell_with_pauses,
)
from voxbench.pipelines.services import TTSConfig
from voxbench.pipelines.services.kokoro import KokoroVoiceParams, parse_kokoro_voice
from voxbench.pipelines.services.tts import PiperVoiceParams, engine_of, known_voice_names, resolve_voice
from voxbench.records.voice import split_sentences


@pytest.mark.parametrize("name", [f"kokoro:{v}" for v in KOKORO_VOICES])
def test_every_kokoro_voice_resolves_by_name(name: str) -> None:
    params = resolve_voice(name)
    assert isinstance(params, KokoroVoiceParams)
    assert params.voice_id == name
    cfg = TTSConfig(voice=name)
    assert (cfg.kind, cfg.voice_id) == ("kokoro-local", name)
    assert name in known_voice_names()


def test_piper_names_stay_piper_and_user_piper_is_the_pitch_shifted_joe() -> None:
    for name in ("agent", "joe", "user-piper", "user-high", "piper:en_US-joe-medium", "en_US-joe-medium"):
        assert engine_of(name) == "piper", name
        assert TTSConfig(voice=name).kind == "piper-local"
    user_piper = resolve_voice("user-piper")
    assert isinstance(user_piper, PiperVoiceParams) and user_piper.pitch_semitones == -3.0
    assert TTSConfig(voice="user-piper").voice_id == "piper:en_US-joe-medium@st-3,rate0.95,nw0.9"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("kokoro:jm_bogus", "unknown Kokoro voice 'jm_bogus'"),
        ("kokoro:", "unknown Kokoro voice ''"),
        ("nobody", "unknown TTS voice 'nobody'"),
        ("piper:en_US-amy-medium", "unknown Piper voice 'piper:en_US-amy-medium'"),
    ],
)
def test_unknown_voice_names_fail_naming_the_voice(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_voice(name)
    with pytest.raises(ValidationError, match=message):
        TTSConfig(voice=name)


def test_unknown_voice_error_lists_the_kokoro_voices() -> None:
    with pytest.raises(ValueError) as e:
        resolve_voice("robot")
    assert all(f"kokoro:{v}" in str(e.value) for v in KOKORO_VOICES)


def test_kokoro_settings_and_piper_only_settings() -> None:
    cfg = TTSConfig(voice="kokoro:jf_alpha", speaking_rate=1.1, espeak_voice="en-gb")
    assert cfg.voice_id == "kokoro:jf_alpha@rate1.1,lang=en-gb"
    for field, value in (("pitch_semitones", 2.0), ("noise_scale", 0.5), ("noise_w_scale", 0.5)):
        with pytest.raises(ValidationError, match=f"{field} only apply to Piper voices"):
            TTSConfig(voice="kokoro:jm_kumo", **{field: value})
    with pytest.raises(ValidationError, match="must be one of"):
        TTSConfig(voice="kokoro:jm_kumo", espeak_voice="fr")
    with pytest.raises(ValidationError, match="is a kokoro voice, but kind is 'piper-local'"):
        TTSConfig(kind="piper-local", voice="kokoro:jm_kumo")
    with pytest.raises(ValidationError, match="is a piper voice"):
        TTSConfig(kind="kokoro-local", voice="agent")
    with pytest.raises(ValueError, match="not a Kokoro voice name"):
        parse_kokoro_voice("jm_kumo")


def test_split_sentences_keeps_codes_together() -> None:
    text = "Hi, it's Dana. My code is Q X 7 T 4 M!  Can you check it?"
    assert split_sentences(text) == ["Hi, it's Dana.", "My code is Q X 7 T 4 M!", "Can you check it?"]
    assert split_sentences("  ") == []


def test_spelled_codes_get_pauses_between_characters() -> None:
    assert spell_with_pauses("It's Q X 7 T 4 M, and") == "It's Q, X, 7, T, 4, M, and"
    assert spell_with_pauses("call 5 5 5, 8 6 7 now") == "call 5, 5, 5, 8, 6, 7 now"
    for text in ("Flight UA 123 on March 5th.", "I am here.", "A B and C", "Seat 12 A."):
        assert spell_with_pauses(text) == text


def test_caller_voice_ids_resolve_for_conditions() -> None:
    pytest.importorskip("pipecat")
    from voxbench.pipelines.caller.side import tts_config_for_voice

    kumo = TTSConfig(voice="kokoro:jm_kumo")
    assert tts_config_for_voice(None, kumo) is kumo
    assert tts_config_for_voice("kokoro:jf_alpha", kumo).voice_id == "kokoro:jf_alpha"
    assert tts_config_for_voice("kokoro:jf_alpha:slow").voice_id == "kokoro:jf_alpha@rate0.8333"
    # a Piper accent on a Kokoro caller starts from the pitch-shifted joe, never the agent's plain joe
    fr = tts_config_for_voice("piper:joe@fr", kumo)
    assert fr.voice_id == "piper:en_US-joe-medium@st-3,rate0.95,espeak=fr,nw0.9"
    assert tts_config_for_voice("piper:joe", kumo).voice_id == TTSConfig(voice="user-piper").voice_id
    with pytest.raises(ValueError, match="unknown Kokoro voice 'nobody'"):
        tts_config_for_voice("kokoro:nobody")
    with pytest.raises(ValueError, match="'espeak-ng:fr' is not available in live calls"):
        tts_config_for_voice("espeak-ng:fr")
    with pytest.raises(ValueError, match="variant 'fast'"):
        tts_config_for_voice("kokoro:jm_kumo:fast")


def test_kokoro_voices_listed_as_accent_voices_when_installed() -> None:
    from voxbench.processors.perturbations import voices

    if not voices.kokoro_available():
        pytest.skip("kokoro packages not installed")
    ids = {v.voice_id: v for v in voices.list_accent_voices(include_espeak=False)}
    assert ids["kokoro:jf_alpha"].engine == "kokoro" and "kokoro:jm_kumo:slow" in ids


def test_kokoro_assembly_rejects_a_wrong_checksum(tmp_path: Path) -> None:
    if not kokoro_installed():
        pytest.skip("kokoro packages not installed")
    from dataclasses import replace

    bad = replace(KOKORO_INT8, sha256="0" * 64)
    with pytest.raises(ModelAssetError, match="SHA-256"):
        kokoro_model_path(tmp_path, spec=bad)
    assert list(tmp_path.iterdir()) == []  # nothing half-written left behind
    good = kokoro_model_path(tmp_path)
    assert good.stat().st_size == KOKORO_INT8.size
    assert hashlib.sha256(good.read_bytes()).hexdigest() == KOKORO_INT8.sha256
