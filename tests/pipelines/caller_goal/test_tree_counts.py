"""The tree's counts, read from its text and counted in the call: the failure condition's count of
attempts (its N-th refusal is accepted: no scripted line, follow-up or transfer ask after it), the
follow-up question the caller is told to ask (not the agent's), the scripted lines that are its
push-backs (not lines for another turn), and a question that refuses nothing."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.attempts import attempts_cap
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.pushback import refuses

SEARCHES = (
    "If the agent cannot provide any rebooking option that arrives today after two clear search "
    "attempts (the initial search and one additional search you request), say goodbye and end the call."
)
REFUSAL = "I'm sorry, I'm not able to do that."


def _caller(failure: str, negotiation: list[str], escalation: str | None = None) -> GoalCaller:
    kw = {"escalation": escalation} if escalation else {}
    sc = make_scenario({"confirmation_number": "R0SDRU"}, negotiation=negotiation, **kw)
    sc.user_goal.decision_tree.failure_condition = failure
    return opened(sc)


def test_the_count_of_attempts_is_read_where_the_condition_ends_the_call() -> None:
    assert attempts_cap(SEARCHES) == 2
    assert attempts_cap("If, after 3 attempts to clarify, the agent cannot help, say goodbye.") == 3
    assert attempts_cap("After two clear search attempts, keep waiting for the agent.") == 0  # no end
    assert attempts_cap("If the agent cannot help after one attempt, end the call.") == 0  # one: any refusal
    # the end is read in the count's own alternative: here 3 attempts lead to a supervisor ask
    assert (
        attempts_cap(
            "After 3 attempts, ask for a supervisor, or if the agent refuses to transfer, say goodbye."
        )
        == 0
    )
    assert attempts_cap("If the agent refuses to transfer, wait, or after 3 attempts, say goodbye.") == 3
    # an 'or' that opens no condition of its own shares the ending after it
    assert (
        attempts_cap(
            "If, after two clear attempts, the agent cannot rebook you OR cannot refund, end the call."
        )
        == 2
    )
    # a count of transfer requests is the transfer's (transfers.transfer_failure), not of refusals
    assert (
        attempts_cap("If the agent cannot complete the transfer after two clear requests, end the call.") == 0
    )


PUSH = "If the agent refuses, push back firmly 3 times before you accept the outcome."


def test_the_refusal_that_meets_the_count_is_accepted() -> None:
    c = _caller(SEARCHES, [PUSH])
    first = c.respond(REFUSAL)
    assert not first.ends_call and first.kind == "pushback"
    second = c.respond("Unfortunately, I can't do that. That isn't something I'm able to do.")
    assert second.ends_call and second.rule == "failure_condition_end", second


def test_without_a_count_the_tree_answers_go_on() -> None:
    c = _caller("If the agent cannot help, say goodbye and end the call.", [PUSH])
    c.respond(REFUSAL)
    act = c.respond("Unfortunately, I can't do that. That isn't something I'm able to do.")
    assert not act.ends_call and act.rule == "tree_push_back", act


def test_the_met_count_asks_for_no_transfer() -> None:
    wants = "If the agent cannot rebook you, ask to be transferred to a live agent."
    c = _caller(SEARCHES, [], escalation=wants)
    c.respond(REFUSAL)
    act = c.respond("Unfortunately, I can't do that.")
    assert act.ends_call and act.rule != "escalation_asks_transfer"


def test_the_follow_up_question_named_is_the_callers_own() -> None:
    named = pattern("follow_up_named")
    assert named.search("If told no desks are free, ask exactly one follow-up question: whether")
    assert named.search("accept that outcome after one follow-up question.")
    assert named.search("ask one brief follow-up question about why")
    assert named.search("If told the seat is gone, ask a follow-up question: 'Is a later flight open?'")
    assert named.search("ask an additional question, then ask a short follow-up question")
    assert not named.search("Wait until the agent asks a follow-up question.")
    assert not named.search("Do not volunteer detailed symptoms until the agent asks follow-up questions.")
    assert not named.search("unless the agent asks a more specific follow-up question.")


def test_a_counted_pushback_is_not_spent_by_a_line_for_another_turn() -> None:
    steps = [
        "If the agent offers ONLY a hotel voucher (but no transportation), ask exactly ONE time: "
        "'Can you also arrange a shuttle to the hotel?'",
        "If the agent offers NEITHER and explains you are not eligible, push back exactly ONE time by "
        "saying you still need help because you are stuck overnight.",
    ]
    c = _caller("If the agent cannot help after your one pushback attempt, end the call.", steps)
    act = c.respond(REFUSAL)
    assert not act.ends_call and act.rule == "tree_push_back", act


def test_a_question_with_a_negation_refuses_nothing() -> None:
    assert not refuses(
        "Now, for your lockout, is your account locked, or has your password expired and you cannot reset it?"
    )
    assert refuses("I can\u2019t swap that shift, but would you like me to open a ticket?")
    assert refuses("I'm sorry, no eligible pre-FMLA range is available. I could open a ticket instead.")


def test_the_quoted_follow_up_is_asked_for_the_refusal_it_names() -> None:
    step = (
        "If the agent says they cannot unlock your account because of a security hold, ask exactly one "
        "follow-up question: 'Is there anything else that can be done today?'"
    )
    sc = make_scenario({"employee_id": "EMP551200"}, goal="You want your locked account unlocked.",
                       negotiation=[step], start="Hi, my account is locked.")  # fmt: skip
    other = opened(sc).respond(
        "There is no stable workaround for the outage right now. Now, for your account lockout, is it "
        "locked after too many sign-in attempts, or has your password expired and you cannot reset it?"
    )
    assert other.rule != "tree_scripted_line:0", other
    named = opened(sc).respond(
        "I cannot unlock your account because of a security hold. Would you like a feedback form instead?"
    )
    assert "anything else that can be done today" in named.text, named
