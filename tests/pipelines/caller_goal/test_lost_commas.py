"""A list as a recogniser may write it, without its commas: the caller splits it at its own words
(its facts' names and values) and hears the options or the facts asked all the same
(``benchmarks/caller_asr_forms.py``, rule ``no_commas``)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.lists import listed

from .conftest import make_scenario, opened

ACCESS = goal_facts({"application_name": "Confluence", "access_level": "read_only"})
ROOM = {
    "employee_id": "EMP104233",
    "badge_number": "B-2291",
    "building": "Headquarters",
    "meeting_date": "2026-10-05",
    "start_time": "09:00",
    "end_time": "10:00",
    "attendee_count": 8,
}


def test_options_are_split_at_the_callers_own_value() -> None:
    assert (
        listed("What access level do you need: read only standard or admin?", ACCESS)
        == "What access level do you need: read only, standard, or admin?"
    )
    assert (
        listed("Available access levels are read only standard or admin.", ACCESS)
        == "Available access levels are read only, standard, or admin."
    )
    assert listed("Levels: standard read only or admin.", ACCESS) == "Levels: standard, read only, or admin."
    standard = goal_facts({"access_level": "standard"})
    assert (
        listed("The available access levels are read only standard or admin.", standard)
        == "The available access levels are read only, standard, or admin."
    )
    gear = goal_facts({"required_equipment": ["whiteboard"]})
    assert (
        listed("Any equipment like a projector whiteboard or video conferencing?", gear)
        == "Any equipment like a projector, whiteboard, or video conferencing?"
    )


def test_facts_asked_are_split_at_their_names() -> None:
    book = goal_facts(ROOM)
    assert (
        listed("What building date start time end time and how many attendees?", book)
        == "What building, date, start time, end time, and how many attendees?"
    )
    assert (
        listed("Please give me the building the date the start time and the end time.", book)
        == "Please give me the building, the date, the start time, and the end time."
    )


def test_a_list_with_its_commas_is_left_as_it_is() -> None:
    text = "What access level do you need: read only, standard, or admin?"
    assert listed(text, ACCESS) == text
    book = goal_facts(ROOM)
    text = "Please give me the building, the date, the start time, the end time, and how many attendees."
    assert listed(text, book) == text


def test_words_that_make_no_list_are_left_as_they_are() -> None:
    book = goal_facts(ROOM)
    gear = goal_facts({"required_equipment": ["whiteboard"]})
    airline = goal_facts({"confirmation_number": "ABC123", "email": "a@b.co", "carrier": "SkyWay"})
    for text, b in (
        ("Do you want Confluence read only or standard?", ACCESS),  # values of two facts
        ("Do you want read only access or admin access?", ACCESS),  # a value and its field's word
        ("Is it the Headquarters building or the Annex?", book),  # a value and a field name
        ("What's your employee I D number or badge number?", book),  # a head after a field name
        ("Please confirm the start time and end time.", book),  # one item before 'and'
        ("Is it premium standard or admin?", ACCESS),  # none of the caller's words
        ("I can retry by dropping the whiteboard requirement and check again.", gear),  # 'and': no options
        (
            "He may contact SkyWay directly or share the flight number with you.",
            airline,
        ),  # a clause after 'or'
        ("It should be a code from your confirmation email or app.", airline),  # two names may be one
    ):
        assert listed(text, b) == text


def test_the_caller_answers_every_fact_a_list_without_commas_asks() -> None:
    c = opened(make_scenario(ROOM, goal="You want to book a conference room."))
    act = c.respond("Now for the room booking what building date start time end time and how many attendees?")
    assert act.kind == "answer"
    assert set(act.facts) == {"building", "meeting_date", "start_time", "end_time", "attendee_count"}


def test_quantities_of_one_unit_are_split_after_each_unit() -> None:
    book = goal_facts({"preferred_time": "10:00"})
    assert (
        listed("I have three openings: ten AM eleven AM and two PM.", book)
        == "I have three openings: ten AM, eleven AM, and two PM."
    )
    assert (
        listed("What size do you want: thirteen inch fourteen inch or sixteen inch?", book)
        == "What size do you want: thirteen inch, fourteen inch, or sixteen inch?"
    )
    for text in ("It leaves at ten AM and arrives at two PM.", "I have ten AM or two PM."):
        assert listed(text, book) == text


def test_times_listed_without_commas_are_chosen_as_with_them() -> None:
    said = "I have three openings on September twenty ninth: nine AM, ten AM, and two PM. Which time would you like?"
    acts = []
    for text in (said, said.replace(",", "")):
        c = opened(make_scenario({"preferred_time": "10:00"}, goal="You want a check-in at ten AM."))
        acts.append(c.respond(text))
    assert "options" in acts[1].rules and acts[1].text == acts[0].text == "It's 10 AM."
