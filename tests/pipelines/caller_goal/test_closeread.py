"""A closing read-back's values, all the caller's; its question the turn's only one (:mod:`.closeread`)."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.closeread import action_to_come, only_question, unmatched_values
from voxbench.pipelines.caller.goal.facts import FactBook, goal_facts
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.readback import readbacks

INFO = {
    "employee_id": "EMP126225",
    "last_name": "Sharma",
    "date_of_birth": "1987-09-14",
    "monitor_size": "27_inch",
}


def _book() -> FactBook:
    sc = make_scenario(INFO, intents=["Get a new monitor"])
    return goal_facts(sc.user_goal.information_required, sc.seed_data)


def _bad(turn: str) -> list[str]:
    book = _book()
    return unmatched_values(turn, book, readbacks(turn, book)[0])


def test_values_all_its_own_leave_nothing_unmatched() -> None:
    assert _bad("So that's employee ID EMP126225, last name Sharma, S H A R M A, and date of birth "
                "September 14, 1987, correct?") == []  # fmt: skip
    assert _bad("To confirm, I have a 27-inch monitor for employee ID EMP126225. Is that correct?") == []


def test_a_value_none_of_its_own_is_unmatched() -> None:
    assert _bad("To confirm, I have a 24-inch monitor for employee ID EMP126225. Is that correct?") == [
        "I have a 24-inch monitor"
    ]
    assert _bad("To confirm, it's for Sarma, employee ID EMP126225. Is that correct?") == ["Sarma"]


def test_the_report_sentence_is_not_read_back() -> None:
    assert (
        _bad("Your request for Conference Room B has been submitted. To confirm, employee ID EMP126225?")
        == []
    )


def test_only_question_and_action_to_come() -> None:
    assert only_question("Done. Is that correct?")
    assert not only_question("Done. Is that correct? Would you like a docking station?")
    assert action_to_come("Before I submit it, let me read that back: EMP126225. Is that correct?")
    assert action_to_come("To confirm, EMP126225. Is that correct? Once you confirm I will submit it.")
    assert not action_to_come("Your request has been submitted. To confirm, EMP126225. Is that correct?")


def test_each_link_word_of_the_table_parts_two_values() -> None:
    """'Sharma for Sarma': the table's link words (``closeread.piece_links``) cut the read-back
    into pieces, so a wrong value beside a right one is a piece of its own, not hidden by it."""
    links = phrases("closeread", "piece_links")
    assert links
    for w in links:
        assert _bad(f"To confirm, that's Sharma {w} Sarma. Is that correct?") == ["Sarma."], w
    # no link word: one piece, and its wrong word is still found beside the right one
    assert _bad("To confirm, that's Sharma versus Sarma. Is that correct?") == ["that's Sharma versus Sarma."]


def test_a_right_value_in_a_piece_hides_no_wrong_one() -> None:
    """'employee ID EMP126225 gets a 24-inch monitor': one piece holding the caller's ID and a
    monitor size not its own (27-inch) is not all the caller's: the closing yes would confirm it."""
    assert _bad("To confirm, employee ID EMP126225 gets a 24-inch monitor. Is that correct?") == [
        "employee ID EMP126225 gets a 24-inch monitor."
    ]
    assert _bad("To confirm, employee ID EMP126225 gets a 27-inch monitor. Is that correct?") == []


def test_a_long_number_read_back_by_its_last_four_is_said_right() -> None:
    """'the phone ending in 4821': the read-back check reads the phone said right by its last four
    digits, and the closing read-back reads that piece by the same statement (``said_right``), so
    the two agree; four digits not its own stay a value none of the caller's."""
    sc = make_scenario({**INFO, "phone_number": "6175554821"}, intents=["Get a new monitor"])
    book = goal_facts(sc.user_goal.information_required, sc.seed_data)
    right = "To confirm, employee ID EMP126225, and the phone ending in 4821. Is that correct?"
    assert readbacks(right, book)[0] == ["employee_id", "phone_number"]
    assert unmatched_values(right, book, readbacks(right, book)[0]) == []
    other = right.replace("4821", "4829")
    assert unmatched_values(other, book, readbacks(other, book)[0]) == ["4829."]
