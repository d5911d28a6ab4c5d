"""The fitted fact model (fit, predict, save/load), the goal caller using it, and the CLI's table."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from voxbench.bench.callers import GoalLearned, GoalRules, training_examples
from voxbench.bench.cv import grade
from voxbench.cli.caller import print_table
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.learned import FactModel

from ..pipelines.caller_goal.conftest import make_scenario


def _scenario(i: int, code: str, name: str) -> object:
    """A caller whose booking code the agent asks for as 'the six-character code' (no key word)."""
    trace = [
        ("agent", "Hi, how can I help you today?"),
        ("user", "Hi, I need to change my flight."),
        ("agent", "Sure. What is the six-character code from your email?"),
        ("user", f"It's {' '.join(code)}."),
        ("agent", "And the surname on the reservation?"),
        ("user", f"{name}."),
        ("agent", "You're all set. Goodbye."),
    ]
    sc = make_scenario({"confirmation_number": code, "last_name": name}, trace=trace)
    return sc.model_copy(update={"id": f"t.{i}"})


ITEMS = [(d, _scenario(i, c, n)) for i, (d, c, n) in enumerate(
    [("air", "ZK3FFW", "Lima"), ("air", "QX7T4M", "Okafor"), ("rail", "AB12CD", "Silva"), ("rail", "MN34OP", "Kato")]
)]  # fmt: skip


def test_the_model_learns_a_field_its_key_does_not_name() -> None:
    model = FactModel().fit(training_examples(ITEMS[:3]))  # type: ignore[arg-type]
    sc = ITEMS[3][1]
    book = goal_facts(sc.user_goal.information_required)  # type: ignore[attr-defined]
    text = "Sure. What is the six-character code from your email?"
    probs = model.probs(text, book, set())
    assert probs["confirmation_number"] > 0.5 > probs["last_name"]
    assert model.pick_facts(text, book, set()) == ["confirmation_number"]
    assert classify(text, book).asked == []  # the rules alone find nothing here
    heard = classify(text, book, hook=model)
    assert heard.asked == ["confirmation_number"] and "ask:confirmation_number:learned:learned" in heard.rules


def test_save_and_load_give_the_same_model(tmp_path: Path) -> None:
    model = FactModel().fit(training_examples(ITEMS))  # type: ignore[arg-type]
    model.save(tmp_path / "m.json")
    back = FactModel.load(tmp_path / "m.json")
    sc = ITEMS[0][1]
    book = goal_facts(sc.user_goal.information_required)  # type: ignore[attr-defined]
    text = "What is the six-character code?"
    assert back.probs(text, book, set()) == pytest.approx(model.probs(text, book, set()), abs=1e-4)


def test_a_model_file_of_another_size_is_refused(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text('{"dim": 7, "threshold": 0.5, "top": 2, "index": [], "weight": []}')
    with pytest.raises(ValueError, match=r"m\.json: field 'dim'"):
        FactModel.load(tmp_path / "m.json")


def test_cross_validation_grades_only_on_held_out_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    rep = grade(GoalLearned(), ITEMS, "tiny", k=2, seed=0, say=print)  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert "fold 1/2" in out and "fold 2/2" in out and "domain 1/2 (air): fitted on 2, graded 2" in out
    assert set(rep.figures) == {"in_sample", "kfold", "lodo"}
    assert (
        rep.figures["kfold"]["overall"]["scenarios"] == 4 and rep.figures["lodo"]["overall"]["scenarios"] == 4
    )
    print_table(rep)
    table = capsys.readouterr().out
    for label in ("in-sample", "k-fold", "LODO", "requests ok %", "overall"):
        assert label in table


def test_the_cli_prints_both_figure_sets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`caller check` on the visible scenarios (first one per domain): in-sample, CV and in-goal rows
    per domain."""
    data = Path("/work/shared/eva-data")
    if not data.is_dir():
        pytest.skip("EVA data not on this machine")
    from voxbench.cli.caller import run_caller_check

    args = argparse.Namespace(
        data=str(data), domain=None, simulator="goal", limit=1, seed=0, folds=2, fold_seed=0,
        classifier="rules", out=str(tmp_path / "r.json"),
    )  # fmt: skip
    assert run_caller_check(args) == 0
    out = capsys.readouterr().out
    for label in ("in-sample", "k-fold", "LODO"):  # airline, itsm, medical_hr, overall
        assert len(re.findall(rf"^\S*\s+{label}\s+\d", out, re.M)) == 4, label
    assert len(re.findall(r"^\s+in-goal ref\.\s+\d", out, re.M)) == 4  # the reference's goal read
    assert len(re.findall(r"^\s+left out: \d+ reference turns", out, re.M)) == 4
    assert (tmp_path / "r.json").is_file()
    assert GoalRules().fits is False


def test_the_act_model_fits_and_predicts() -> None:
    from voxbench.bench.acts import ActModel, reply_act
    from voxbench.bench.matcher import goal_facts as bench_facts

    facts = bench_facts({"confirmation_number": "ZK3FFW"})
    assert reply_act("Z K three F F W.", "What is your code?", facts) == "facts"
    assert reply_act("Yes, please.", "Shall I book it?", facts) == "yes"
    assert reply_act("Thanks, bye.", "Anything else?", facts) == "bye"
    assert reply_act("", "One moment.", facts) == "ack"
    pairs = [("Shall I book it?", "yes"), ("Would you like me to submit it?", "yes"),
             ("What is your code?", "facts"), ("Please give me your code.", "facts"),
             ("Is there anything else?", "bye"), ("Anything else today?", "bye")]  # fmt: skip
    model = ActModel().fit(pairs)
    assert model.predict("Should I book that?") == "yes"
    assert model.predict("What is your booking code?") == "facts"
    assert model.predict("Anything else I can do?") == "bye"


def test_union_mode_adds_to_the_rules_facts_and_fallback_mode_does_not() -> None:
    model = FactModel().fit(training_examples(ITEMS[:3]))  # type: ignore[arg-type]
    sc = ITEMS[3][1]
    book = goal_facts(sc.user_goal.information_required)  # type: ignore[attr-defined]
    text = "Please tell me your last name and the six-character code from your email."
    assert classify(text, book).asked == ["last_name"]
    assert classify(text, book, hook=model).asked == ["last_name"]
    model.mode = "union"
    assert set(classify(text, book, hook=model).asked) == {"last_name", "confirmation_number"}
