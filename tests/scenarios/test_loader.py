"""Loading EVA-format folders: real data loads; malformed data names file, record and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios import ScenarioError, load_dataset
from voxbench.scenarios.culture import CultureResolver
from voxbench.scenarios.executor import ToolExecutor


def _mini_dataset(tmp_path: Path, eva_data: Path, domain: str = "airline", n: int = 2) -> Path:
    """Copy `n` scenarios of one domain into a fresh EVA-format folder."""
    root = tmp_path / "ds"
    (root / "data" / f"{domain}_scenarios").mkdir(parents=True)
    (root / "configs" / "agents").mkdir(parents=True)
    recs = json.loads((eva_data / "data" / f"{domain}_dataset.json").read_text())[:n]
    (root / "data" / f"{domain}_dataset.json").write_text(json.dumps(recs))
    for r in recs:
        shutil.copy(
            eva_data / "data" / f"{domain}_scenarios" / f"{r['id']}.json",
            root / "data" / f"{domain}_scenarios",
        )
    shutil.copy(eva_data / "configs" / "agents" / f"{domain}_agent.yaml", root / "configs" / "agents")
    return root


def test_loads_all_three_domains(eva_data: Path) -> None:
    ds = load_dataset(eva_data)
    assert set(ds.domains) == {"airline", "itsm", "medical_hr"}
    assert {len(d.agent.tools) for d in ds.domains.values()} == {15, 59, 48}
    for dd in ds.domains.values():
        assert dd.scenarios
        sid = next(iter(dd.scenarios))
        db = dd.initial_db(sid)
        assert db["_current_date"] == dd.scenarios[sid].current_date
        assert "<FIRST_NAME>" not in json.dumps(db)


def test_every_language_resolves_without_leftover_tokens(eva_data: Path) -> None:
    ds = load_dataset(eva_data, ["itsm"])
    dd = ds.domains["itsm"]
    for sc in list(dd.scenarios.values())[:10]:
        for lang in sc.culture_overrides:
            goal = CultureResolver.for_scenario(sc, dd.aliases, lang).resolve(sc.user_goal.model_dump())
            text = json.dumps(goal, ensure_ascii=False)
            assert "<FIRST_NAME" not in text and "<LOC:" not in text, (sc.id, lang)


def test_location_tokens_resolve_to_spoken_names(eva_data: Path) -> None:
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    sc = next(s for s in dd.scenarios.values() if "<LOC:" in s.user_goal.model_dump_json())
    text = json.dumps(dd.resolver(sc).resolve(sc.user_goal.model_dump()))
    assert "<LOC:" not in text


def test_malformed_field_names_file_record_and_field(tmp_path: Path, eva_data: Path) -> None:
    root = _mini_dataset(tmp_path, eva_data)
    path = root / "data" / "airline_dataset.json"
    recs = json.loads(path.read_text())
    recs[1]["user_goal"]["decision_tree"]["must_have_criteria"] = "not a list"
    path.write_text(json.dumps(recs))
    with pytest.raises(ScenarioError) as ei:
        load_dataset(root)
    msg = str(ei.value)
    assert "airline_dataset.json" in msg and f"record {recs[1]['id']}" in msg
    assert "user_goal.decision_tree.must_have_criteria" in msg


def test_bad_date_time_is_rejected(tmp_path: Path, eva_data: Path) -> None:
    root = _mini_dataset(tmp_path, eva_data)
    path = root / "data" / "airline_dataset.json"
    recs = json.loads(path.read_text())
    recs[0]["current_date_time"] = "tomorrow"
    path.write_text(json.dumps(recs))
    with pytest.raises(ScenarioError, match="current_date_time"):
        load_dataset(root)


def test_invalid_json_names_line(tmp_path: Path, eva_data: Path) -> None:
    root = _mini_dataset(tmp_path, eva_data)
    (root / "data" / "airline_dataset.json").write_text('[{"id": "1",\n  oops}]')
    with pytest.raises(ScenarioError, match=r"airline_dataset.json: invalid JSON at line 2"):
        load_dataset(root)


def test_missing_starting_database_is_an_error(tmp_path: Path, eva_data: Path) -> None:
    root = _mini_dataset(tmp_path, eva_data)
    victim = next((root / "data" / "airline_scenarios").glob("*.json"))
    victim.unlink()
    with pytest.raises(ScenarioError, match="starting database missing"):
        load_dataset(root)


def test_bad_agent_yaml_names_field(tmp_path: Path, eva_data: Path) -> None:
    root = _mini_dataset(tmp_path, eva_data)
    y = root / "configs" / "agents" / "airline_agent.yaml"
    y.write_text(y.read_text().replace("type: string", "type: strng", 1))
    with pytest.raises(ScenarioError, match=r"airline_agent.yaml.*tools\.0\.required_parameters\.0\.type"):
        load_dataset(root)


def test_missing_folder() -> None:
    with pytest.raises(ScenarioError, match="dataset folder not found"):
        load_dataset("/nonexistent/voxbench-data")


def _headquarters(db: dict[str, Any]) -> dict[str, Any]:
    return next(b for b in db["facilities"]["buildings"].values() if b.get("name") == "Headquarters")


@pytest.mark.parametrize("lang", ["en", "de", "fr-CA", "ko"])
def test_building_aliases_are_base_plus_the_conversations_language(eva_data: Path, lang: str) -> None:
    """EVA's loader: `name_aliases` = base aliases + the conversation language's own
    translations, in the initial and the expected database alike."""
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    entry = dd.aliases["headquarters"]
    want = [*entry.base, *entry.translations.get(lang, [])]
    assert _headquarters(dd.initial_db("100", lang))["name_aliases"] == want
    assert _headquarters(dd.expected_db("100", lang))["name_aliases"] == want


def test_english_caller_cannot_use_a_german_building_name(eva_data: Path) -> None:
    """An English caller saying "Hauptsitz" gets EVA's `name_not_found`; a German one finds it."""
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    sc = dd.scenarios["100"]
    search = {"building_code": "Hauptsitz", "date": "2026-10-15", "start_time": "14:00", "end_time": "15:30",
              "min_capacity": 6}  # fmt: skip
    found = {}
    for lang in ("en", "de"):
        ex = ToolExecutor("itsm", dd.initial_db("100", lang), sc.current_date_time, dd.agent)
        assert (
            ex.execute("verify_employee_auth", {"employee_id": "EMP068347", "phone_last_four": "2916"})[
                "status"
            ]
            == "success"
        )
        found[lang] = ex.execute("check_room_availability", search)
    assert found["en"]["error_type"] == "name_not_found", found["en"]
    assert found["de"]["status"] == "success", found["de"]
