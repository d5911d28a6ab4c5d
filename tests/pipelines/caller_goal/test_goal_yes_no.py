"""Yes/no questions about the caller's own situation, answered from its goal's own text (goal/yesno.py)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.pipelines.caller.goal.yesno import GoalAnswers, asks_whether, proposition

from .conftest import make_scenario

_TREE = [
    "For the outage, if asked whether others are affected, say you do not know.",
    "If asked whether this blocks your work, say yes, because you cannot use CRM right now.",
    "If the agent asks whether you want to cancel instead, decline and restate that you only want the change.",
    "If asked whether the extension should be provisional or supervised, choose supervised.",
    "If the agent asks whether the issue is fixed, say it is still not fixed until the unlock is completed.",
    "Follow all troubleshooting steps in order and, after each step, state clearly that the issue is still not resolved.",
]


def _laptop(**kw: object) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP067248", "justification": "physical_damage"},
        goal="Your laptop screen is cracked and you need IT to log the hardware issue.",
        negotiation=_TREE,
        **kw,  # type: ignore[arg-type]
    )
    return GoalCaller(sc)


def _answers() -> GoalAnswers:
    return _laptop().s.answers


def test_the_trees_if_asked_whether_clause_answers_in_the_first_person() -> None:
    a = _answers().answer("Is this outage blocking your work right now?")
    assert a is not None and a.polarity == "yes"
    assert a.line == "Yes, because I cannot use CRM right now."


def test_the_tree_says_it_does_not_know_and_declines() -> None:
    a = _answers().answer("Are other users affected?")
    assert a is not None and (a.polarity, a.line) == ("unknown", "I don't know.")
    b = _answers().answer("Do you want to cancel instead?")
    assert b is not None and (b.polarity, b.line) == ("no", "No.")


def test_words_the_tree_tells_it_to_say_are_said() -> None:
    a = _answers().answer("Is the issue fixed now?")
    assert a is not None and a.polarity == "said" and a.line == "It is still not fixed."


def test_a_statement_of_the_goal_answers_by_its_polarity() -> None:
    a = _answers().answer("After it powers back up, is the issue resolved?")
    assert a is not None and (a.polarity, a.line) == ("no", "No, the issue is still not resolved.")
    b = _answers().answer("Is your laptop screen cracked?")
    assert b is not None and (b.polarity, b.line) == ("yes", "Yes, my laptop screen is cracked.")


def test_what_the_goal_does_not_hold_clearly_gets_no_answer() -> None:
    ga = _answers()
    assert ga.answer("Does the external display work normally?") is None  # never mentioned
    assert ga.answer("Is your laptop screen working?") is None  # 'working': a word no clause holds
    assert ga.answer("Isn't the issue resolved?") is None  # negated: a yes would be ambiguous
    assert ga.answer("Should it be provisional or supervised?") is None  # a choice, not a yes/no
    assert ga.answer("Is it?") is None  # too few words to match


def test_every_word_said_is_the_goals_own() -> None:
    c = _laptop()
    goal = (
        " ".join([c.scenario.user_goal.high_level_user_goal, *_TREE])
        .replace("you", "I")
        .replace("your", "my")
    )
    allowed = content_words(goal) | {"yes", "don't", "know"}
    for q in ("Is this blocking your work?", "Is the issue resolved?", "Is your laptop screen cracked?"):
        a = c.s.answers.answer(q)
        assert a is not None and content_words(a.line) <= allowed, a.line


def test_a_whether_imperative_asks_no_fact_its_words_name() -> None:
    """'issue' names the justification fact (a synonym); 'let me know whether the issue is
    resolved' asks whether, not for the justification."""
    assert asks_whether("Once you've checked that, let me know whether the issue is resolved.")
    assert asks_whether("After it powers back up, is the issue resolved?")
    assert not asks_whether("Do you have your employee ID?")  # 'have': asks for the value
    assert not asks_whether("Could you confirm your date of birth?")
    assert not asks_whether("Is your account locked, or is the password expired?")  # alternatives
    assert not asks_whether("What is the issue?")
    assert not asks_whether("Please read me the code again, and let me know whether the issue is resolved.")
    assert (
        proposition("Once you've checked that, let me know whether the issue is resolved.")
        == "the issue is resolved."
    )
    book = goal_facts({"justification": "physical_damage", "employee_id": "EMP067248"})
    heard = classify("Once you've checked that, let me know whether the issue is resolved.", book)
    assert "justification" not in heard.asked and not heard.has("request")
    heard = classify("Do you have your employee ID?", book)
    assert heard.asked == ["employee_id"]
    heard = classify("Is the employee ID on file current?", book)  # named by its own key words: asked
    assert heard.asked == ["employee_id"]


def test_the_caller_says_the_goals_answer_not_a_fact() -> None:
    c = _laptop()
    c.open()
    act = c.respond("Last step: please confirm the laptop is using a known good power source. "
                    "Once you've checked that, let me know whether the issue is resolved.")  # fmt: skip
    assert act.rule == "goal_answers_yes_no:no" and act.text == "No, the issue is still not resolved."
    assert act.kind == "confirm" and act.choice == "no" and act.facts == []
    assert "goal_text:the issue is still not resolved" in act.rules  # why, in the caller_act trail


def test_a_grounded_answer_is_progress_and_unclear_ones_stay_not_sure() -> None:
    """Answered from the goal, the turn is no unanswerable question: three yes/no questions in a
    row, one of them answered, do not end the call as no progress."""
    c = _laptop()
    c.open()
    assert c.respond("Does the external display work normally?").rule == "not_sure_yes_no"
    assert c.respond("Is the issue resolved?").rule == "goal_answers_yes_no:no"
    act = c.respond("Are you on Wi-Fi right now on your work device?")
    assert act.rule == "not_sure_yes_no" and not act.ends_call


def test_the_goals_i_dont_know_is_said_and_is_no_progress() -> None:
    c = _laptop()
    c.open()
    acts = [c.respond("Are other users affected?") for _ in range(3)]
    assert acts[0].rule == "goal_answers_yes_no:unknown" and acts[0].text == "I don't know."
    assert acts[0].kind == "cannot_answer" and acts[-1].ends_call  # asked again and again: it gives up
    assert any(r.startswith("goal_text:") and "others are affected" in r for r in acts[0].rules)
    assert not any(r.startswith("goal_text:") for r in acts[-1].rules)  # the end act is no goal answer


def test_any_instruction_then_an_outcome_question_is_a_troubleshooting_step() -> None:
    """'Let me know whether/if ...' after an instruction asks how the step went, whatever its verb."""
    from voxbench.pipelines.caller.goal.turn import Turn

    steps = [
        "Next, please reseat the cables. When that's done, tell me if anything changes.",
        "Step four: please try another charger now. Let me know the result.",
        "Please switch to a hotspot and test the VPN again. Let me know what happens.",
    ]
    assert all(Turn.of(t).troubleshooting() for t in steps)
    not_steps = [
        "Please give me your employee ID. Let me know if you have any questions.",
        "Before I submit it, please confirm that you want me to proceed. Also, tell me whether it should be shipped.",
        "Please hold for a moment. Let me know if you need anything.",
    ]
    assert not any(Turn.of(t).troubleshooting() for t in not_steps)


def test_the_noun_work_is_no_step_that_fixes_the_issue() -> None:
    from voxbench.pipelines.caller.goal.tree import read_tree

    noun = ["Mention that the damaged screen is blocking normal work on the laptop."]
    assert not read_tree([], [], noun, [], "", "").fixing_words
    fixes = [
        "Forgetting the saved network and reconnecting fixes the issue.",
        "After a restart it will work again.",
    ]
    assert {"forgett", "network", "restart"} <= read_tree([], [], fixes, [], "", "").fixing_words


def test_the_tree_says_how_each_step_went() -> None:
    c = _laptop()
    c.open()
    act = c.respond(
        "Thanks. Next, please reseat the display cable. When that's done, tell me if anything changes."
    )
    assert act.rule == "tree_step_does_not_fix" and act.choice == "not_fixed"
