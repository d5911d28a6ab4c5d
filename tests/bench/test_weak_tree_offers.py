"""Weak-agent classes of this round: an offer the tree answers otherwise than with a yes
(:mod:`voxbench.bench.weak_treeask`, :mod:`voxbench.bench.weak_alternatives`): made from a
scenario's own tree steps, and run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import grade, run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP310277", "building_name": "East Campus", "floor": "FL1"}
ASK = (
    "4. If the agent says no desks are available on FL1, ask exactly one follow-up question: whether "
    "there are truly no desks available at all on that floor."
)
ALT = "If the agent offers a desk on another floor, decline and restate that you only want FL1."


def _scenario(negotiation: list[str]):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want a desk on floor 1 of East Campus.", negotiation=negotiation,
                         start="Hi, I need a desk assignment.")  # fmt: skip


def _items(sc, cls: str) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("itsm", sc) if i.cls == cls]


def test_a_step_naming_its_follow_up_question_gives_a_refusal_with_an_offer() -> None:
    items = _items(_scenario([ASK]), "tree_ask_offered")
    assert items and all(i.turn.count("no desks are available on FL1") == 1 for i in items)
    assert all(i.act == "asks_tree" and {"truly", "desks", "floor"} <= set(i.words) for i in items)
    steps = ["If the agent asks for your floor, ask exactly one follow-up question: whether it matters."]
    assert not _items(_scenario(steps), "tree_ask_offered")  # no refusal in its condition


QUOTED = (
    "If the agent says no desks are available on FL1, ask exactly one follow-up question: "
    "{o}Are there truly no desks available at all on that floor?{c} After the answer, accept."
)


def test_a_question_quoted_in_any_style_is_read_and_asked() -> None:
    for o, c in (('"', '"'), ("\u201c", "\u201d"), ("'", "'"), ("\u2018", "\u2019")):
        sc = _scenario([QUOTED.format(o=o, c=c)])
        items = _items(sc, "tree_ask_offered")
        assert items and all({"truly", "desks", "floor"} <= set(i.words) for i in items), (o, items)
        for item in items:
            row = run_item(item, sc, GoalRules().make("itsm", sc))
            assert row.agrees, (o, item.turn, row.reply, row.why)


def test_a_step_declining_an_alternative_gives_its_offer() -> None:
    items = _items(_scenario([ALT]), "alternative_declined")
    assert items and all(i.act == "declines" and "floor" in i.turn for i in items)
    later = "If the fee is too high, reject it and ask them to look for any other floor."
    assert not _items(_scenario([later]), "alternative_declined")  # asked for, not declined


def test_the_grading_of_the_tree_question_act() -> None:
    item = _items(_scenario([ASK]), "tree_ask_offered")[0]
    assert grade(item, "Are there truly no desks available at all on that floor?", False, [],
                 _Ground())[0]  # fmt: skip
    assert not grade(item, "Yes, please do that.", False, [], _Ground())[0]
    assert not grade(item, "No, thank you.", False, [], _Ground())[0]  # the question not asked


class _Ground:
    def invented(self, reply: str) -> list[str]:
        return []


def test_the_goal_caller_agrees_on_both_classes() -> None:
    for steps, cls in (([ASK], "tree_ask_offered"), ([ALT], "alternative_declined")):
        sc = _scenario(steps)
        for item in _items(sc, cls):
            row = run_item(item, sc, GoalRules().make("itsm", sc))
            assert row.agrees, (item.turn, row.reply, row.why)


def test_a_wish_asked_by_a_confirm_verb_expects_the_bookings_value_or_the_wish_framed() -> None:
    info = {"preferred_departure_time": "8:15 AM", "latest_acceptable_arrival_time": "4:00 PM",
            "original_departure_time": "4:10 PM"}  # fmt: skip
    sc = make_scenario(info, goal="You want an earlier flight.")
    items = [i for i in generate("airline", sc) if i.cls == "confirm_wish"]
    by_field = {i.turn.rsplit("your ", 1)[1].rstrip("?."): i for i in items}
    assert by_field["departure time"].must == ["original_departure_time"]
    assert by_field["arrival time"].must == ["latest_acceptable_arrival_time"]
    for item in items:
        row = run_item(item, sc, GoalRules().make("airline", sc))
        assert row.agrees, (item.turn, row.reply, row.why)


def test_two_identity_facts_asked_together_are_an_identity_pair_item() -> None:
    info = {
        "first_name": "Omar",
        "last_name": "Hassan",
        "employee_id": "EMP123456",
        "phone_last_four": "4092",
    }
    sc = make_scenario(info, goal="You want your VPN fixed.")
    items = [i for i in generate("itsm", sc) if i.cls == "identity_pair_asked"]
    assert items and all(len(i.must) == 2 for i in items)
    assert any("last four digits of your phone number" in i.turn for i in items)
    for item in items:
        row = run_item(item, sc, GoalRules().make("itsm", sc))
        assert row.agrees, (item.turn, row.reply, row.why)
