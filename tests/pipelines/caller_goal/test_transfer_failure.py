"""A failure condition that ends the call on a transfer the agent does not make is read as the
other failure conditions are (:func:`voxbench.pipelines.caller.goal.transfers.transfer_failure`):
a transfer refused ends the call at once where an alternative counts no requests ('or if the
agent says transfer is impossible'); where it counts the caller's requests ('after two clear
requests') the caller asks that many times before it says goodbye."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.transfers import transfer_failure

AT_ONCE = (
    "If the agent will not transfer you to a supervisor after you have requested escalation twice, "
    "or if the agent says transfer is impossible, say goodbye and end the call."
)
COUNTED = "If the agent cannot complete the transfer after two clear requests, say you will call back and end the call."
WANTS = "If the agent cannot refund the fare, ask to be transferred to a live agent."
REFUSAL = "I'm sorry, I can't refund the fare to your card."


def _caller(failure: str) -> GoalCaller:
    sc = make_scenario({"confirmation_number": "V062BJ"}, goal="You want a refund of your fare.",
                       escalation=WANTS, start="Hi, I need a refund.")  # fmt: skip
    sc.user_goal.decision_tree.failure_condition = failure
    return opened(sc)


def test_the_failure_condition_is_read_by_its_alternatives() -> None:
    assert transfer_failure(AT_ONCE) == (True, 2)
    assert transfer_failure(COUNTED) == (False, 2)
    assert transfer_failure("If the agent refuses to transfer you to a live agent, end the call.") == (
        True,
        0,
    )
    assert transfer_failure(
        "If the agent fails to transfer you after you requested it once, end the call."
    ) == (
        False,
        1,
    )
    assert transfer_failure("If the agent cannot help, say goodbye and end the call.") == (False, 0)


def test_a_transfer_refused_ends_the_call_where_the_condition_says_so() -> None:
    act = _caller(AT_ONCE).respond("I'm sorry, I can't transfer you to a supervisor.")
    assert act.ends_call and act.rule == "transfer_refused_end" and act.end_reason == "failed"
    other = _caller(COUNTED).respond("I'm sorry, I can't transfer you to a supervisor.")
    assert not other.ends_call


def test_the_caller_asks_as_many_times_as_the_condition_counts() -> None:
    caller = _caller(COUNTED)
    rules = [caller.respond(t).rule for t in (REFUSAL, REFUSAL, "I understand, but I can only offer a credit.",
                                              "I understand, but a credit is all I have.")]  # fmt: skip
    assert rules.count("escalation_asks_transfer") == 2, rules
    assert caller.acts[-1].ends_call and caller.acts[-1].rule == "failure_condition_end", rules
