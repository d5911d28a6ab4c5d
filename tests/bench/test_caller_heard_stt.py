"""The heard-text bench (benchmarks/caller_heard_stt.py): the caller replies to what its
recogniser heard, from the state the written turns left it in; the counts and the cache."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

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


def _cache(tmp_path: Path, heard: dict[str, str], cached_only: bool = True) -> object:
    m = _script()
    path = tmp_path / "heard.json"
    path.write_text(json.dumps({"voice": m.VOICE, "model": m.MODEL, "heard": heard}), encoding="utf-8")
    return m.HeardCache(path, cached_only=cached_only)


def test_a_misheard_label_is_answered_as_the_written_one(tmp_path: Path) -> None:
    m = _script()
    heard = {
        "Hi, how can I help you today?": "Hi, how can I help you today?",
        ASK: "Can you please provide your employee ID and the new row code you want to apply?",
    }
    sc = make_scenario(INFO, goal="You want a new role code applied to your account.", trace=TRACE)
    rows: list[dict[str, object]] = []
    counts = m.scenario_runner(_cache(tmp_path, heard))("itsm", sc, [], rows)["itsm"]
    assert counts["turns"] == 2 and counts["not_heard"] == 1  # the last turn is not in the cache
    assert counts["heard_differs"] == 1 and counts["words_differ"] == 1
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
