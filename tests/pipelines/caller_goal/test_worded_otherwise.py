"""A request worded another way asks for the same facts (``benchmarks/caller_paraphrase.py``): a
fact's name said in one word or phrase that stands for several of its key's words, a request said
as a noun phrase and 'please' or as 'Go ahead with your X', a list the agent 'still needs', and two
requests in one turn each asking their own."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.asks import asked_facts, is_request, words_of
from voxbench.pipelines.caller.goal.facts import goal_facts, said_expansions

from .conftest import make_scenario, opened

INFO = {
    "first_name": "Ana",
    "last_name": "Lima",
    "employee_id": "EMP091654",
    "date_of_birth": "1990-03-14",
    "dependent_first_name": "Rohan",
    "dependent_last_name": "Desai",
    "delivery_building": "Headquarters",
    "delivery_floor": "floor 2",
}
BOOK = goal_facts(INFO)


def _caller():  # type: ignore[no-untyped-def]
    return opened(make_scenario(INFO, goal="You want to add your spouse to your benefits.",
                                start="Hi, I need to add my spouse to my benefits."))  # fmt: skip


def _asked(sentence: str) -> set[str]:
    return {k for k, _ in asked_facts(sentence, BOOK)}


def test_a_word_standing_for_several_key_words_names_the_fact() -> None:
    """The expansion table a key is read by ('dob' -> date, birth) is read from what is said too."""
    assert said_expansions(" your dob ") == ["date", "birth"]
    assert said_expansions(" your family name ") == ["last", "name"]
    assert said_expansions(" your name ") == []
    ws, flat = words_of("And your surname?")
    assert {"last", "name"} <= ws and " last name " in flat
    assert _asked("What is your DOB?") == {"date_of_birth"}
    assert _asked("And your birthday?") == {"date_of_birth"}
    assert _asked("Could I have your surname, please?") == {"last_name"}
    assert _asked("What's the family name on the account?") == {"last_name"}
    assert _asked("What is your given name?") == {"first_name"}
    assert _asked("And your spouse's surname?") == {"dependent_last_name"}  # the spouse's, not the caller's


def test_the_caller_answers_a_fact_named_by_an_expansion() -> None:
    act = _caller().respond("Please give me your employee ID and your DOB.")
    assert set(act.facts) == {"employee_id", "date_of_birth"}
    act = _caller().respond("Great. What's your surname?")
    assert "last_name" in act.facts and "Lima" in act.text
    assert act.facts == _caller().respond("Great. What's your last name?").facts  # said as for its own name


def test_a_thing_named_by_a_head_noun_and_please_is_a_request() -> None:
    assert is_request("Employee ID and date of birth, please.")
    assert is_request("Your six-character confirmation number, please.")
    assert not is_request("One moment, please.")  # no head noun
    assert not is_request("Please.")
    assert not is_request("I'll check that name, please.")  # a clause of its own
    act = _caller().respond("Thanks. Employee ID, please.")
    assert act.facts == ["employee_id"]


def test_go_ahead_with_your_x_and_i_still_need_x_ask() -> None:
    assert is_request("Go ahead with your employee ID.")
    assert is_request("I still need the delivery building and floor.")
    assert not is_request("Go ahead.")
    act = _caller().respond("Go ahead with your employee ID.")
    assert act.facts == ["employee_id"]
    act = _caller().respond("Thanks. I still need the delivery building and floor.")
    assert set(act.facts) == {"delivery_building", "delivery_floor"}


def test_a_request_after_another_asks_its_own_not_the_first_one_s_words() -> None:
    """'Please spell your spouse's first name. And your spouse's last name.': the first request
    does not borrow 'last name' from the second to ask the caller's own last name."""
    act = _caller().respond("Please spell your spouse's first name for me. And your spouse's last name.")
    assert set(act.facts) == {"dependent_first_name", "dependent_last_name"}
    joined = _caller().respond("Please spell your spouse's first name and last name for me.")
    assert set(joined.facts) == set(act.facts)
