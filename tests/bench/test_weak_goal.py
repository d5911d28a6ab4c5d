"""The weak-agent class ``goal_open``: an open question the goal's own text answers, generated from
the tree's "if asked X, say Y" with the bench's own grammar and graded on the goal's words."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade, run_all
from voxbench.bench.weak_goal import named_facts, question_of, told_lines
from voxbench.bench.weak_turns import WeakItem, generate, table

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"confirmation_number": "ZK3FFW", "last_name": "Lima", "reason": "schedule conflict"}
TREE = [
    "When the agent asks why you are canceling, state: you had a medical emergency, but do not invent details.",
    "If asked for proof details, say you have hospital documentation.",
    "If the agent asks for your confirmation number, provide it exactly as listed in information_required.",
    "If asked what the conflict is, say schedule conflict.",
    "If asked for a seat preference, say you do not have a seat preference.",
]


def _told() -> list[tuple[str, str, str]]:
    t = table()
    assert t.goal_told is not None
    return told_lines(make_scenario(INFO, negotiation=TREE), t.goal_told, t.not_have)


def test_only_tree_answers_that_are_no_fact_and_say_something_it_has_are_read() -> None:
    told = {x: y for x, y, _ in _told()}
    assert told == {"why you are canceling": "you had a medical emergency",
                    "for proof details": "you have hospital documentation"}  # fmt: skip


def test_the_question_an_agent_asks_for_each() -> None:
    t = table().goal_told
    assert t is not None
    assert question_of("why you are canceling", t, 0) == "Why are you canceling?"
    assert question_of("what you want to change", t, 0) == "What do you want to change?"
    assert (
        question_of("what troubleshooting you already tried", t, 0)
        == "What troubleshooting have you already tried?"
    )
    assert question_of("for proof details", t, 0) == "Can you tell me proof details?"
    assert question_of("what happened", t, 0) == "What happened?"


def test_the_goals_words_or_a_fact_agree_and_i_dont_have_that_does_not() -> None:
    facts = goal_facts(INFO)
    ground = Grounding(INFO, " ".join(TREE))
    item = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="goal_open", act="goal_words",
                    turn="Why are you canceling?", words=["medical", "emergency"])  # fmt: skip
    assert grade(item, "I had a medical emergency.", False, facts, ground)[0]
    ok, why, _ = grade(item, "I'm afraid I don't have that.", False, facts, ground)
    assert not ok and "said it lacks it" in why and "the goal's answer not said" in why
    assert not grade(item, "I had a medical emergency. Goodbye.", True, facts, ground)[0]


def test_the_goal_caller_answers_the_generated_questions_from_its_goal() -> None:
    from voxbench.bench.callers import GoalRules

    sc = make_scenario(INFO, negotiation=TREE)
    assert {i.cls for i in generate("airline", sc)} >= {"goal_open"}
    rows = [r for r in run_all([("airline", sc)], GoalRules().make) if r.item.cls == "goal_open"]
    assert len(rows) == 2 and all(r.agrees for r in rows), [(r.item.turn, r.reply, r.why) for r in rows]
    assert {r.rule for r in rows} == {"goal_answers_open:told"}


def test_a_fact_stands_for_the_goals_answer_only_when_the_answer_names_it() -> None:
    """A fact of the caller's own that the answer does not name answers some other question: "Why
    are you canceling?" answered with the confirmation number fails; a fact whose key is a word of
    the answer ('reason' in 'say the reason on file') stands for it."""
    facts = goal_facts(INFO)
    ground = Grounding(INFO, " ".join(TREE))
    item = WeakItem(domain="airline", scenario_id="t.1", half="dev", cls="goal_open", act="goal_words",
                    turn="Why are you canceling?", words=["medical", "emergency"])  # fmt: skip
    ok, why, said = grade(item, "It's Z K three F F W.", False, facts, ground)
    assert said == ["confirmation_number"] and not ok and "the goal's answer not said" in why
    named = item.model_copy(update={"words": ["reason", "file"]})
    assert grade(named, "It's a schedule conflict.", False, facts, ground)[0]
    assert not grade(named, "My last name is Lima.", False, facts, ground)[0]
    assert named_facts(["reason", "last_name", "confirmation_number"], ["reason", "file"]) == ["reason"]


def test_the_goals_words_said_in_another_form_agree() -> None:
    """Issue 29: 'say you want to be added' answered 'It's add.', 'to debug' for 'debugging'."""
    facts = goal_facts(INFO)
    ground = Grounding(INFO, " ".join(TREE))
    item = WeakItem(domain="itsm", scenario_id="t.1", half="dev", cls="goal_open", act="goal_words",
                    turn="Can you tell me the action?", words=["added"])  # fmt: skip
    assert grade(item, "It's add.", False, facts, ground)[0]
    assert not grade(item, "It's an addition.", False, facts, ground)[0]
    item.words = ["production", "debugging"]
    assert grade(item, "I need to debug a production issue.", False, facts, ground)[0]


def test_an_answer_that_only_counts_or_wants_says_no_word_a_reply_must() -> None:
    """'say you have several requests': no content word a reply must say, so no item; 'say you want
    to be added': 'want' frames the answer, 'added' is it."""
    t = table()
    assert t.goal_told is not None
    tree = ["If asked what you need, say you have several requests.",
            "If the agent asks for the action, say you want to be added."]  # fmt: skip
    told = told_lines(make_scenario(INFO, negotiation=tree), t.goal_told, t.not_have)
    assert [y for _, y, _ in told] == ["you want to be added"]
