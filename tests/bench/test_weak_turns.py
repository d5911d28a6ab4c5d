"""The weak-agent bench: items generated per class from a scenario's own facts, graded with the
bench's matcher."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from voxbench.bench.caller_check import Grounding, Reply
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import act_problem, bare_count, grade, per_class, run_all, run_item
from voxbench.bench.weak_turns import (
    WeakItem,
    changed,
    generate,
    half,
    kind_of,
    label,
    leaves,
    person_pairs,
    table,
)

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "Husband's name": "David Park",
    "confirmation_number": "ZK3FFW",
    "employee_id": "EMP031482",
    "colleague_employee_id": "EMP072948",
    "travel_date": "2026-03-20",
    "departure_time": "14:00",
    "bags": "2",
    "seat": "window",
}


def _items() -> list[WeakItem]:
    return generate("airline", make_scenario(INFO))


RECORD = {"original_travel_details": [{"origin": "PHX", "destination": "DEN", "flight_date": "2026-05-13"}]}


TOLD = ["When the agent asks why you are canceling, state: you had a medical emergency."]


def test_every_class_is_generated_from_the_scenarios_own_facts() -> None:
    info = {
        **INFO,
        **RECORD,
        "meal_preference": "vegetarian",  # a preference: 'Do you have a meal preference?'
        "application_name": "Confluence",  # a thing's name: 'The application is Confluence.'
        "trip_reason": "family visit",  # free text, asked with a date
        "phone_last_four": "4821",  # a part of a field asked whole: 'What is your phone number?'
        "preferred_arrival_time": "9:15 AM",  # a wish, asked by a confirm verb: 'confirm your arrival time'
    }
    back = {
        "origin": "DEN",
        "destination": "PHX",
        "flight_date": "2026-05-20",
    }  # two records: a field of both asked
    info["original_travel_details"] = [*RECORD["original_travel_details"], back]
    items = generate("airline", make_scenario(info, negotiation=TOLD))
    # the multi-request ending classes need listed intents, one of them a tree's one-follow-up line
    follow_up = [
        *TOLD,
        "If the agent says the flight cannot be changed, ask exactly one follow-up question, then accept.",
    ]
    intents = ["Change my flight to an earlier one", "Add a checked bag"]
    musts = ["Your flight is changed to an earlier one today.", "Your checked bag is added to the booking."]
    multi = generate("airline", make_scenario(info, negotiation=follow_up, intents=intents, must=musts))
    # a transfer the escalation rule allows; a thing told to accept and end the call on
    allows = (
        "If the agent cannot help, ask to be transferred to a live agent; accept a transfer if offered."
        " If told to call back later, accept that and end the call."
    )
    multi += generate("airline", make_scenario(info, intents=intents, escalation=allows))
    three = [*intents, "Upgrade my seat"]  # a request in the middle
    multi += generate("airline", make_scenario(info, intents=three))
    unprocessable = make_scenario(info, intents=intents)  # a failure condition that ends on no alternative
    unprocessable.user_goal.decision_tree.failure_condition = (  # or on a transfer refused
        "If the agent says your request cannot be processed and there are no alternatives, or if the agent "
        "says transfer is impossible, say goodbye."
    )
    multi += generate("airline", unprocessable)
    steps = [  # a refusal the tree names its one follow-up question for; an alternative it declines
        "If the agent says no seats are available on that flight, ask exactly one follow-up question: "
        "whether any seat opens up later today.",
        "If the agent suggests a different airport, decline and insist on PHX only.",
    ]
    tree = {i.cls for i in generate("airline", make_scenario(info, negotiation=steps))}
    made = {
        i.cls for i in multi if i.cls.startswith(("end_", "offer_", "option_", "prem_"))
    }  # need listed intents
    made |= tree & {"tree_ask_offered", "alternative_declined"}  # these need their tree steps
    held = ["Change my flight to an earlier one", "Get on the standby list for an earlier flight"]
    goal = "You want an earlier flight today, but if none has a seat, you are willing to be put on the standby list."
    fallback = {i.cls for i in generate("airline", make_scenario(info, goal=goal, intents=held))}
    made |= fallback & {"fallback_unstated", "fallback_offered", "fallback_choice"}  # a goal with a fallback
    pushed = make_scenario(info, intents=intents, must=[  # a tree's count of push-backs, of attempts
        f"You want to {intents[0][0].lower()}{intents[0][1:]}, but after pushing back firmly 3 times, if you are "
        "clearly denied, accept the outcome."])  # fmt: skip
    pushed.user_goal.decision_tree.failure_condition = (
        "If the agent cannot change your flight after two clear attempts, say goodbye and end the call."
    )
    counted = {i.cls for i in generate("airline", pushed)}
    assert {"end_pushed_not_met", "end_pushed_met", "end_attempts_not_met", "end_attempts_met"} <= counted
    made |= counted
    assert {i.cls for i in items} | made == set(table().classes)
    assert all(i.half == half("airline", "t.1") for i in items)
    assert items == generate("airline", make_scenario(info, negotiation=TOLD))  # the same every run
    for i in items:
        assert i.act == table().classes[i.cls].act


def test_a_changed_value_is_another_of_its_kind_and_none_of_the_callers() -> None:
    facts = {f.key: f for f in leaves(INFO, set(table().label_drop))}
    taken = {f.value for f in facts.values()}
    assert changed(facts["travel_date"], taken) == "2026-03-23"
    assert changed(facts["departure_time"], taken) == "16:00"
    assert changed(facts["bags"], taken) == "3"
    assert changed(facts["confirmation_number"], taken) == "ZK6FFW"
    assert changed(facts["first_name"], taken) not in (None, "Maria")
    assert changed(facts["seat"], taken) is None  # free text: no value of the same kind to make
    assert (
        kind_of("GRP-ENGCORE", ["group", "code"]) == "code"
        and kind_of("Database Read", ["group", "name"]) == "text"
    )


def test_another_persons_value_pairs_with_the_callers_own_field() -> None:
    facts = leaves(INFO, set(table().label_drop))
    pairs = {other.key: [f.key for f in mine] for mine, other in person_pairs(facts)}
    assert pairs == {"Husband's name": ["first_name", "last_name"], "colleague_employee_id": ["employee_id"]}
    item = next(i for i in _items() if i.cls == "confirm_other_person" and "David Park" in i.turn)
    assert item.must == ["first_name", "last_name"] and item.act == "correct"


def test_a_field_the_caller_lacks_names_none_of_its_words() -> None:
    held = {w for f in leaves(INFO, set(table().label_drop)) for w in f.words}
    lacking = [i for i in _items() if i.cls == "lacking"]
    assert lacking  # else the check below holds of nothing
    for i in lacking:
        asked = i.turn.rsplit("your ", 1)[1].rstrip("?")
        assert not (set(asked.split()) - {"number", "address", "name"}) & held
    fields = set(table().lacked_fields)
    modal = [i for i in _items() if i.cls == "lacking_modal"]
    assert modal and all(i.act == "not_have" and i.must == [] for i in modal)
    for i in modal:  # the same fields, asked by a modal question of a giving verb
        assert any(x in i.turn for x in fields), i.turn
        assert i.turn.split()[0] in ("Can", "Could", "Would", "Are"), i.turn


def test_the_goal_caller_says_a_field_asked_by_a_modal_question_is_lacking() -> None:
    from voxbench.bench.callers import GoalRules

    rows = run_all([("airline", make_scenario(INFO))], GoalRules().make)
    rows = [r for r in rows if r.item.cls == "lacking_modal"]
    assert rows and all(r.agrees for r in rows), [(r.item.turn, r.reply) for r in rows if not r.agrees]


def test_the_goal_caller_answers_a_field_asked_by_confirm_stating_no_value() -> None:
    from voxbench.bench.callers import GoalRules

    items = [i for i in _items() if i.cls in ("lacking_confirm", "confirm_asked")]
    assert {i.cls for i in items} == {"lacking_confirm", "confirm_asked"}
    assert all(i.must == [] and i.act == "not_have" for i in items if i.cls == "lacking_confirm")
    rows = run_all([("airline", make_scenario(INFO))], GoalRules().make)
    rows = [r for r in rows if r.item.cls in ("lacking_confirm", "confirm_asked")]
    # 'your vehicle license plate' names no noun of information (cues' info_noun): still a confirm
    # question, as before; the bench counts it
    rows = [r for r in rows if "plate" not in r.item.turn]
    assert rows and all(r.agrees for r in rows), [(r.item.turn, r.reply) for r in rows if not r.agrees]


def test_each_act_is_read_by_the_bench() -> None:
    assert act_problem("yes", "Yes, that's right.", False) == ""
    assert act_problem("yes", "I don't know, sorry.", False)
    assert act_problem("correct", "No, my last name is Park.", False) == ""
    assert act_problem("correct", "My last name is Park.", False)  # a correction says no
    assert act_problem("not_have", "Sorry, I don't have that.", False) == ""
    assert act_problem("not_have", "My code is Z K three.", False)
    assert act_problem("state", "I need to add a checked bag to my flight.", False) == ""
    assert act_problem("state", "I want to rebook although I don't have my receipt.", False) == ""
    assert act_problem("state", "Okay, goodbye.", True) == "hung up"
    assert act_problem("state", "My code is Z K three F F W. 1 bag.", False) == "a bare count"
    assert bare_count("1 bag.") and bare_count("Two.") and not bare_count("I need 1 bag.")


def test_a_reply_is_graded_on_its_act_its_facts_and_nothing_invented() -> None:
    facts = goal_facts(INFO)
    ground = Grounding(INFO, "You want to change your flight.")
    item = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="readback_changed", act="correct",
                    turn="Just to confirm, your travel date is March 23, 2026. Is that correct?", must=["travel_date"],
                    must_not=["colleague_employee_id"])  # fmt: skip
    assert grade(item, "No, my travel date is March 20, 2026.", False, facts, ground)[0]
    ok, why, _ = grade(item, "Yes, go ahead.", False, facts, ground)
    assert not ok and "missing travel_date" in why
    ok, why, _ = grade(
        item,
        "No, it is March 20. My colleague's ID is E M P zero seven two nine four eight.",
        False,
        facts,
        ground,
    )
    assert not ok and "said colleague_employee_id" in why
    ok, why, _ = grade(item, "No, it is March 20, flight 4471.", False, facts, ground)
    assert not ok and "invented" in why


class Scripted:
    """A caller that says its lines in order (the TextCaller interface, no model)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.heard: list[str] = []

    def open(self) -> Reply:
        return Reply(text="Hi, I need to change my flight.")

    def respond(self, agent_text: str) -> Reply:
        self.heard.append(agent_text)
        return Reply(text=self.lines[len(self.heard) - 1])


def test_an_item_is_run_after_its_context_and_only_the_last_reply_graded() -> None:
    sc = make_scenario(INFO)
    item = next(i for i in _items() if i.cls == "repeated")
    caller = Scripted(["I don't know.", f"As I said, {INFO[item.must[0]]}."])
    row = run_item(item, sc, caller)
    assert caller.heard == [*item.context, item.turn] and row.agrees, row.why


def test_the_goal_caller_runs_over_every_item_and_figures_split_by_half() -> None:
    from voxbench.bench.callers import GoalRules

    rows = run_all([("airline", make_scenario(INFO))], GoalRules().make)
    figures = per_class(rows)
    assert list(figures)[-1] == "all" and figures["all"]["all"]["items"] == len(rows) == len(_items())
    assert not [r for r in rows if r.why.startswith("error")]
    other = next(r for r in rows if r.item.cls == "confirm_other_person" and "David Park" in r.item.turn)
    assert other.agrees, (other.reply, other.why)


def test_the_cli_prints_agreement_per_class_and_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], eva_data: Path
) -> None:
    from voxbench.cli.caller import run_caller_check

    args = argparse.Namespace(data=str(eva_data), domain=["itsm"], simulator="goal", limit=2, seed=0, folds=2,
                              fold_seed=0, classifier="rules", weak_turns=True, out=str(tmp_path / "w.json"))  # fmt: skip
    assert run_caller_check(args) == 0
    out = capsys.readouterr().out
    assert "readback_changed" in out and "dev" in out and "test" in out
    report = json.loads((tmp_path / "w.json").read_text())
    assert report["figures"]["all"]["all"]["items"] == len(report["rows"]) > 0


def test_announcements_and_vague_requests_name_a_field_as_their_topic_and_ask_none() -> None:
    items = [i for i in _items() if i.cls in ("announce", "vague_request")]
    assert {i.cls for i in items} == {"announce", "vague_request"}
    assert all(not i.must and not i.must_not for i in items)
    assert all(not i.turn.endswith("?") for i in items if i.cls == "announce")
    assert {i.act for i in items} == {"wait", "info"}


def test_a_wait_says_no_fact_and_an_info_reply_a_fact_or_a_question_back() -> None:
    facts = goal_facts(INFO)
    ground = Grounding(INFO, "You want to change your flight.")
    wait = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="announce", act="wait",
                    turn="Let me check the travel date for you.")  # fmt: skip
    assert grade(wait, "", False, facts, ground)[0] and grade(wait, "Okay, thanks.", False, facts, ground)[0]
    ok, why, _ = grade(wait, "My travel date is March 20, 2026.", False, facts, ground)
    assert not ok and "said a fact not asked" in why
    assert not grade(wait, "I'm afraid I don't have that.", False, facts, ground)[0]
    info = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="vague_request", act="info",
                    turn="Could you give me the details I need?")  # fmt: skip
    assert grade(info, "What information do you need from me?", False, facts, ground)[0]
    assert grade(info, "My employee ID is E M P zero three one four eight two.", False, facts, ground)[0]
    ok, why, _ = grade(info, "Yes, I can.", False, facts, ground)
    assert not ok and "neither a fact nor a question back" in why
    assert not grade(info, "I don't know, sorry.", False, facts, ground)[0]


def test_a_record_read_back_by_places_and_date_alone_changed_and_right() -> None:
    items = {i.cls: i for i in generate("airline", make_scenario({**INFO, **RECORD}))}
    other, right = items["record_other"], items["record_right"]
    keys = ["original_travel_details.0.origin", "original_travel_details.0.destination",
            "original_travel_details.0.flight_date"]  # fmt: skip
    assert other.act == "correct" and other.must == keys
    assert "PHX" not in other.turn and "DEN" not in other.turn and "May 13" not in other.turn
    assert right.act == "not_correct" and right.must == [] and "from PHX to DEN on May 13, 2026" in right.turn
    assert "record_other" not in {i.cls for i in _items()}  # no places and date of one record: none


def test_a_record_read_back_with_one_part_changed_and_the_others_right() -> None:
    items = [
        i for i in generate("airline", make_scenario({**INFO, **RECORD})) if i.cls == "record_one_changed"
    ]
    parts = {"original_travel_details.0.origin": "PHX", "original_travel_details.0.destination": "DEN",
             "original_travel_details.0.flight_date": "May 13, 2026"}  # fmt: skip
    assert sorted(k for i in items for k in i.must) == sorted(parts)  # each part changed once
    for i in items:
        assert i.act == "correct" and len(i.must) == 1
        assert [k for k, v in parts.items() if v not in i.turn] == i.must  # only that part is not its own
    assert "record_one_changed" not in {i.cls for i in _items()}  # no places and date of one record: none
    ground = Grounding({**INFO, **RECORD}, "")
    item = next(i for i in items if i.must == ["original_travel_details.0.flight_date"])
    ground.add(item.turn)
    facts = goal_facts({**INFO, **RECORD})
    assert not grade(item, "Yes, that's right.", False, facts, ground)[0]
    assert grade(item, "No, my flight is on May 13, 2026.", False, facts, ground)[0]


def test_the_goal_caller_corrects_another_record_and_not_its_own() -> None:
    from voxbench.bench.callers import GoalRules

    sc = make_scenario({**INFO, **RECORD})
    rows = {r.item.cls: r for r in run_all([("airline", sc)], GoalRules().make)
            if r.item.cls.startswith("record_")}  # fmt: skip
    assert rows["record_other"].agrees, rows["record_other"].why
    assert rows["record_other"].reply.startswith(
        "No, that's not my flight. Mine is from PHX to DEN on May 13"
    )
    assert rows["record_right"].agrees, rows["record_right"].why
    assert act_problem("not_correct", "No, that's not right.", False) == "a no to its own values"


def test_a_completion_report_states_a_fixed_value_changed_and_the_same_report_right() -> None:
    info = {**INFO, "preferred_date": "2026-03-25", "max_fee": "80"}
    items = generate("airline", make_scenario(info))
    wrong = [i for i in items if i.cls == "report_changed"]
    right = [i for i in items if i.cls == "report_right"]
    assert wrong and len(wrong) == len(right) <= table().per_class
    for w, r in zip(wrong, right, strict=True):
        key = w.must[0]
        assert w.act == "correct" and r.act == "keeps" and r.must == [] and r.must_not == [key]
        assert key not in ("preferred_date", "max_fee")  # a preference or a limit: the call may settle it
    facts = {f.key: f for f in leaves(info, set(table().label_drop))}
    assert any(
        w.turn != r.turn and label(facts[w.must[0]]) in w.turn for w, r in zip(wrong, right, strict=True)
    )


def test_a_report_kept_is_no_correction_and_a_report_corrected_is() -> None:
    facts = goal_facts(INFO)
    ground = Grounding(INFO, "You want to change your flight.")
    turn = (
        "All done. I have recorded your employee ID as EMP031482. Is there anything else I can help you with?"
    )
    keeps = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="report_right", act="keeps", turn=turn,
                     must_not=["employee_id"])  # fmt: skip
    assert grade(keeps, "No, that's all. Thanks, goodbye.", True, facts, ground)[0]
    ok, why, _ = grade(keeps, "No, that's not right. My employee ID is E M P zero three one four eight two.", False,
                       facts, ground)  # fmt: skip
    assert not ok and "said its values are wrong" in why and "corrected employee_id" in why
    assert act_problem("keeps", "That's not correct.", False) == "said its values are wrong"


def test_the_goal_caller_corrects_a_report_changed_and_keeps_one_right() -> None:
    from voxbench.bench.callers import GoalRules

    rows = [
        r
        for r in run_all([("airline", make_scenario(INFO))], GoalRules().make)
        if r.item.cls.startswith("report_")
    ]
    assert {r.item.cls for r in rows} == {"report_changed", "report_right"}
    assert all(r.agrees for r in rows), [(r.item.turn, r.reply, r.why) for r in rows if not r.agrees]


def test_another_persons_fact_holding_the_same_value_is_not_one_it_must_not_say() -> None:
    """The husband flies on the caller's own travel date: saying that date cannot be told apart."""
    items = generate(
        "airline", make_scenario({**INFO, "Husband's travel date": "2026-03-20", "Husband's bags": "5"})
    )
    asked = [i for i in items if i.must == ["travel_date"]]
    assert asked and all("Husband's travel date" not in i.must_not for i in asked)
    assert any("Husband's bags" in i.must_not for i in items if i.must == ["bags"])
