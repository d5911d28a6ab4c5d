"""The weak-agent classes on the failure side of a call's end (:mod:`voxbench.bench.weak_failures`):
made from a scenario's own requests and tree lines, and run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP310277", "building_code": "BLD4"}
INTENTS = ["Order a replacement monitor", "Move my desk to building 4"]
TOLD = "Do not ask for a supervisor. If you are told to visit the facilities desk in person or call back later, accept that and end the call."


def _scenario(intents: list[str] | None = INTENTS, escalation: str = TOLD):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want a replacement monitor and your desk moved.", intents=intents,
                         escalation=escalation, start="Hi, I need two things.")  # fmt: skip


def _items(sc, cls: str) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("itsm", sc) if i.cls == cls]


def test_one_item_per_thing_the_tree_says_to_accept_being_told() -> None:
    told = _items(_scenario(), "end_told_accept")
    assert sorted(t.turn.rsplit("need to ", 1)[1] for t in told) == [
        "call back later.",
        "visit the facilities desk in person.",
    ]
    assert all(t.act == "ends" and "order a replacement monitor" in t.turn for t in told)
    assert len(_items(_scenario(), "end_told_if")) == 1
    assert not _items(_scenario(), "end_refused_transfer_wanted")  # its rule forbids one
    wants = _scenario(escalation="If the agent refuses again, ask to be transferred to a live agent.")
    item = _items(wants, "end_refused_transfer_wanted")[0]
    assert item.act == "not_end" and item.context == [item.turn]
    plain = _scenario(escalation="Do not ask for a supervisor.")
    assert not _items(plain, "end_told_accept") and not _items(plain, "end_call_back_open")
    assert _items(plain, "end_agent_error")  # EVA's failure case holds in every scenario


def test_the_courtesy_and_the_announced_action_keep_a_request_open() -> None:
    sc = _scenario()
    back = _items(sc, "end_call_back_open")[0]
    assert back.act == "next_request" and "call back later" in back.turn and back.open_words
    will = _items(sc, "end_will_be_last")[0]
    assert will.act == "not_end" and len(will.context) == 1 and "move your desk" in will.turn
    assert not _items(_scenario(intents=None), "end_call_back_open")
    done = _items(sc, "end_last_confirmed")[0]
    assert done.act == "ends_or_checks" and "move your desk" in done.turn and "?" not in done.turn


def test_the_goal_caller_agrees_on_every_failure_class() -> None:
    sc = _scenario()
    classes = ("end_agent_error", "end_told_accept", "end_told_if", "end_call_back_open", "end_will_be_last",
               "end_last_confirmed", "end_refused_transfer_wanted")  # fmt: skip
    wants = _scenario(
        escalation=f"{TOLD.split('. ', 1)[1]} If the agent refuses again, ask to be transferred to a live agent."
    )
    rows = [run_item(i, s, GoalRules().make("itsm", s)) for s in (sc, wants) for i in generate("itsm", s)
            if i.cls in classes]  # fmt: skip
    assert {r.item.cls for r in rows} == set(classes)
    assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []


UNPROCESSABLE = (
    "If the agent makes no progress for 3 consecutive turns, or says a request cannot be processed and "
    "there are no alternatives, say goodbye and end the call."
)


def test_a_refused_transfer_item_in_every_scenario_after_a_refusal() -> None:
    item = _items(_scenario(), "end_transfer_refused")[0]
    assert (
        item.act == "no_transfer"
        and len(item.context) == 1
        and "order a replacement monitor" in item.context[0]
    )


def test_no_alternative_items_only_where_the_failure_condition_has_it() -> None:
    sc = _scenario()
    assert not _items(sc, "end_no_alternative") and not _items(sc, "end_no_alternative_offer")
    sc.user_goal.decision_tree.failure_condition = UNPROCESSABLE
    end, offer = _items(sc, "end_no_alternative")[0], _items(sc, "end_no_alternative_offer")[0]
    assert (end.act, offer.act) == ("ends", "not_end")
    assert "move your desk" in end.turn and len(end.context) == 1  # the last request, the first done


def test_the_goal_caller_agrees_on_the_transfer_refused_and_no_alternative_classes() -> None:
    classes = ("end_transfer_refused", "end_no_alternative", "end_no_alternative_offer")
    rows = []
    for escalation in (TOLD, "If the agent refuses again, ask to be transferred to a live agent."):
        for intents in (INTENTS, None):
            sc = _scenario(intents, escalation)
            sc.user_goal.decision_tree.failure_condition = UNPROCESSABLE
            rows += [
                run_item(i, sc, GoalRules().make("itsm", sc))
                for i in generate("itsm", sc)
                if i.cls in classes
            ]
    assert {r.item.cls for r in rows} == set(classes)
    assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []


def test_offer_if_not_items_where_the_escalation_rule_names_a_transfer() -> None:
    forbids = _items(_scenario(), "end_offer_if_not")
    assert len(forbids) == 4 and {i.act for i in forbids} == {"declines_no"}
    assert any(
        "wait for me to order a replacement monitor a live agent" in i.turn for i in forbids
    )  # no comma
    wants = _items(_scenario(escalation="If the agent refuses again, ask to be transferred to a live agent."),
                   "end_offer_if_not")  # fmt: skip
    assert {i.act for i in wants} == {"transfer_ok"}
    assert not _items(_scenario(escalation="Be polite."), "end_offer_if_not")


def test_the_goal_caller_takes_an_offer_under_a_negative_condition_as_an_offer() -> None:
    rows = []
    for escalation in (TOLD, "If the agent refuses again, ask to be transferred to a live agent."):
        sc = _scenario(escalation=escalation)
        rows += [run_item(i, sc, GoalRules().make("itsm", sc)) for i in _items(sc, "end_offer_if_not")]
    assert len(rows) == 8
    assert [(r.item.turn, r.why, r.reply) for r in rows if not r.agrees] == []


def test_transfer_fails_items_where_the_failure_condition_ends_on_a_transfer_refused() -> None:
    sc = _scenario(escalation="If the agent refuses again, ask to be transferred to a live agent.")
    assert not _items(sc, "end_transfer_fails")
    sc.user_goal.decision_tree.failure_condition = (
        "If the agent will not transfer you after you have requested it twice, or if the agent says "
        "transfer is impossible, say goodbye and end the call."
    )
    items = _items(sc, "end_transfer_fails")
    assert len(items) == 2 and {i.act for i in items} == {"ends"} and not items[0].context
    rows = [run_item(i, sc, GoalRules().make("itsm", sc)) for i in items]
    assert [(r.item.turn, r.why, r.reply) for r in rows if not r.agrees] == []
