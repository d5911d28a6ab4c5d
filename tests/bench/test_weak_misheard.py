"""The misheard classes (:mod:`voxbench.bench.weak_misheard`): mis-heard forms of a scenario's own
names and codes, and what a reply to them is graded on (spelled from the second failed hearing, no
more tellings claimed than made, no 'also' where nothing else was asked)."""

from __future__ import annotations

from voxbench.bench.caller_check import Reply
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_facts import Leaf, table
from voxbench.bench.weak_live import spelled_problems
from voxbench.bench.weak_misheard import count_problems, misheard_forms
from voxbench.bench.weak_turns import generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Okafor",
    "confirmation_number": "QX7T4M",
    "travel_date": "2026-03-20",
}


def test_misheard_forms_are_plausible_recogniser_errors_never_the_value() -> None:
    name = misheard_forms(Leaf(key="last_name", value="Okafor", words=["last", "name"], kind="name"), set())
    code = misheard_forms(Leaf(key="c", value="QX7T4M", words=["code"], kind="code"), set())
    assert name == ["Oke For", "Okafer", "Ogafor"] and code == ["QX4T7M", "QX7T4N", "QX8T4M"]
    assert (
        misheard_forms(Leaf(key="c", value="QX7T4M", words=["code"], kind="code"), {"QX4T7M"})[0] == "QX7T4N"
    )


def test_spelled_takes_digits_as_digits_or_words() -> None:
    assert spelled_problems("It's Q, X, seven, T, four, M.", ["QX7T4M"]) == []
    assert spelled_problems("It's Q X 7 T 4 M.", ["QX7T4M"]) == []
    assert spelled_problems("It's Okafor.", ["Okafor"]) == ["not spelled 'Okafor'"]


def test_counting_phrases_claim_no_more_than_told() -> None:
    claims = table().told_counts
    assert count_problems("I've said that a few times now.", 2, claims) == ["claims 3 tellings after 2"]
    assert count_problems("I've said that twice now.", 2, claims) == []
    assert count_problems("As I said, Okafor.", 1, claims) == []


def test_the_classes_come_from_the_scenarios_own_names_and_codes() -> None:
    items = [i for i in generate("airline", make_scenario(INFO)) if i.cls.startswith(("misheard", "reask"))]
    by = {i.cls: i for i in items}
    assert {"misheard_once", "misheard_twice", "misheard_thrice", "reasked_twice", "reasked_same"} <= set(by)
    assert [by[c].told for c in ("misheard_once", "misheard_twice", "misheard_thrice")] == [1, 2, 3]
    assert len(by["misheard_thrice"].context) == 3 and not by["misheard_once"].spelled
    assert by["misheard_twice"].spelled == [INFO[by["misheard_twice"].must[0]]]
    assert by["reasked_same"].context == [by["reasked_same"].turn] * 2
    assert "also" in by["reask_open_item"].not_words


class _Says:
    def __init__(self, line: str) -> None:
        self.line = line

    def open(self) -> Reply:
        return Reply(text="Hi, I need to change my flight.")

    def respond(self, agent_text: str) -> Reply:
        return Reply(text=self.line)


def test_a_reply_that_says_the_value_unspelled_or_overclaims_fails() -> None:
    sc = make_scenario(INFO)
    item = next(i for i in generate("airline", sc) if i.cls == "misheard_twice" and i.must == ["last_name"])
    assert not run_item(item, sc, _Says("No, that's not right. My last name is Okafor.")).agrees
    assert run_item(item, sc, _Says("No, that's not right. My last name is Okafor, O K A F O R.")).agrees
    row = run_item(item, sc, _Says("No. I've told you a few times now, it's Okafor, O K A F O R."))
    assert not row.agrees and "claims 3" in row.why
    reask = next(i for i in generate("airline", sc) if i.cls == "reask_open_item")
    assert "said 'also'" in run_item(reask, sc, _Says("I also need to move my flight to an earlier one.")).why


def test_a_correction_said_again_with_as_i_mentioned_before_its_value_agrees() -> None:
    """The caller's second correction says it was said before, in front of the value, its no
    first: the grader takes it. An acknowledgement in front of the no ('Like I mentioned, that's
    not correct.') would claim the caller had refused this read-back before, a new one in another
    wrong form; a reply to a yes/no read-back answers it first, and the grader reads it so
    (:func:`.reference.reply_polarity`)."""
    sc = make_scenario(INFO)
    item = next(i for i in generate("airline", sc) if i.cls == "misheard_twice" and i.must == ["last_name"])
    assert run_item(
        item, sc, _Says("That's not correct. As I mentioned, my last name is Okafor, O K A F O R.")
    ).agrees
    led = "Like I mentioned, that's not correct. My last name is Okafor, O K A F O R."
    assert "not a no" in run_item(item, sc, _Says(led)).why


FIRST_FORMS = [
    misheard_forms(Leaf(key="last_name", value="Okafor", words=["last", "name"], kind="name"), set())[0],
    misheard_forms(Leaf(key="first_name", value="Maria", words=["first", "name"], kind="name"), set())[0],
    misheard_forms(Leaf(key="confirmation_number", value="QX7T4M", words=["code"], kind="code"), set())[0],
]
"""The first mis-heard form of each of INFO's names and codes: the one the misread_same classes say."""


def test_the_same_wrong_read_back_classes_repeat_one_form() -> None:
    items = [i for i in generate("airline", make_scenario(INFO)) if i.cls.startswith("misread_same")]
    by = {i.cls: i for i in items}
    assert [by[c].told for c in ("misread_same_thrice", "misread_same_fourth", "misread_same_end")] == [
        3,
        4,
        5,
    ]
    for i in items:  # the ask, then read-backs of one wrong value, the graded turn's too
        wrong = next(w for w in FIRST_FORMS if w in i.turn)
        assert len(i.context) == i.told and all(wrong in t for t in i.context[1:])
    assert by["misread_same_fourth"].act == "corrects_open" and by["misread_same_fourth"].spelled
    assert by["misread_same_end"].act == "gives_up" and not by["misread_same_end"].must


class _EndsAt(_Says):
    """Corrects every read-back, and says ``line`` (hanging up) to the ``at``-th agent turn."""

    def __init__(self, line: str, at: int) -> None:
        super().__init__(line)
        self.at, self.heard = at, 0

    def respond(self, agent_text: str) -> Reply:
        self.heard += 1
        if self.heard != self.at:
            return Reply(text="No, that's not right. It's Okafor, O K A F O R.")
        return Reply(text=self.line, ends_call=True)


def test_the_same_wrong_read_back_a_fifth_time_must_end_and_never_say_yes() -> None:
    sc = make_scenario(INFO)
    item = next(i for i in generate("airline", sc) if i.cls == "misread_same_end")
    bye = "No, that's still not right, and I've corrected it a few times now. Goodbye."
    last = len(item.context) + 1
    assert run_item(item, sc, _EndsAt(bye, last)).agrees
    assert "did not end" in run_item(item, sc, _Says("No, that's not right.")).why
    assert "a yes" in run_item(item, sc, _EndsAt("Yes, that's right. Goodbye.", last)).why
    early = run_item(item, sc, _EndsAt(bye, last - 1))  # gave up at the fourth
    assert "ended in the context" in early.why
    fourth = next(i for i in generate("airline", sc) if i.cls == "misread_same_fourth")
    assert "ended on a value" in run_item(fourth, sc, _EndsAt(bye, len(fourth.context) + 1)).why
