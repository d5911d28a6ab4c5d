"""The invariance bench's rewrites (``bench/perturb.py``): each keeps the turn's meaning and
leaves alone the turns it does not apply to."""

from __future__ import annotations

import pytest

from voxbench.bench.perturb import class_names, perturb, same_choice, table


def _p(cls: str, text: str, seed: str = "s") -> str:
    return perturb(cls, text, seed)


def test_every_class_is_in_the_table_with_why() -> None:
    names = class_names()
    assert {"polite_prefix", "contractions", "determiner", "numbers", "sentence_order"} <= set(names)
    assert all(table().classes[n].why for n in names)


def test_a_prefix_goes_before_a_turn_but_never_before_a_greeting() -> None:
    out = _p("polite_prefix", "What is your employee ID?")
    assert out.endswith(" What is your employee ID?") and out != "What is your employee ID?"
    assert _p("polite_prefix", "Hello, thank you for calling. How can I help?") == (
        "Hello, thank you for calling. How can I help?"
    )


def test_a_suffix_goes_after_a_turn_but_never_after_a_goodbye() -> None:
    assert _p("filler_after", "Your ticket is created.").startswith("Your ticket is created. ")
    assert _p("filler_after", "Thanks for calling. Goodbye.") == "Thanks for calling. Goodbye."


def test_a_request_form_is_said_in_another_form() -> None:
    seen = {_p("ask_form", "Could you please provide your employee ID?", seed=str(i)) for i in range(20)}
    assert "Please provide your employee ID." in seen
    assert "Can you please provide your employee ID?" in seen
    assert _p("ask_form", "Can you hear me?") == "Can you hear me?"  # no verb of giving: no request
    assert _p("ask_form", "Please give me the shift I.D. first.", seed="x") in (
        "Please give me the shift I.D. first.", "Could you give me the shift I.D. first?",
        "Can you give me the shift I.D. first?", "Would you give me the shift I.D. first?",
    )  # fmt: skip


def test_contractions_expanded_or_contracted() -> None:
    assert _p("contractions", "I’ll check. You’re all set.") == "I will check. You are all set."
    assert _p("contractions", "I cannot do that, but I will check.") == "I can't do that, but I'll check."
    assert _p("contractions", "It’s been a while.") == "It’s been a while."  # 'has', not 'is'


def test_your_said_the_but_not_another_persons() -> None:
    assert _p("determiner", "What is your employee ID?") == "What is the employee ID?"
    assert (
        _p("determiner", "What is your husband's date of birth?") == "What is your husband's date of birth?"
    )
    assert _p("determiner", "What is the date of birth?") == "What is the date of birth?"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "You have three days left, and six days of sick leave.",
            "You have 3 days left, and 6 days of sick leave.",
        ),
        ("Your code is F L two, and B L D three.", "Your code is F L two, and B L D three."),  # spelled codes
        ("It is R M A, two eight four seven one nine.", "It is R M A, two eight four seven one nine."),
        ("You have 3 days left.", "You have three days left."),
        ("What are the three options?", "What are the three options?"),  # a question: not a statement
        ("Take this one.", "Take this one."),  # 'one' is a pronoun too
    ],
)
def test_numbers_said_alone_in_statements(text: str, want: str) -> None:
    assert _p("numbers", text) == want


def test_two_independent_statements_before_the_question_swap() -> None:
    text = "Thanks, Aisha. I've verified you. Which duration do you want?"
    assert _p("sentence_order", text) == "I've verified you. Thanks, Aisha. Which duration do you want?"
    leaning = "I found your booking. It is on May third. Which seat do you want?"
    assert _p("sentence_order", leaning) == leaning  # 'It' leans on the sentence before
    assert (
        _p("sentence_order", "Your flight is booked. Anything else?")
        == "Your flight is booked. Anything else?"
    )


def test_a_softener_after_the_last_request() -> None:
    assert (
        _p("ask_tail", "Thanks. What is your employee ID?")
        == "Thanks. What is your employee ID, if you don't mind?"
    )
    assert _p("ask_tail", "Would you like me to book it?") == "Would you like me to book it?"


def test_a_choice_may_differ_by_the_rewrite_alone() -> None:
    assert same_choice("ten AM", "10 AM", "numbers", "s")
    assert not same_choice("ten AM", "11 AM", "numbers", "s")
    assert same_choice("your Confluence access", "the Confluence access", "determiner", "s")
    assert same_choice("window", "Window", "determiner", "s")
    assert not same_choice("window", "aisle", "determiner", "s")
