"""Request turns in EVA's own words (:mod:`voxbench.bench.weak_refasks`, :mod:`voxbench.bench.transplant`):
picked from a reference conversation by its structure, said again with another scenario's facts,
deterministic, and carrying no value of the scenario they came from."""

from __future__ import annotations

from typing import Any

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import names_fact
from voxbench.bench.transplant import Edit, Span, field_spans, rewrite, tokens, value_spans
from voxbench.bench.weak_item import WeakItem, half
from voxbench.bench.weak_refasks import generate_all, items_of, problem
from voxbench.bench.weak_refharvest import harvest
from voxbench.scenarios import Scenario

from ..pipelines.caller_goal.conftest import make_scenario

SOURCE = {"employee_id": "EMP095417", "date_of_birth": "1987-09-14", "network_name": "CorpNet-5G"}
TARGET = {"confirmation_number": "ZK3FFW", "last_name": "Lima", "travel_date": "2026-03-20"}
ASK = "Thanks. Please give me your employee I D and your date of birth."
READBACK = "Let me read that back: E M P zero nine five four one seven. Is that correct?"


def _with_id(sc: Scenario, domain: str, want: str) -> tuple[str, Scenario]:
    """The scenario under the first id 's<n>' of the half ``want`` (the split is by domain and id)."""
    n = next(n for n in range(100) if half(domain, f"s{n}") == want)
    return domain, sc.model_copy(update={"id": f"s{n}"})


def _source(trace: list[tuple[str, str]]) -> tuple[str, Scenario]:
    return _with_id(make_scenario(SOURCE, trace=trace), "itsm", "dev")


def _target(info: dict[str, Any] | None = None) -> tuple[str, Scenario]:
    return _with_id(make_scenario(info or TARGET), "airline", "dev")


ASK_TRACE = [("agent", "Hi, how can I help?"), ("user", "I can't connect to the Wi-Fi."), ("agent", ASK),
             ("user", "It's E M P zero nine five four one seven, born September 14, 1987."),
             ("agent", READBACK), ("user", "Yes, that's right.")]  # fmt: skip


def test_turns_are_picked_by_the_traces_structure() -> None:
    pool = harvest([_source(ASK_TRACE)])
    kinds = {t.kind: t for t in pool}
    assert set(kinds) == {"ask", "readback"}
    assert sorted(kinds["ask"].asked) == ["date_of_birth", "employee_id"]
    assert [f.key for f in kinds["readback"].values] == ["employee_id"]  # given before, then read back


def test_an_ask_is_said_with_the_targets_fields_and_no_source_value() -> None:
    src, tgt = _source(ASK_TRACE), _target()
    made = items_of(*tgt, harvest([src]))
    ask = next(x.item for x in made.items if x.item.cls == "ref_ask_named")
    assert ask.act == "facts" and sorted(ask.must) == ["confirmation_number", "travel_date"]
    assert names_fact(ask.turn, "confirmation_number") and names_fact(ask.turn, "travel_date")
    assert not names_fact(ask.turn, "employee_id") and ask.turn.startswith("Thanks. Please give me your ")
    assert facts_said(ask.turn, goal_facts(SOURCE)) == []


def test_a_read_back_is_said_right_and_with_one_value_changed() -> None:
    made = items_of(*_target(), harvest([_source(ASK_TRACE)]))
    by = {x.item.cls: x.item for x in made.items}
    right, wrong = by["ref_readback_right"], by["ref_readback_changed"]
    assert right.act == "yes" and facts_said(right.turn, goal_facts(TARGET)) == ["confirmation_number"]
    assert wrong.act == "correct" and wrong.must == ["confirmation_number"]
    assert facts_said(wrong.turn, goal_facts(TARGET)) == [] and "Z K" in wrong.turn  # spelled, as the source
    for item in (right, wrong):
        assert facts_said(item.turn, goal_facts(SOURCE)) == [] and item.turn.endswith("Is that correct?")


def test_a_turn_whose_value_the_target_has_no_fact_of_the_kind_for_is_dropped_and_counted() -> None:
    made = items_of(*_target({"last_name": "Lima", "seat": "window"}), harvest([_source(ASK_TRACE)]))
    assert made.items == []
    assert made.dropped[("ask", "no fact of its kind")] == 1
    assert made.dropped[("readback", "no fact of its kind")] == 1


def test_a_fact_the_targets_tree_refuses_is_never_asked_for_as_one_to_give() -> None:
    edge = ["If the agent asks for your confirmation number, say you don't have it handy."]
    info = {**TARGET, "frequent_flyer_number": "FF123456"}
    _, sc = _target(info)
    refusing = sc.model_copy(update={"user_goal": make_scenario(info, edge=edge).user_goal})
    made = items_of("airline", refusing, harvest([_source(ASK_TRACE)]))
    assert made.items and all("confirmation_number" not in x.item.must for x in made.items)


def test_generation_is_deterministic_and_leaves_a_domain_out() -> None:
    scenarios = [
        _source(ASK_TRACE),
        _target(),
        _with_id(make_scenario(TARGET, trace=ASK_TRACE), "itsm", "dev"),
    ]
    one, two = generate_all(scenarios), generate_all(list(scenarios))
    assert one == two and one.items
    assert all(x.source != x.item.domain for x in one.items)  # another domain's words only


def test_value_and_field_spans_in_the_raw_text() -> None:
    text = "Your N P I is three zero four six one zero zero. Thanks."
    toks = tokens(text)
    (v,) = value_spans(toks, goal_facts({"npi": "3046100"})[0])
    assert " ".join(t.text for t in toks[v.first : v.last]) == "three zero four six one zero zero."
    (f,) = field_spans(toks, "npi")
    assert (
        rewrite(text, toks, [Edit(f, "employee ID"), Edit(v, "EMP1")]) == "Your employee ID is EMP1. Thanks."
    )
    assert rewrite(text, toks, [Edit(Span(0, 3), "a"), Edit(Span(2, 4), "b")]) is None  # overlapping


def _offer(reply: str) -> str:
    item = WeakItem(domain="itsm", scenario_id="s", half="dev", cls="ref_offer_taken", act="takes_option",
                    turn="What size do you need: 24 inch, 27 inch, or 32 inch?", not_offered=["24 inch", "32 inch"])  # fmt: skip
    return problem(item, reply, ends_call=False)


def test_an_offer_is_taken_by_naming_the_option_that_holds_its_value() -> None:
    assert _offer("27 inch, please.") == ""
    assert _offer("The 32 inch one.").startswith("chose another option")
    assert _offer("Yes.").startswith("named no option")
