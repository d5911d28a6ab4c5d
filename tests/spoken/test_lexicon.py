"""Words of free-text values said as a person says them (:mod:`voxbench.spoken.lexicon`), and the
goal caller saying them so, every sentence passing the speech checker."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import said_problems
from voxbench.spoken import say_value
from voxbench.spoken.lexicon import is_known, is_word, say_word, unsaid_tokens


def test_the_lexicon_knows_words_their_forms_and_its_acronyms() -> None:
    assert is_word("upload") and is_word("Cardiology") and not is_word("pto")
    assert is_known("syncing") and is_known("footrest") and is_known("reverification")
    assert not is_known("ENGCORE", joined=False)  # a word in capitals is not read as two joined


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("CARDIOLOGY", "cardiology"),  # a long word in capitals: the word
        ("ORTHOPEDICS", "orthopedics"),  # a lexicon word with an ending
        ("pto", "P T O"),  # an acronym written small: spelled
        ("fmla_leave", "F M L A leave"),
        ("hr_portal", "H R portal"),  # the lexicon says 'hr' as letters
        ("macos", "macOS"),  # a word and a two-letter acronym joined: written as read
        ("BLS_UPLOAD", "B L S upload"),  # a code of words: its words said, acronyms spelled
        ("LIST_A", "list A"),
        ("GRP-DBREAD", "G R P D B R E A D"),  # no part is a word: spelled
        ("PRV-ECHO-007", "P R V, echo, zero zero seven"),
        ("01:00 AM", "1 AM"),  # no "oh one", no "oh oh"
        ("10:30 PM", "10:30 PM"),
        ("AUS to LAX", "A U S to L A X"),  # codes in free text spelled
        ("ORD→MSP departing 1:00 PM on 2026-09-08", "O R D to M S P departing 1 PM on September 8, 2026"),
        ("2026-06-07 19:30 EST", "June 7, 2026 7:30 PM E S T"),
        ("Can't connect to the corporate Wi-Fi at all", "Can't connect to the corporate Wi-Fi at all"),
        ("SkyWay", "SkyWay"),  # a name in mixed case, as written
        ("zurich", "zurich"),  # a lexicon word: said as it is
    ],
)
def test_a_value_is_said_by_its_words(value: str, said: str) -> None:
    assert say_value(value) == said
    assert unsaid_tokens(say_value(value)) == []


def test_the_check_finds_each_kind_of_fault() -> None:
    assert unsaid_tokens("CARDIOLOGY") == ["CARDIOLOGY"]  # capitals: read either way
    assert unsaid_tokens("pto") == ["pto"]  # no word
    assert unsaid_tokens("L I S T, A") == ["L I S T"]  # a word spelled
    assert "2026-09-08" in unsaid_tokens("on 2026-09-08")
    assert unsaid_tokens("at 19:30") == ["19:30"] and unsaid_tokens("01:00 AM") == ["01:00 AM"]
    assert "→" in unsaid_tokens("ORD→MSP") and "SK715" in unsaid_tokens("SK715")
    assert unsaid_tokens("Adeyemi", names=True) == [] and unsaid_tokens("Adeyemi") == ["Adeyemi"]
    assert say_word("PM") == "PM" and unsaid_tokens("8 AM") == []


def test_the_goal_caller_says_each_kind_by_its_words() -> None:
    sc = make_scenario(
        {"preferred_os": "macos", "leave_type": "pto", "department": "CARDIOLOGY", "document_list": "LIST_A",
         "task_codes": ["BLS_UPLOAD", "TB_TEST"], "original_flight": "ORD→MSP departing 1:00 PM on 2026-09-08"},
        goal="You want to update your records.",
    )  # fmt: skip
    caller = GoalCaller(sc)
    said = {f.key: caller.say.answer([f.key]) for f in caller.book}
    assert "macOS" in said["preferred_os"] and "P T O" in said["leave_type"]
    assert "cardiology" in said["department"] and "list A" in said["document_list"]
    assert "B L S upload" in said["task_codes"] and "T B test" in said["task_codes"]
    assert "O R D to M S P departing 1 PM on September 8, 2026" in said["original_flight"]
    for f in caller.book:
        others = {o.key: o.value for o in caller.book if o.key != f.key}
        assert said_problems(said[f.key], {f.key: f.value}, others, caller.say.acronyms) == [], said[f.key]
        assert unsaid_tokens(f.spoken()) == [], f.spoken()
