"""Values as a speech recogniser writes the agent's words: the caller hears the same value in each
form, and corrects none said right ('1 million dollars' for $1,000,000, a number read in chunks
'33423, then three one four four four', digits cut at a comma) nor takes a spelled code for a
number ('F-L-2'); a value said wrong in any of those forms is still corrected
(``benchmarks/caller_asr_forms.py`` measures it over the bench's turns)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.readback import misread, readbacks, same_kind_other
from voxbench.pipelines.caller.goal.stated import misstated
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.spoken import mentions, money, runs

from .conftest import make_scenario, opened

INFO = {
    "npi": "7116096874",
    "supervising_physician_npi": "3342331444",
    "per_occurrence_limit_usd": 1000000,
    "aggregate_limit_usd": 3000000,
}
BOOK = goal_facts(INFO)


def test_digits_before_a_scale_word_are_the_amount() -> None:
    assert money("Per occurrence limit: 1 million dollars.") == [1_000_000.0]
    assert money("Per occurrence limit: one million dollars.") == [1_000_000.0]
    assert mentions("The aggregate limit is 3 million dollars.", "3000000")
    assert not mentions("The aggregate limit is 2 million dollars.", "3000000")


def test_a_number_read_in_chunks_joins_across_then() -> None:
    assert "3342331444" in "".join(runs("physician NPI 33423, then three one four four four."))
    assert mentions("with supervising physician NPI 33423, then three one four four four.", "3342331444")
    assert mentions("N P I three three four two three, then three one four four four.", "3342331444")
    assert runs("then we are done") == ["then", "we", "are", "done"]  # no code before it: a word


def test_amounts_written_with_digits_are_not_misread() -> None:
    text = (
        "Per occurrence limit: 1 million dollars. Aggregate limit: 3 million dollars. Do I have that right?"
    )
    assert misread(text, BOOK) == {}
    wrong = (
        "Per occurrence limit: 2 million dollars. Aggregate limit: 3 million dollars. Do I have that right?"
    )
    assert set(misread(wrong, BOOK)) == {"per_occurrence_limit_usd"}


def test_digits_cut_at_a_comma_are_the_value_said_right() -> None:
    assert misread("I have your NPI as 7 1 1 6 0, 9 6 8 7 4.", BOOK) == {}
    assert set(misread("I have your NPI as 7 1 1 6 0, 9 6 8 7 5.", BOOK)) == {"npi"}


def test_a_chunked_number_said_right_is_not_misstated() -> None:
    assert misstated(["I'm ready to submit it with supervising physician NPI 33423, then three one four four four."],
                     BOOK) == {}  # fmt: skip
    found = misstated(["I'm ready to submit it with supervising physician NPI 33423, then three one four four five."],
                      BOOK)  # fmt: skip
    assert set(found) == {"supervising_physician_npi"}


def test_a_spelled_code_is_not_a_number() -> None:
    for seg in ("FL2", "F-L-2", "F L 2"):
        assert not same_kind_other(seg, "3", "number")
    assert same_kind_other("2", "3", "number")


def test_the_caller_confirms_a_read_back_heard_with_digits() -> None:
    caller = opened(make_scenario(INFO, goal="You want to update your malpractice coverage.",
                                  start="Hi, I need to update my malpractice coverage."))  # fmt: skip
    act = caller.respond("Per occurrence limit: 1 million dollars. Aggregate limit: 3 million dollars. "
                         "Do I have that exactly right?")  # fmt: skip
    assert act.kind != "correct"
    assert act.choice == "yes"


def test_spelled_letters_written_as_one_word_are_the_code() -> None:
    """'O K, then one zero zero' heard 'OK, then one zero zero': the code, and no correction."""
    assert mentions("Your DEA number is OK, then one zero zero, then six eight one zero.", "OK1006810")
    assert not mentions("Your DEA number is OK, then one zero zero, then six eight one one.", "OK1006810")
    book = goal_facts({"dea_number": "OK1006810"})
    assert misstated(["Your DEA number is OK, then one zero zero, then six eight one zero."], book) == {}
    assert set(misstated(["Your DEA number is OK, then one zero zero, then six eight one one."], book)) == {
        "dea_number"
    }


def test_a_long_code_read_back_with_one_digit_missed_is_a_near_miss() -> None:
    book = GoalCaller(make_scenario({"supervising_physician_npi": "3342331444"})).book
    _, wrong = readbacks("Let me read that back: three three four two three, then one four four four.", book)
    assert wrong == ["supervising_physician_npi"]
    _, wrong = readbacks("Let me read that back: three four two three one four.", book)
    assert wrong == []  # four digits missing: another number, not a mishearing


def test_a_phone_number_read_back_two_digits_off_is_a_near_miss_whatever_its_signs() -> None:
    """'+1-206-555-0334' is no code by its '+', yet it is said digit by digit as one is."""
    for phone in ("+1-206-555-0334", "+1 206 555 0334"):
        book = GoalCaller(make_scenario({"passenger_phone_number": phone})).book
        _, wrong = readbacks("Let me read that back slowly: +1-206-555-0367. Is that correct?", book)
        assert wrong == ["passenger_phone_number"], phone
        ok, wrong = readbacks("Let me read that back slowly: +1-206-555-0334. Is that correct?", book)
        assert (ok, wrong) == (["passenger_phone_number"], []), phone
    book = GoalCaller(make_scenario({"max_cost": "$1,200"})).book
    assert readbacks("The total is $1,210. Would you like to proceed?", book)[1] == []  # an amount, no code


def test_a_wrong_phone_number_read_back_alone_is_corrected() -> None:
    c = GoalCaller(
        make_scenario({"confirmation_number": "ZK3FFW", "passenger_phone_number": "+1-206-555-0334"})
    )
    c.open()
    act = c.respond("Let me read that back slowly: +1-206-555-0367. Is that correct?")
    assert act.kind == "correct" and act.choice == "no" and act.rule == "correct_wrong_readback"


def test_a_question_in_question_order_is_a_question_without_its_mark() -> None:
    t = Turn.of("I found your booking. Would you like a window seat.")
    assert t.questions == ["Would you like a window seat?"]
    assert Turn.of("Your seat is confirmed.").questions == []


def test_asked_to_repeat_a_value_it_read_back_wrong_it_says_that_one() -> None:
    """Not its own NPI, whose name the request also says (dev medical_hr 1.1)."""
    c = GoalCaller(make_scenario({"npi": "3746317213", "supervising_physician_npi": "3342331444"}))
    c.open()
    act = c.respond("Let me read that back: three three four two three, then one four four four. "
                    "I may have missed a digit. Please repeat the full ten digit N P I slowly.")  # fmt: skip
    assert act.facts == ["supervising_physician_npi"]
    assert "three seven four six" not in act.text
