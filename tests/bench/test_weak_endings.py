"""The weak-agent ending classes (:mod:`voxbench.bench.weak_endings`): made from a scenario's own
requests, graded by the ending acts, and run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_endings import problem, second_person, states_open
from voxbench.bench.weak_turns import WeakItem, generate, table

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP824156", "unit_code": "5B-PEDS"}
INTENTS = ["Swap my shift with a colleague", "Register for on-call availability"]
ENDING_CLASSES = {
    "end_next_after_done", "end_all_done", "end_done_no_question", "end_agent_bye_open", "end_agent_bye_again",
    "end_transfer_now", "end_refused_once", "end_refused_again", "end_done_other",
}  # fmt: skip
"""The classes of :mod:`voxbench.bench.weak_endings` (those of ``weak_closings`` have their own test)."""


def _scenario(intents: list[str] | None = INTENTS, negotiation: list[str] | None = None):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want to swap a shift and register for on-call availability.",
                         intents=intents, negotiation=negotiation, start="Hi, I have two scheduling things.")  # fmt: skip


def _items(sc, cls: str) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("medical_hr", sc) if i.cls == cls]


def test_a_request_is_said_back_in_the_second_person() -> None:
    swap = table().endings.person_swap  # type: ignore[union-attr]
    assert (
        second_person("Remove access for my departing team member", swap)
        == "remove access for your departing team member"
    )
    assert second_person("Submit I-9 documents", swap) == "submit I-9 documents"  # 'I-9' is no pronoun


def test_multi_request_classes_come_from_the_scenarios_own_intents() -> None:
    sc = _scenario()
    nxt = _items(sc, "end_next_after_done")
    assert len(nxt) == 1 and "swap your shift" in nxt[0].turn and nxt[0].act == "next_request"
    assert nxt[0].open_words and {"register", "availability"} & set(nxt[0].open_words[0])
    alldone = _items(sc, "end_all_done")[0]
    assert alldone.act == "ends" and len(alldone.context) == 1 and "on-call" in alldone.turn
    assert _items(sc, "end_done_no_question")[0].turn.count("?") == 0
    assert _items(sc, "end_agent_bye_again")[0].context[-1] == _items(sc, "end_agent_bye_open")[0].turn


def test_a_single_goal_has_no_multi_request_items_and_is_refused_as_that() -> None:
    sc = _scenario(intents=None)
    assert not _items(sc, "end_next_after_done") and not _items(sc, "end_all_done")
    assert "do that" in _items(sc, "end_refused_once")[0].turn


def test_refused_again_only_where_a_tree_line_says_one_follow_up_on_the_request_it_names() -> None:
    assert not _items(_scenario(), "end_refused_again")
    tree = ["If the agent says the shift cannot be swapped, ask exactly one follow-up question, then accept."]
    again = _items(_scenario(negotiation=tree), "end_refused_again")
    assert len(again) == 1 and "swap your shift" in again[0].turn and again[0].context == [again[0].turn]
    assert again[0].open_words and "register" in again[0].open_words[0]


def test_the_other_thing_done_is_a_topic_no_word_of_the_goal_names() -> None:
    other = _items(_scenario(), "end_done_other")
    assert len(other) == 1 and other[0].act == "next_request"
    topic = next(t for t in table().endings.other_topics if t in other[0].turn)  # type: ignore[union-attr]
    assert "shift" not in topic and "call" not in topic


def test_grading_of_the_ending_acts() -> None:
    item = WeakItem(domain="d", scenario_id="s", half="dev", cls="end_next_after_done", act="next_request",
                    turn="Done. Anything else?", open_words=[["register", "availability"]])  # fmt: skip
    assert problem(item, "Yes, I need to register for on-call availability.", False, False) == ""
    assert problem(item, "No, that's all. Goodbye.", True, False) == "ended with a request open"
    assert problem(item, "Okay.", False, False) == "did not state an open request"
    assert problem(item, "Yes, register me.", False, True).startswith("ended in the context")
    ends = item.model_copy(update={"act": "ends"})
    assert (
        problem(ends, "Thanks, bye.", True, False) == ""
        and problem(ends, "Okay.", False, False) == "did not end"
    )
    accept = item.model_copy(update={"act": "accept", "open_words": []})
    assert problem(accept, "Okay, I understand. Goodbye.", True, False) == ""
    assert states_open("I'd also like to be registered.", item)  # one word of two is a third or more


def test_the_goal_caller_agrees_on_every_ending_class_of_a_two_request_scenario() -> None:
    sc = _scenario(
        negotiation=[
            "If the agent says the shift cannot be swapped, ask exactly one follow-up question, then accept."
        ]
    )
    rows = [
        run_item(i, sc, GoalRules().make("medical_hr", sc))
        for i in generate("medical_hr", sc)
        if i.cls in ENDING_CLASSES
    ]
    assert len({r.item.cls for r in rows}) == 9
    assert [(r.item.cls, r.why) for r in rows if not r.agrees] == []
