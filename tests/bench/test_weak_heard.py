"""The weak-agent classes of turns heard through speech recognition (:mod:`voxbench.bench.weak_heard`):
generated from a scenario's own facts, graded by the acts they expect."""

from __future__ import annotations

from voxbench.bench.weak_check import act_problem
from voxbench.bench.weak_heard import cut
from voxbench.bench.weak_turns import generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "confirmation_number": "ZK3FFW",
    "employee_id": "EMP031482",
    "desired_floor": "FL3",
    "diagnostic_ref_code": "DIAG-4NB82VWK",
}


def _items(cls: str) -> list:  # type: ignore[type-arg]
    return [i for i in generate("itsm", make_scenario(INFO)) if i.cls == cls]


def test_a_word_is_cut_to_its_first_letters_an_acronym_before_its_last() -> None:
    assert cut("confirmation", 4) == "conf"
    assert cut("dea", 4) == "DE"
    assert cut("first", 4) == ""  # nothing would be left out worth the name
    assert cut("id", 4) == ""


def test_statement_read_backs_are_the_turns_last_sentence_without_a_question() -> None:
    right, wrong = _items("statement_right"), _items("statement_changed")
    assert right and wrong
    assert all("?" not in i.turn and i.act == "yes" for i in right)
    assert all("?" not in i.turn and i.act == "correct" and len(i.must) == 1 for i in wrong)
    floor = [i for i in right if "floor" in i.turn]
    assert (
        not floor or "want" in floor[0].turn or "like" in floor[0].turn
    )  # a wanted fact is read back as a want
    assert all(i.act == "acknowledge" for i in _items("statement_report"))


def test_a_cut_request_never_cuts_to_a_token_of_the_callers_own_values() -> None:
    items = _items("cut_request")
    assert items and all(i.act == "ask_again" for i in items)
    assert not any(i.turn.lower().rstrip(".").endswith(" diag") for i in items)  # 'DIAG' is its own value's


def test_preference_questions_are_about_its_own_preference_and_a_topic_it_lacks() -> None:
    held, free = _items("have_preference"), _items("have_no_preference")
    assert [i.must for i in held] == [["desired_floor"]] and "floor" in held[0].turn
    assert free and all("floor" not in i.turn and i.act == "no" for i in free)


def test_the_new_acts_read_the_reply() -> None:
    assert act_problem("acknowledge", "Thanks. One more thing: I need a desk.", False) == ""
    assert act_problem("acknowledge", "Yes, one more thing: I need a desk.", False) != ""
    assert act_problem("ask_again", "Sorry, you need my what?", False) == ""
    assert act_problem("ask_again", "I'm afraid I don't have that.", False) != ""
    assert act_problem("no", "No, I don't have one.", False) == ""
    assert act_problem("no", "I'm not sure.", False) != ""
