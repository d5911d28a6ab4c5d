"""The reference caller's own goal breaks (the gate's validators on it) and the in-goal figures."""

from __future__ import annotations

from voxbench.bench.caller_check import by_domain, check_all, resolved
from voxbench.bench.ref_goal import ReferenceGoal, map_turns, scenario_breaks
from voxbench.bench.tally import breaks_by_domain, in_goal_by_domain
from voxbench.scenarios import Scenario
from voxbench.scenarios.loader import DomainData, load_dataset

from ..pipelines.caller_goal.conftest import make_scenario
from .script_caller import ScriptCaller


def _builtin(last_line: str | None = None) -> tuple[DomainData, Scenario]:
    """The shipped airline scenario bb.1 (its goal: "Do not ask for a live agent. If offered a
    transfer, decline."), its last caller line replaced when given."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    sc = dd.scenarios["bb.1"].model_copy(deep=True)
    trace = sc.ground_truth.expected_trace
    assert trace is not None
    if last_line is not None:
        [e for e in trace.trace if e.event_type == "user_utterance"][-1].utterance = last_line
    dd.scenarios["bb.1"] = sc
    return dd, resolved(dd, sc)


def test_a_reference_within_its_goal_breaks_nothing() -> None:
    dd, sc = _builtin()
    assert scenario_breaks(dd, "bb.1", sc) == {}


def test_a_reference_asking_for_the_forbidden_live_agent_is_marked_at_that_turn() -> None:
    """The opening is turn 0; the reference's third reply (to "Anything else?") asks for the
    live agent its escalation rule forbids: the gate's `decision_tree_violation` there."""
    dd, sc = _builtin("Actually, I want to speak to a live agent.")
    assert scenario_breaks(dd, "bb.1", sc) == {3: ["decision_tree_violation"]}
    assert scenario_breaks(dd, "bb.1", sc, kinds=("extra_modifications",)) == {}
    goal = ReferenceGoal({"airline": dd}, kinds=("decision_tree_violation",))  # read on demand
    assert goal.get(("airline", "bb.1")) == {3: ["decision_tree_violation"]}
    assert goal.get(("airline", "nope")) is None and len(goal) == len(dd.scenarios)


def test_record_turns_map_to_bench_turns_by_their_text() -> None:
    """Two caller lines in a row are one bench reply; a record may keep them as two turns."""
    sc = make_scenario({}, trace=[("user", "Hi, I need to change my flight."), ("agent", "Your code?"),
                                  ("user", "Z K 3."), ("user", "F F W."), ("agent", "Done. Anything else?"),
                                  ("user", "No, bye.")])  # fmt: skip
    record = {1: "Hi, I need to change my flight.", 2: "Z K 3.", 3: "F F W.", 4: "No, bye."}
    assert map_turns(record, sc) == {1: 0, 2: 1, 3: 1, 4: 2}


_TRACE = [("agent", "How can I help?"), ("user", "I need to change my flight."),
          ("agent", "I cannot change it. Would you like me to transfer you to a live agent?"),
          ("user", "Yes, transfer me."), ("agent", "Is there anything else?"), ("user", "No, thanks."),
          ("agent", "Okay. Have a good day."), ("user", "Goodbye.")]  # fmt: skip


def _run(breaks: dict[int, list[str]], end_at: int | None = None):  # type: ignore[no-untyped-def]
    sc = make_scenario({}, trace=_TRACE)
    caller = ScriptCaller(
        ["I need to change my flight.", "No, thank you.", "No, thanks.", "Goodbye."], end_at
    )
    return check_all([("airline", sc)], lambda d, s: caller, breaks={("airline", sc.id): breaks})


def test_turns_the_reference_broke_are_scored_apart() -> None:
    """The full tally keeps every turn; the in-goal one leaves out the reference's forbidden
    "yes" to the transfer (a decision ours declined), and counts what it left out by kind."""
    res = _run({2: ["decision_tree_violation"]})
    full, goal = by_domain(res)["overall"], in_goal_by_domain(res)["overall"]
    assert (full.turns, full.decisions, full.decisions_matched) == (4, 2, 1)
    assert (goal.turns, goal.decisions, goal.decisions_matched) == (3, 1, 1)
    assert (goal.ref_turns_out, goal.ref_scenarios_out) == (1, 1)
    assert res[0].rows[1].ref_breaks == ["decision_tree_violation"]
    assert breaks_by_domain(res) == {
        "airline": {"decision_tree_violation": 1},
        "overall": {"decision_tree_violation": 1},
    }
    assert (
        goal.summary()["decisions_matched_pct"] == 100.0 and full.summary()["decisions_matched_pct"] == 50.0
    )


def test_no_breaks_gives_the_same_tally_and_no_breaks_read_gives_none() -> None:
    res = _run({})
    assert res[0].in_goal is not None
    assert res[0].in_goal.model_dump() == res[0].tally.model_dump()
    sc = make_scenario({}, trace=_TRACE)
    assert check_all([("airline", sc)], lambda d, s: ScriptCaller(["Okay."]))[0].in_goal is None


def test_an_ending_where_the_reference_broke_its_goal_is_reported_apart() -> None:
    """Ours ends at turn 2 (index 1), the reference at 4: premature. With the reference's break at
    turn 2 or 3 (between the two endings) it is left out of the in-goal tally; at turn 1, before
    both, it stays. A missed ending likewise, with the break at the reference's own last turn."""
    for where, apart in ((2, True), (3, True), (1, False)):
        r = _run({where: ["decision_tree_violation"]}, end_at=1)[0]
        assert r.tally.premature_endings == 1 and r.in_goal is not None
        assert (r.in_goal.premature_endings, r.in_goal.ref_endings_out) == ((0, 1) if apart else (1, 0))
        assert r.ending_apart == ("premature" if apart else "")
    r = _run({4: ["premature_ending"]})[0]
    assert r.tally.missed_endings == 1 and r.in_goal is not None
    assert (r.in_goal.missed_endings, r.ending_apart) == (0, "missed")
