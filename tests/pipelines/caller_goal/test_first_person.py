"""``first_person``: a 'you' of the goal is the caller; a subject is 'I', an object 'me'.

A 'you' followed by a verb is a subject wherever it stands, in a relative clause too ('the
charges you disputed'); a 'you' after a verb or a preposition that governs it is an object, and so is
one after a verb that takes an object and then a bare verb ('let you know').
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.phrases import first_person


@pytest.mark.parametrize(
    ("goal", "said"),
    [
        ("Ask about the charges you disputed last month", "Ask about the charges I disputed last month"),
        ("You want back the deposit you paid twice", "I want back the deposit I paid twice"),
        ("Mention the voucher you were promised", "Mention the voucher I was promised"),
        ("Give the time you prefer", "Give the time I prefer"),
        ("Ask what else you can try", "Ask what else I can try"),
        ("Describe the laptop you recently returned", "Describe the laptop I recently returned"),
        ("Say which seat you chose", "Say which seat I chose"),
        ("Confirm the balance you owe", "Confirm the balance I owe"),
    ],
)
def test_a_you_before_its_verb_is_a_subject_in_a_relative_clause(goal: str, said: str) -> None:
    assert first_person(goal) == said


@pytest.mark.parametrize(
    ("goal", "said"),
    [
        ("The agent should send you a receipt", "You should send me a receipt"),
        ("Ask them to book a taxi for you", "Ask them to book a taxi for me"),
        ("It was mailed to you", "It was mailed to me"),
        ("Ask the agent to let you know the gate", "Ask you to let me know the gate"),
        ("Ask them to keep you updated", "Ask them to keep me updated"),
        ("Ask if they can help you find the form", "Ask if they can help me find the form"),
        ("Accept if they offer you travel credit", "Accept if they offer me travel credit"),
    ],
)
def test_a_you_governed_by_a_verb_or_preposition_stays_an_object(goal: str, said: str) -> None:
    assert first_person(goal) == said


@pytest.mark.parametrize(
    ("goal", "said"),
    [
        ('Ask one time: "Can you issue the meal voucher I\'m eligible for?"',
         'Ask one time: "Can you issue the meal voucher I\'m eligible for?"'),
        ("Ask once: can you issue a hotel voucher too?", "Ask once: can you issue a hotel voucher too?"),
        ("Can you issue a refund to my card?", "Can you issue a refund to my card?"),
        ("Ask 'Could you waive the fee?' once", "Ask 'Could you waive the fee?' once"),
    ],
)  # fmt: skip
def test_a_direct_question_to_the_agent_keeps_its_you(goal: str, said: str) -> None:
    """Quoted or not, a question the caller puts to the agent is already in its voice: 'Can you
    issue ...?', never 'Can me issue ...?' (live: a pushback line said so)."""
    assert first_person(goal) == said


@pytest.mark.parametrize(
    ("goal", "said"),
    [
        ("Ask whether you can issue a refund", "Ask whether I can issue a refund"),
        ("You ask can you keep your seat", "I ask can I keep my seat"),
        ("Say that you will not accept a credit", "Say that I will not accept a credit"),
    ],
)
def test_a_you_after_an_auxiliary_is_a_subject(goal: str, said: str) -> None:
    """In a reported question 'you' is the subject ('I'), and after an auxiliary too: never 'can me'."""
    assert first_person(goal) == said
