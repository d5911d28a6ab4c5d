"""Warm prompts saved between llama.cpp servers (localmodels.prompt_cache).

The fast tests cover naming, pruning and switching it off; the slow one uses the real
runtime and the small bundled model: a second server restores the first one's warm prefix
and llama.cpp reports those tokens as read from its cache."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

from voxbench.localmodels.prompt_cache import PromptCache, default_prompt_cache_dir


def test_names_depend_on_model_and_payload_only(tmp_path: Path) -> None:
    a = PromptCache("http://127.0.0.1:1", tmp_path, "model-a")
    assert a.name_for("policy") == PromptCache("http://127.0.0.1:2", tmp_path / "x", "model-a").name_for(
        "policy"
    )
    assert a.name_for("policy") != a.name_for("policy!")
    assert a.name_for("policy") != PromptCache("http://127.0.0.1:1", tmp_path, "model-b").name_for("policy")


def test_nothing_saved_means_no_restore_and_no_request(tmp_path: Path) -> None:
    # port 1 refuses connections: a request would fail; none is made for a missing file
    assert PromptCache("http://127.0.0.1:1", tmp_path, "m").restore("absent.kv") is False


def test_a_failed_save_leaves_no_file(tmp_path: Path) -> None:
    cache = PromptCache("http://127.0.0.1:1", tmp_path, "m", timeout_s=2)
    cache.save("x.kv")
    assert list(tmp_path.iterdir()) == []


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    cache = PromptCache("http://127.0.0.1:1", tmp_path, "m", max_files=2)
    for i in range(4):
        p = tmp_path / f"{i}.kv"
        p.write_bytes(b"x")
        os.utime(p, (1000 + i, 1000 + i))
    cache._prune()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2.kv", "3.kv"]


def test_switched_off_by_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("VOXBENCH_CACHE_DIR", str(tmp_path))
    assert default_prompt_cache_dir() == tmp_path / "llm-prompts"
    monkeypatch.setenv("VOXBENCH_PROMPT_CACHE", "0")
    assert default_prompt_cache_dir() is None


@pytest.mark.slow
@pytest.mark.ci_slow
def test_a_second_server_restores_the_warm_prefix(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp")
    from voxbench.localmodels import QWEN_05B, LlamaServer

    system = "You are the phone agent of a small shop. " + " ".join(f"Rule {i}: be kind." for i in range(60))
    timings = []
    for _ in range(2):
        with LlamaServer(QWEN_05B, n_ctx=4096, slot_dir=tmp_path) as srv:
            cache = srv.prompt_cache()
            assert cache is not None
            name = cache.name_for(system)
            restored = cache.restore(name)
            timings.append((restored, _usage(srv.base_url, srv.model, system)))
            if not restored:
                cache.save(name)
    (first_restored, first), (second_restored, second) = timings
    assert not first_restored and second_restored
    assert first["cached"] == 0
    # everything but the last few tokens (llama.cpp re-reads the tail) came from the file
    assert second["cached"] >= second["prompt"] - 8 > 300


def _usage(base_url: str, model: str, system: str) -> dict[str, int]:
    body = {
        "model": model,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": "Hello."}],
        "max_tokens": 1,
    }
    req = urllib.request.Request(
        base_url + "/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=300) as resp:
        usage = json.load(resp)["usage"]
    details = usage.get("prompt_tokens_details") or {}
    return {"prompt": int(usage["prompt_tokens"]), "cached": int(details.get("cached_tokens", 0))}
