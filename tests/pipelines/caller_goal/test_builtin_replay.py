"""The built-in scenarios' reference agent lines, replayed as text: what `make run` and CI call live.

Lines that went out of character live or in this replay: a short yes/no offer ("Cancel it?",
"Renew it for a year?", "Just today, May twenty-first?") answered "I don't have that
information", and a single-intent goal restated after "Cancelled; ... Anything else?" as
"Yes, one more thing: I need to you ordered a blue kettle by mistake...".
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal_live import goal_caller_for
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.scenarios import load_dataset
from voxbench.scenarios.loader import toy_dataset_dir


def _replay(data: object, domain: str, sid: str) -> list[tuple[str, str]]:
    dd = load_dataset(data, [domain]).domains[domain]  # type: ignore[arg-type]
    call = CallScenario.from_domain(dd, sid)
    caller = goal_caller_for(call, seed=0)
    caller.open()
    trace = call.scenario.ground_truth.expected_trace
    assert trace is not None
    out = []
    for e in trace.trace:
        if e.event_type == "agent_utterance" and e.utterance:
            act = caller.respond(str(call.resolver.resolve(e.utterance)))
            out.append((act.kind, act.text))
    return out


@pytest.mark.parametrize(
    ("data", "domain", "sid", "kind_at", "kind"),
    [
        (toy_dataset_dir(), "toy", "ty.1", 1, "confirm"),  # "Found it, one blue kettle. Cancel it?"
        (None, "itsm", "it.3", 1, "confirm"),  # "Renew it for a year?"
        (None, "medical_hr", "hr.3", 1, "confirm"),  # "Thanks. Just today, May twenty-first?"
    ],
)
def test_short_yes_no_offers_are_confirmed(
    data: object, domain: str, sid: str, kind_at: int, kind: str
) -> None:
    acts = _replay(data, domain, sid)
    assert acts[kind_at][0] == kind
    assert acts[-1][0] == "end"


@pytest.mark.parametrize("sid", ["ty.1", "ty.2"])
def test_done_single_intent_ends_instead_of_restating(sid: str) -> None:
    acts = _replay(toy_dataset_dir(), "toy", sid)
    assert acts[-1][0] == "end", acts
    assert not any("I need to you" in text for _, text in acts)


def test_do_you_want_to_assign_is_an_offer() -> None:
    """Live bb.2 with the local agent: 'Do you want to assign a window seat?' got "I don't have that"."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    caller = goal_caller_for(CallScenario.from_domain(dd, "bb.2"), seed=0)
    caller.open()
    act = caller.respond("I found your booking. The flight is on time. Do you want to assign a window seat?")
    assert act.kind == "confirm" and act.choice == "yes"


def test_statements_in_a_row_restate_then_end() -> None:
    """Live bb.3 with the local agent: 'I'm glad I could help. If you have any other questions,
    feel free to ask.' / 'Okay.' looped for minutes with the caller's question never answered.
    That closing line is the agent's "anything else?" (2026-12-04): with its question still
    open, the caller states it once, and leaves when the agent only says it again."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    caller = goal_caller_for(CallScenario.from_domain(dd, "bb.3"), seed=0)
    caller.open()
    caller.respond("Could you tell me the confirmation number and last name?")
    glad = "I'm glad I could help. If you have any other questions, feel free to ask."
    acts = [caller.respond(t) for t in ["I found your booking.", glad, glad]]
    assert [a.kind for a in acts] == ["acknowledge", "state_request", "end"]
    assert "on time" in acts[1].text and acts[-1].ends_call


def test_bag_caller_declines_a_seat_and_says_its_count_plainly() -> None:
    """Live bb.1: 'Do you want to add a seat?' was answered 'Yes, go ahead.' (the offer check looked
    only at limits) and the count was said 'The bags wanted is 1.'; a small count is said in words."""
    dd = load_dataset(None, ["airline"]).domains["airline"]
    caller = goal_caller_for(CallScenario.from_domain(dd, "bb.1"), seed=0)
    caller.open()
    act = caller.respond("How many bags would you like to add?")
    assert act.text == "One bag." and act.facts == ["Bags wanted"]
    act = caller.respond("Okay. Do you want to add a seat?")  # the bag not added yet: declined, call goes on
    assert act.kind == "refuse" and act.choice == "no" and act.rule == "offer_outside_goal"
    act = caller.respond("Would you like me to add the bag now?")
    assert act.kind == "confirm" and act.choice == "yes"
