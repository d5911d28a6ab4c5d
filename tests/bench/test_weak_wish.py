"""The weak-agent class ``goal_wish``: a thing the caller wants, described in the goal's words and
held by no fact, asked for by its noun; graded on the phrase's words (bench/weak_wish.py)."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade, run_all
from voxbench.bench.weak_turns import WeakItem, generate, table
from voxbench.bench.weak_wish import phrase_words, wished

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"confirmation_number": "ZK3FFW", "new_facility_code": "HLP93K", "travel_date": "2026-06-20"}
GOAL = (
    "You want a full cash refund back to your original payment method, and you would like a quiet "
    "aisle seat on the new flight, but if the agent refuses, accept a travel credit. You need the "
    "new facility updated. You want to keep the existing booking on June 20."
)


def _wished() -> dict[str, str]:
    t = table().goal_wish
    assert t is not None
    return {np: head for head, np, _ in wished(make_scenario(INFO, goal=GOAL), t)}


def test_described_things_it_wants_are_read_and_others_left_out() -> None:
    got = _wished()
    assert got == {"full cash refund": "refund", "quiet aisle seat": "seat", "new flight": "flight"}
    # 'the new facility': a fact's key names it; 'the existing booking': what it has; 'a travel
    # credit': after the wish's condition ('but if ...'); 'the agent': a person


def test_the_phrase_words_are_what_a_reply_must_say() -> None:
    t = table().goal_wish
    assert t is not None
    assert phrase_words("full cash refund", t) == ["full", "cash", "refund"]


def test_a_fact_said_does_not_stand_for_the_goals_words() -> None:
    facts = goal_facts(INFO)
    ground = Grounding(INFO, GOAL)
    item = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="goal_wish", act="wish_words",
                    turn="What kind of refund would you like?", words=["full", "cash", "refund"])  # fmt: skip
    assert grade(item, "I want a full cash refund.", False, facts, ground)[0]
    ok, why, _ = grade(item, "My confirmation number is ZK3FFW.", False, facts, ground)
    assert not ok and "the goal's answer not said" in why
    ok, why, _ = grade(item, "I'm afraid I don't have that.", False, facts, ground)
    assert not ok and "said it lacks it" in why


def test_the_goal_caller_answers_the_generated_questions_from_its_goal() -> None:
    from voxbench.bench.callers import GoalRules

    sc = make_scenario(INFO, goal=GOAL)
    assert {i.cls for i in generate("airline", sc)} >= {"goal_wish"}
    rows = [r for r in run_all([("airline", sc)], GoalRules().make) if r.item.cls == "goal_wish"]
    assert len(rows) == 3 and all(r.agrees for r in rows), [(r.item.turn, r.reply, r.why) for r in rows]
