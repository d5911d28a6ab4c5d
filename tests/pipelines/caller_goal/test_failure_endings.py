"""The two failure cases that end the goal caller's call at once (:mod:`voxbench.pipelines.caller.goal.told`):
told what its tree says to accept and end on, and the agent's own error; and the turns that only
look like them (a conditional invitation, a courtesy after a report, an error it will retry)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.told import agent_error, tells, told_to_end
from voxbench.pipelines.caller.goal.tree import content_words

from .conftest import make_scenario

INFO = {"employee_id": "EMP551903", "phone_last_four": "6620"}
TOLD = "Never ask for a manager. Should you be told to go to the badge office in person or to phone again tomorrow, accept it and say goodbye."
INTENTS = ["Renew my parking badge", "Update my desk location"]


def _caller(escalation: str = TOLD, intents: list[str] | None = INTENTS) -> GoalCaller:
    sc = make_scenario(INFO, goal="You want your parking badge renewed and your desk location updated.",
                       escalation=escalation, intents=intents, start="Hi, I have a badge question.")  # fmt: skip
    caller = GoalCaller(sc)
    caller.open()
    return caller


def test_the_tree_line_gives_each_thing_told_by_its_words() -> None:
    told = told_to_end([TOLD, "If you are told to wait, accept that."])  # no ending said: not read
    said = ["go to the badge office in person", "phone again tomorrow"]
    assert told == [frozenset(content_words(x)) for x in said]


def test_a_statement_says_a_thing_told_but_a_question_or_a_condition_does_not() -> None:
    told = told_to_end([TOLD])
    assert tells(told, "Sorry, that has to happen at the badge office, in person.")
    assert tells(told, "You'll have to phone us again tomorrow.")
    assert not tells(told, "Can you phone again tomorrow?")
    assert not tells(told, "Once the permit clears, phone again tomorrow and we'll finish it.")
    assert not tells(told, "The front office is open today.")  # one word of three
    caller = _caller()  # two of three, in a turn that refuses nothing: no ending
    assert not caller.respond("The badge office is open today. Can I have your employee ID?").ends_call


def test_a_refusal_that_tells_it_ends_the_call_with_a_request_still_open() -> None:
    caller = _caller()
    act = caller.respond(
        "I'm afraid I cannot renew parking badges here. You need to visit the badge office in person."
    )
    assert act.ends_call and act.rule == "told_to_end" and act.end_reason == "failed"


def test_a_refusal_without_it_asks_its_follow_up_first() -> None:
    caller = _caller()
    act = caller.respond("I'm afraid I cannot renew parking badges here.")
    assert not act.ends_call


def test_a_conditional_invitation_back_is_no_such_telling() -> None:
    caller = _caller()
    act = caller.respond(
        "I can't renew the badge until the permit clears. If it clears, phone again tomorrow and I'll finish it."
    )
    assert not act.ends_call


def test_a_courtesy_after_a_report_is_no_refusal() -> None:
    caller = _caller()
    act = caller.respond(
        "Your parking badge has been renewed. If anything comes up, feel free to phone again tomorrow."
    )
    assert not act.ends_call and "desk" in act.text.lower()


def test_the_agents_error_ends_the_call() -> None:
    assert agent_error("Apologies, our system ran into an unexpected error while saving that.")
    assert not agent_error("Sorry, I hit an error there. Let me try that again.")
    assert not agent_error("What error do you get when you sign in?")
    assert not agent_error("I ran into an error. Could you repeat your employee ID?")
    caller = _caller(escalation="Do not ask for a manager.")
    act = caller.respond("Apologies, our system ran into an unexpected error while saving that.")
    assert act.ends_call and act.rule == "agent_error_end" and act.end_reason == "failed"


WANTS = "If the agent still refuses after you ask again, ask to be transferred to a live agent. If transfer is impossible, say goodbye."


def test_a_refusal_that_stands_gets_the_transfer_the_escalation_rule_asks_for() -> None:
    caller = _caller(escalation=WANTS, intents=["Renew my parking badge"])
    refusal = "I'm afraid parking badges cannot be renewed this month."
    first = caller.respond(refusal)
    assert not first.ends_call and first.kind == "pushback"
    second = caller.respond("As I said, no badge renewals are possible this month.")
    assert second.rule == "escalation_asks_transfer" and "live agent" in second.text and not second.ends_call
    third = caller.respond(
        "I'm sorry, that is not something I can do, and the renewal is still not possible."
    )
    assert third.ends_call and third.end_reason == "failed"


def test_the_same_refusal_verbatim_gets_the_transfer_ask_once() -> None:
    caller = _caller(escalation=WANTS, intents=["Renew my parking badge"])
    refusal = "I'm afraid parking badges cannot be renewed this month."
    rules = [caller.respond(refusal).rule for _ in range(4)]
    assert rules.count("escalation_asks_transfer") == 1 and caller.ended


def test_no_transfer_is_asked_where_the_rule_forbids_one() -> None:
    caller = _caller(
        escalation="Do not ask for a live agent or a transfer.", intents=["Renew my parking badge"]
    )
    refusal = "I'm afraid parking badges cannot be renewed this month."
    acts = [caller.respond(refusal) for _ in range(3)]
    assert not any("transfer" in a.text.lower() and "live agent" in a.text.lower() for a in acts)
