"""The premature-ending classes (:mod:`voxbench.bench.weak_premature`, and their EVA wordings in
:mod:`voxbench.bench.weak_refpremature`): made from a scenario's own requests, tree and
must-haves, and run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_refendings import RefTurn
from voxbench.bench.weak_refpremature import items_of, refusals
from voxbench.bench.weak_turns import WeakItem, generate, half
from voxbench.scenarios import Scenario

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP310277", "building_code": "BLD4"}
INTENTS = ["Order a replacement monitor", "Move my desk to building 4"]
FORBIDS = "Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline."
ONE = ["If the agent says the monitor cannot be ordered, ask one follow-up question and then accept."]
MUSTS = ["You receive a meal voucher of $12", "The agent confirms your checked bag stays on the new flight"]


def _scenario(negotiation: list[str] | None = None, escalation: str = FORBIDS) -> Scenario:
    return make_scenario(INFO, goal="You want a replacement monitor and your desk moved.", intents=INTENTS,
                         negotiation=negotiation, escalation=escalation, start="Hi, I need two things.")  # fmt: skip


def _items(sc: Scenario, cls: str) -> list[WeakItem]:
    return [i for i in generate("itsm", sc) if i.cls == cls]


def test_a_forbidden_transfer_again_item_only_where_the_rule_forbids_one() -> None:
    item = _items(_scenario(), "prem_transfer_again_open")[0]
    assert item.act == "declines" and item.context == [item.turn]
    assert "order a replacement monitor" in item.turn and item.open_words  # the desk move stays open
    allows = "If the agent refuses again, ask to be transferred to a live agent."
    assert not _items(_scenario(escalation=allows), "prem_transfer_again_open")


def test_an_unnamed_refusal_item_after_the_request_the_tree_line_names() -> None:
    item = _items(_scenario(ONE), "prem_refused_next_unnamed")[0]
    assert item.act == "not_end" and len(item.context) == 2 and item.context[0] == item.context[1]
    assert "order a replacement monitor" in item.context[0] and "monitor" not in item.turn
    assert not _items(_scenario(), "prem_refused_next_unnamed")  # no 'one follow-up' line


def test_a_check_unanswered_item_where_two_must_haves_are_held() -> None:
    sc = make_scenario({"confirmation_number": "HN4R8B"}, must=MUSTS)
    item = _items(sc, "prem_check_unanswered")[0]
    assert item.act == "next_request" and len(item.context) == 1 and item.open_words
    assert item.turn.rstrip().endswith("?")
    assert not _items(
        make_scenario({"confirmation_number": "HN4R8B"}, must=MUSTS[:1]), "prem_check_unanswered"
    )


def test_the_goal_caller_agrees_on_every_premature_class() -> None:
    scs = [_scenario(ONE), make_scenario({"confirmation_number": "HN4R8B"}, must=MUSTS)]
    rows = [run_item(i, s, GoalRules().make("itsm", s)) for s in scs for i in generate("itsm", s)
            if i.cls.startswith("prem_")]  # fmt: skip
    assert {r.item.cls for r in rows} == {"prem_transfer_again_open", "prem_refused_next_unnamed",
                                          "prem_check_unanswered"}  # fmt: skip
    assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []


def test_the_reference_wordings_come_from_another_domain_of_the_same_half() -> None:
    sc = _scenario(ONE)
    mine = half("itsm", sc.id)
    other = next(i for i in range(1000) if half("airline", f"x.{i}") == mine)
    pool = [
        RefTurn(
            "airline",
            f"x.{other}",
            "offer",
            "I can't waive that here. Would you like me to transfer you now?",
        ),
        RefTurn("airline", f"x.{other}", "refused", "I'm sorry, that booking can't be changed."),
        RefTurn("itsm", "own", "offer", "An offer of the scenario's own domain."),
    ]
    items = items_of("itsm", sc, pool)
    assert {(x.item.cls, x.source) for x in items} == {("ref_transfer_again_open", "airline"),
                                                       ("ref_refused_next", "airline")}  # fmt: skip
    offer = next(x.item for x in items if x.item.cls == "ref_transfer_again_open")
    assert offer.context == [offer.turn] and offer.act == "declines"
    rows = [run_item(x.item, sc, GoalRules().make("itsm", sc)) for x in items]
    assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []


def _refusing(turns: list[tuple[str, str]]) -> Scenario:
    """A reference conversation whose every agent turn follows a tool error, with the caller's reply."""
    events: list[dict[str, str]] = []
    for agent, reply in [*turns, ("Thanks for calling.", "Goodbye.")]:
        events += [{"event_type": "tool_call", "tool_name": "get_record"},
                   {"event_type": "tool_response", "tool_name": "get_record", "status": "error"},
                   {"event_type": "agent_utterance", "utterance": agent},
                   {"event_type": "user_utterance", "utterance": reply}]  # fmt: skip
    data = make_scenario({"employee_id": "EMP092841", "last_name": "Patel", "dea_number": "CY8801975"},
                         intents=INTENTS).model_dump()  # fmt: skip
    data["ground_truth"]["expected_trace"] = {"trace": events}
    return Scenario.model_validate(data)


def test_a_reference_refusal_stands_for_any_request_only_where_it_asks_and_names_nothing() -> None:
    plain = "I'm sorry, but I can't register that while your record shows you on leave."
    sc = _refusing([
        (plain, "Is there any way to register for dates after my leave ends?"),
        ("I'm not finding a DEA record under C Y, eight eight zero, one nine seven five.",
         "Can you look it up another way?"),  # the source's identifier: another caller's record
        ("I found the record for Noah Patel, so I can't provision a new account.", "Why not?"),
        ("Please read the DEA number to me once more.", "Is that needed?"),  # asks for a value
        ("That code did not match our records.", "It's C Y, eight eight zero, one nine seven five."),  # a value again
        ("That code did not match, so I can't go on.", "Okay."),  # answered as no refusal
    ])  # fmt: skip
    assert [t.text for t in refusals([("medical_hr", sc)])] == [plain]
