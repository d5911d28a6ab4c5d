"""The volunteer table (benchmarks/caller_volunteer.py): a candidate per goal fact an asking turn
does not name, labelled by the reference's reply, in the cell of the goal caller's act and the
fact's role; the cell model volunteers a cell the reference volunteered in at least half."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from ..pipelines.caller_goal.conftest import make_scenario

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _script() -> ModuleType:
    sys.path.insert(0, str(_BENCH))  # the script imports its neighbour caller_check_halves
    try:
        spec = importlib.util.spec_from_file_location("caller_volunteer", _BENCH / "caller_volunteer.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # its dataclasses look their module up by name
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(_BENCH))


TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need to change my flight."),
    ("agent", "May I have your confirmation number?"),
    ("user", "Z K three F F W. I'm flying AUS to LAX."),
    ("agent", "You're all set."),
]
INFO = {"confirmation_number": "ZK3FFW", "origin": "AUS", "destination": "LAX", "max_total_cost": "$120"}


def test_candidates_are_the_unnamed_facts_labelled_by_the_reference() -> None:
    vol = _script()
    cands = vol.candidates("airline", make_scenario(INFO, trace=TRACE))
    at_code = {c.key: c for c in cands if c.cell[0] == "answer"}
    assert "confirmation_number" not in at_code  # asked by name: no candidate
    assert at_code["origin"].reference and at_code["destination"].reference
    assert not at_code["max_total_cost"].reference
    assert at_code["max_total_cost"].cell[1] == "limit"


def test_the_cell_model_volunteers_a_cell_the_reference_mostly_volunteered() -> None:
    vol = _script()
    C = vol.Candidate
    volunteered = [C(("d", str(i)), ("answer", "record", "new"), "k", i < 4, False) for i in range(6)]
    rarely = [C(("d", str(i)), ("answer", "call", "new"), "k", i < 1, False) for i in range(6)]
    small = [C(("d", "x"), ("confirm", "pref", "new"), "k", True, False)]  # under 5 candidates
    assert vol.fit(volunteered + rarely + small, 0.5) == {("answer", "record", "new")}
