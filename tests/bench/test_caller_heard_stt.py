"""The heard-text bench (benchmarks/caller_heard_stt.py): the caller replies to what its
recogniser heard, from the state the written turns left it in; the counts and the cache."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from ..pipelines.caller_goal.conftest import make_scenario
from .bench_scripts import load

INFO = {"employee_id": "EMP055555", "new_role_code": "MGENG"}
ASK = "Can you please provide your employee ID and the new role code you want to apply?"
TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need a new role applied to my account."),
    ("agent", ASK),
    ("user", "It's EMP055555, and the code is MGENG."),
    ("agent", "Thanks. Anything else?"),
]


def _script() -> ModuleType:
    return load("caller_heard_stt")


def _cache(tmp_path: Path, heard: dict[str, str], half: str = "dev", run: str = "dev") -> object:
    m = _script()
    path = tmp_path / "heard.json"
    data = {"voice": m.VOICE, "model": m.MODEL, "half": half, "heard": heard}
    path.write_text(json.dumps(data), encoding="utf-8")
    return m.HeardCache(path, run, cached_only=True)


def test_a_turn_heard_in_the_same_words_is_answered_as_the_written_one(tmp_path: Path) -> None:
    m = _script()
    heard = {
        "Hi, how can I help you today?": "Hi, how can I help you today?",
        ASK: "Can you please provide your employee ID and the new role code you want to apply",
    }
    sc = make_scenario(INFO, goal="You want a new role code applied to your account.", trace=TRACE)
    rows: list[dict[str, object]] = []
    counts = m.scenario_runner(_cache(tmp_path, heard))("itsm", sc, [], rows)["itsm"]
    assert counts["turns"] == 2 and counts["not_heard"] == 1  # the last turn is not in the cache
    assert counts["heard_differs"] == 1 and counts["words_differ"] == 0  # the question mark lost
    assert counts["changed"] == 0 and counts["withheld"] == 0 and rows == []


def test_a_changed_reply_is_counted_with_its_withheld_facts(tmp_path: Path) -> None:
    m = _script()
    heard = {ASK: "Can you please provide your employee ID and the new road map you want to apply?"}
    sc = make_scenario(INFO, goal="You want a new role code applied to your account.", trace=TRACE)
    rows: list[dict[str, object]] = []
    counts = m.scenario_runner(_cache(tmp_path, heard))("itsm", sc, [], rows)["itsm"]
    assert counts["changed"] == 1 and counts["withheld"] == 1
    assert rows[0]["withheld"] == ["new_role_code"] and rows[0]["heard"] == heard[ASK]


def test_the_cache_is_kept_with_its_voice_and_model(tmp_path: Path) -> None:
    m = _script()
    cache = _cache(tmp_path, {"Hello.": "Hello."})
    assert cache("Hello.") == "Hello." and cache("Not heard yet.") is None  # type: ignore[operator]
    cache.save()  # type: ignore[attr-defined]
    saved = json.loads((tmp_path / "heard.json").read_text(encoding="utf-8"))
    assert (saved["voice"], saved["model"], saved["heard"]) == (m.VOICE, m.MODEL, {"Hello.": "Hello."})
    assert saved["half"] == "dev"


@pytest.mark.parametrize(
    ("stored", "run"), [("dev", "test"), ("test", "dev"), (None, "dev"), ("dev", "both")]
)
def test_a_cache_of_one_half_is_refused_by_a_run_of_another(tmp_path: Path, stored: str, run: str) -> None:
    """Texts are keyed by their words alone: a file mixing halves could not say which half a text
    came from, so a test-half run needs its own cache file (and a file with no half is refused)."""
    with pytest.raises(SystemExit, match="half"):
        _cache(tmp_path, {"Hello.": "Hello."}, half=stored, run=run)


def test_a_new_cache_file_is_stamped_with_its_runs_half(tmp_path: Path) -> None:
    m = _script()
    m.HeardCache(tmp_path / "new.json", "test").save()
    assert json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))["half"] == "test"
