"""The gate's withheld-fact check reads whose value a question asks for."""

from __future__ import annotations

from voxbench.eval.offline._caller_facts import _whose_field

FIELDS = {
    "Your confirmation number": "383S8U",
    "Your last name": "Park",
    "Husband's name": "David Park",
    "date_of_birth": "1990-01-02",
    "dependent_date_of_birth": "1992-03-04",
    "relationship": "spouse",
}


def test_a_question_about_another_persons_value_is_not_about_the_callers() -> None:
    q = "Could you provide the confirmation number and last name of your husband?"
    assert _whose_field(q, "Your confirmation number", FIELDS) is None  # the caller holds no such value


def test_another_persons_field_of_the_same_words_is_the_one_asked() -> None:
    q = "What is your spouse's date of birth?"
    assert _whose_field(q, "date_of_birth", FIELDS) == "dependent_date_of_birth"


def test_a_person_named_but_not_as_owner_changes_nothing() -> None:
    assert (
        _whose_field("What is your relationship to the dependent?", "relationship", FIELDS) == "relationship"
    )
    assert _whose_field("What is your confirmation number?", "Your confirmation number", FIELDS) == (
        "Your confirmation number"
    )
