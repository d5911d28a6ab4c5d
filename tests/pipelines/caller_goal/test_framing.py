"""Each fact framed by its class (:mod:`voxbench.pipelines.caller.goal.framing`): no fact key read
out where a person would not say it, a label kept where it tells facts apart or names a fact
volunteered unasked; every frame passes the speech checker (:func:`.speech.said_problems`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from tests.pipelines.caller_goal.test_speech import resolved_scenarios
from voxbench.pipelines.caller.goal.framing import ReplyFacts, frame_of, narrowed, without_thing_name
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import said_problems

SEEDS = range(4)


def _caller(info: dict[str, Any], seed: int = 0) -> GoalCaller:
    from voxbench.pipelines.caller.goal.policy import GoalCallerConfig

    return GoalCaller(make_scenario(info), GoalCallerConfig(seed=seed))


def _said(c: GoalCaller, keys: list[str], turn: str = "", asked: list[str] | None = None) -> str:
    """The reply's sentences, checked: each value said, no other value, nothing spelled."""
    text = c.say.answer(keys, turn, keys if asked is None else asked, turn)
    disclosed = {k: f.value for k in keys if (f := c.book.get(k)) is not None}
    others = {f.key: f.value for f in c.book if f.key not in disclosed}
    assert said_problems(text, disclosed, others, c.say.acronyms) == [], text
    return text


@pytest.mark.parametrize("seed", SEEDS)
def test_asked_alone_the_value_is_said_without_its_key(seed: int) -> None:
    c = _caller({"zone_name": "Executive Garage", "employee_id": "EMP4471"}, seed)
    text = _said(c, ["zone_name"], "For parking, what zone or garage do you prefer?")
    assert text in ("Executive Garage.", "It's Executive Garage.")
    assert _said(c, ["employee_id"], "What is your employee ID?") in (
        "E M P four four seven one.", "It's E M P four four seven one.")  # fmt: skip


@pytest.mark.parametrize("seed", SEEDS)
def test_asked_with_others_the_label_is_the_agents_words(seed: int) -> None:
    c = _caller(
        {"malpractice_effective_date": "2026-08-15", "malpractice_expiration_date": "2027-08-15"}, seed
    )
    text = _said(c, ["malpractice_effective_date", "malpractice_expiration_date"],
                 "Please give me the effective date and the expiration date.")  # fmt: skip
    assert "effective date is August 15, 2026" in text and "expiration date is August 15, 2027" in text
    assert "malpractice" not in text


@pytest.mark.parametrize("seed", SEEDS)
def test_two_values_read_letter_by_letter_are_never_said_bare_side_by_side(seed: int) -> None:
    """'E M P zero nine five. Seven seven six one.' runs into one code, to a listener as to the bench."""
    c = _caller({"employee_id": "EMP095417", "phone_last_four": "7761"}, seed)
    text = _said(c, ["employee_id", "phone_last_four"],
                 "Please tell me your employee ID, and the last four digits of your phone number on file.")  # fmt: skip
    assert "employee ID is E M P" in text and "last four" in text


@pytest.mark.parametrize("seed", SEEDS)
def test_the_value_alone_only_when_the_reply_says_one_fact(seed: int) -> None:
    """'My name's William Kim. It's X X F six O H.': after another fact, 'it' names nothing."""
    c = _caller({"confirmation_number": "XXF6OH", "first_name": "William", "last_name": "Kim"}, seed)
    text = _said(c, ["confirmation_number", "last_name", "first_name"],
                 "What is your confirmation number, and the passenger's last name?",
                 ["confirmation_number", "last_name"])  # fmt: skip
    assert "confirmation number is X X F six O H" in text and "William Kim" in text


@pytest.mark.parametrize("seed", SEEDS)
def test_whose_fact_it_is_is_never_narrowed_away(seed: int) -> None:
    c = _caller({"dependent_first_name": "Rohan", "relationship": "child"}, seed)
    text = _said(
        c, ["dependent_first_name", "relationship"], "What is the relationship to you: spouse or child?"
    )
    assert "dependent first name is Rohan" in text  # not 'My first name is Rohan.'


@pytest.mark.parametrize("seed", SEEDS)
def test_a_description_is_said_as_the_callers_own_sentence(seed: int) -> None:
    c = _caller(
        {"issue_description": "VPN keeps disconnecting every 30 minutes", "justification": "end of life"},
        seed,
    )
    for asked in ([], ["issue_description"]):
        text = _said(c, ["issue_description"], "", asked)
        assert "description" not in text.lower()
        assert "V P N keeps disconnecting every 30 minutes." in text  # an acronym spelled
    assert _said(c, ["justification"], "What's wrong with it?") == "It's end of life."


def test_a_value_that_names_itself_is_said_alone() -> None:
    c = _caller({"verification_action": "initial verification", "document_list": "List A"})
    assert _said(c, ["verification_action"], "", []) == "Initial verification."


@pytest.mark.parametrize("seed", SEEDS)
def test_a_measure_is_said_as_one_word_with_its_thing(seed: int) -> None:
    c = _caller({"laptop_size": "14_inch", "preferred_os": "windows"}, seed)
    assert _said(c, ["laptop_size"], "", []) in ("A 14-inch laptop.", "I need a 14-inch laptop.")
    assert _said(c, ["laptop_size"], "What screen size do you want?") in ("14-inch.", "It's 14-inch.")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_kind_of_a_thing_is_said_with_the_thing(seed: int) -> None:
    c = _caller({"access_level": "standard", "extension_type": "provisional"}, seed)
    assert _said(c, ["access_level"], "", []) in ("Standard access.", "Standard access, please.")
    assert _said(c, ["extension_type"], "What type of extension?") in ("Provisional.", "It's provisional.")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fact_volunteered_keeps_its_label_without_a_thing_name(seed: int) -> None:
    c = _caller({"building_name": "Headquarters", "first_name": "Rachel"}, seed)
    assert _said(c, ["building_name"], "", []) in (
        "My building is Headquarters.",
        "The building is Headquarters.",
    )
    assert "first name is Rachel" in _said(c, ["first_name"], "", [])  # a person's name keeps *name*


@pytest.mark.parametrize("seed", SEEDS)
def test_a_start_and_an_end_are_one_span(seed: int) -> None:
    c = _caller({"start_time": "09:00", "end_time": "10:30", "pto_start_date": "2026-07-24",
                 "pto_end_date": "2026-07-31"}, seed)  # fmt: skip
    text = _said(c, ["start_time", "end_time"], "What start time and end time do you need?")
    assert text in ("From 9 AM to 10:30 AM.", "9 AM to 10:30 AM.")
    unasked = _said(c, ["pto_start_date", "pto_end_date"], "", [])
    assert "P T O" in unasked and "from July 24, 2026 to July 31, 2026" in unasked  # what the span is of
    assert "start date" not in unasked


@pytest.mark.parametrize("seed", SEEDS)
def test_a_date_asked_with_its_time_is_one_when(seed: int) -> None:
    c = _caller({"preferred_date": "2026-08-11", "preferred_time": "10:00"}, seed)
    text = _said(c, ["preferred_date", "preferred_time"], "What date would you prefer?", ["preferred_date"])
    assert text.startswith("August 11, 2026") and "at 10" in text and "preferred" not in text


def test_a_named_part_the_turn_does_not_name_keeps_its_label() -> None:
    c = _caller({"completion_codes": {"ORIENTATION": "Q7M2", "BADGE_PICKUP": "B4X1"}})
    text = _said(c, ["completion_codes.ORIENTATION"], "Which task first, and what is the completion code?")
    assert "orientation" in text.lower()


def test_the_frame_classes_by_reply() -> None:
    c = _caller({"zone_name": "Executive Garage", "new_return_date": "2026-11-08", "active": True})
    zone, date, flag = (c.book.get(k) for k in ("zone_name", "new_return_date", "active"))
    assert zone is not None and date is not None and flag is not None
    alone = ReplyFacts.of([zone], ["zone_name"], "What zone?")
    assert frame_of(zone, ["zone", "name"], "Executive Garage", alone) == "bare"
    unasked = ReplyFacts.of([zone, date], [], "")
    assert frame_of(date, ["new", "return", "date"], "November 8, 2026", unasked) == "label"
    assert frame_of(flag, ["active"], "yes", ReplyFacts.of([flag], ["active"])) == "label"  # yes/no keeps it
    turn = ReplyFacts.of([], [], "the effective and expiration dates").turn
    assert narrowed(["malpractice", "effective", "date"], turn) == ["effective", "date"]
    assert narrowed(["D", "E", "A", "number"], ReplyFacts.of([], [], "what is a number").turn) == ["number"]
    pto = ReplyFacts.of([], [], "For the paid time off request, what dates?").turn
    assert narrowed(["P", "T", "O"], pto, head=False) == ["P", "T", "O"]  # the acronym said in full words
    assert without_thing_name(["license", "name", "trial"]) == ["trial", "license"]
    assert without_thing_name(["zone", "name"]) == ["zone"] and without_thing_name(["last", "name"]) == [
        "last",
        "name",
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_an_option_that_is_a_doing_is_not_taken_as_a_thing(seed: int) -> None:
    phr = Phrasing(seed)
    said = [phr.say("choose", option=o) for o in ("using List A", "by shipping label", "window")]
    assert not any(s.startswith("I'll take") for s in said[:2]) and all("{" not in s for s in said)


def test_asked_in_a_call_the_zone_is_the_value_alone() -> None:
    c = opened(make_scenario({"zone_name": "Executive Garage"}, goal="You want a parking spot."))
    act = c.respond("For parking, what zone or garage do you prefer?")
    assert "zone" not in act.text.lower() and "Executive Garage" in act.text


def test_every_eva_scenario_says_its_facts_right_when_asked(eva_data: Path) -> None:
    """Each fact asked alone, each group asked together: every frame passes the checker."""
    out: list[str] = []
    for _, sc in resolved_scenarios(eva_data):
        c = GoalCaller(sc)
        groups: dict[str, list[str]] = {}
        for f in c.book:
            groups.setdefault(f.top, []).append(f.key)
        for keys in [[f.key] for f in c.book] + list(groups.values()):
            text = c.say.answer(keys, "", keys, "")
            disclosed = {k: f.value for k in keys if (f := c.book.get(k)) is not None}
            others = {f.key: f.value for f in c.book if f.key not in disclosed}
            out += [
                f"{sc.id} {keys}: {text!r}: {p}"
                for p in said_problems(text, disclosed, others, c.say.acronyms)
            ]
    assert out == []


@pytest.mark.parametrize("seed", SEEDS)
def test_a_label_naming_the_caller_by_its_role_is_said_as_its_own(seed: int) -> None:
    """'passenger_first_name' volunteered: 'first name', never 'My passenger first name is ...' (a
    passenger the caller has); 'employee ID' keeps its role word: it is the identifier's name."""
    c = _caller({"passenger_first_name": "Jason", "employee_id": "EMP850800"}, seed)
    text = c.say.answer(["passenger_first_name", "employee_id"], "What is it?", [], "What is it?")
    assert "passenger" not in text.lower() and "first name is Jason" in text
    assert "employee ID" in text


@pytest.mark.parametrize("seed", SEEDS)
def test_a_label_narrowed_to_words_of_another_facts_label_is_said_whole(seed: int) -> None:
    """'What is the phone number?' answered with the confirmation number too: the code keeps its
    label ('number' alone is the phone's), never 'The number is M L A T G two.'."""
    c = _caller({"phone_number": "+1-612-555-0923", "confirmation_number": "MLATG2"}, seed)
    q = "What is the phone number?"
    text = c.say.answer(
        ["phone_number", "confirmation_number"], q, ["phone_number", "confirmation_number"], q
    )
    assert "confirmation number is M L A T G two" in text
