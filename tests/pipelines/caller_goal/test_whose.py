"""Whose fact a request asks for (:mod:`voxbench.pipelines.caller.goal.whose`): the caller's own or
another person's that the scenario gives it, read from the owner the request names before or after
the field ('his', 'your spouse's', 'the new hire's', 'your', 'of your dependent')."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.whose import owner_of, owner_words, same_field

_TRAVEL = {
    "Your booking code": "Q7T2LM",
    "Your last name": "Ortega",
    "Wife's name": "Lena Ortega",
    "Wife's travel date": "2026-05-02",
    "Wife's airline": "Northwind",
}
_SWAP = {
    "first_name": "Ines",
    "date_of_birth": "1988-02-11",
    "employee_id": "EMP440122",
    "coworker_employee_id": "EMP551903",
    "shift_date": "2026-07-03",
}
_FAMILY = {
    "first_name": "Tomas",
    "last_name": "Reyes",
    "date_of_birth": "1985-06-30",
    "employee_id": "EMP300215",
    "child_first_name": "Alba",
    "child_date_of_birth": "2019-10-04",
    "relationship": "daughter",
}
_MANAGER = {
    "employee_id": "EMP120044",
    "manager_auth_code": "R2D4K8",
    "new_hire_id": "EMP377810",
    "departing_employee_id": "EMP288413",
    "department_code": "OPS",
    "start_date": "2026-09-01",
    "last_working_day": "2026-08-28",
}


def _asked(info: dict[str, object], text: str, given: set[str] | None = None) -> list[str]:
    return classify(text, goal_facts(info), given or set()).asked


def test_a_key_names_its_owner_and_its_field() -> None:
    book = goal_facts(_MANAGER)
    assert owner_words("departing_employee_id") == ("departing employee", ("id",))
    assert owner_words("Wife's travel date") == ("wife", ("travel", "date"))
    assert owner_of(book.get("manager_auth_code")) == ""  # the caller's own role, not another person
    own, other = book.get("employee_id"), book.get("departing_employee_id")
    assert own is not None and other is not None and same_field(own, other)


def test_another_persons_field_the_caller_lacks_is_not_its_own() -> None:
    """'his booking code' (live: the husband's, answered with the caller's own)."""
    assert _asked(_TRAVEL, "To look up your wife's trip, I'll need her booking code.") == []
    assert _asked(_TRAVEL, "What is your wife's booking code?") == []
    assert _asked(_SWAP, "Could you give me your coworker's date of birth, please?") == []
    assert _asked(_TRAVEL, "What is your booking code?") == ["Your booking code"]


def test_another_persons_fact_is_asked_by_its_owner() -> None:
    assert _asked(_TRAVEL, "What is her name?") == ["Wife's name"]
    assert _asked(_TRAVEL, "I can look up your wife's flight. What is her travel date?") == [
        "Wife's travel date"
    ]
    assert _asked(_SWAP, "To set up the swap, I'll need their employee ID.") == ["coworker_employee_id"]
    assert _asked(_FAMILY, "What is the date of birth of your child?") == ["child_date_of_birth"]
    assert _asked(_MANAGER, "Please give me the departing employee's employee I D.") == [
        "departing_employee_id"
    ]
    assert _asked(_MANAGER, "Now, what is the new hire's ID?") == ["new_hire_id"]


def test_your_field_is_the_callers_own_beside_another_persons() -> None:
    assert _asked(_SWAP, "Before we get to your coworker's details, what is your employee ID?") == [
        "employee_id"
    ]
    assert _asked(_FAMILY, "Before we add your child, what is your first name?") == ["first_name"]
    assert _asked(_MANAGER, "What is your employee ID?") == ["employee_id"]


def test_a_role_noun_of_no_other_person_is_the_caller() -> None:
    """'the passenger's' where the caller holds facts of a wife only: its own; 'the employee's'
    beside a departing employee: that person's."""
    assert _asked(_TRAVEL, "What is the passenger's last name?") == ["Your last name"]
    assert "departing_employee_id" in _asked(_MANAGER, "What is the employee's ID?")


def test_a_word_of_the_matter_asked_about_another_person_stays() -> None:
    """'her relationship to you': the caller's word for it (daughter), no fact a person has."""
    assert _asked(_FAMILY, "What is her relationship to you?") == ["relationship"]


def test_the_callers_facts_about_the_other_person_stay() -> None:
    """The new hire's start date, the departing employee's last day and department are the
    caller's facts about them (no field each person has of their own): asked by their owner, given."""
    assert _asked(_MANAGER, "What is the new hire's start date?") == ["start_date"]
    assert _asked(_MANAGER, "And what is the departing employee's last working day?") == ["last_working_day"]
    assert _asked(_MANAGER, "What is their department code?") == ["department_code"]


def test_a_scenario_of_one_person_is_read_as_before() -> None:
    info = {"employee_id": "EMP100200", "date_of_birth": "1990-01-01"}
    assert _asked(info, "What is his employee ID?") == ["employee_id"]
