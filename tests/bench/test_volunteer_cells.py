"""The volunteer table (benchmarks/caller_volunteer.py): a candidate per goal fact an asking turn
does not name, labelled by the reference's reply, in the cell of the goal caller's act and the
fact's role; the cell model volunteers a cell the reference volunteered in at least half."""

from __future__ import annotations

from types import ModuleType

from ..pipelines.caller_goal.conftest import make_scenario
from .bench_scripts import load


def _script() -> ModuleType:
    return load("caller_volunteer")


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
