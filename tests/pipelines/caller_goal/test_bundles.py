"""Facts a negotiation step gives together (:mod:`.goal.bundles`): a conditional step that names
what is asked and states the values to give ('If asked for the shipment details, provide your
tracking number, say that you want express delivery, and specify 14 days.') bundles them; asked
for one, the caller gives the others whose values the step states, at most three facts in all.
Steps that say one at a time, only when asked, or in order, or that state no value, bundle none."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.bundles import MOST, Bundles, read_bundles
from voxbench.pipelines.caller.goal.facts import goal_facts

INFO = {
    "member_id": "MBR448120",
    "date_of_birth": "1979-03-14",
    "tracking_number": "TRK-55102",
    "delivery_speed": "express",
    "hold_days": 14,
    "destination_city": "Lisbon",
    "trip_start_date": "2026-09-03",
    "trip_end_date": "2026-09-10",
    "pet_breed": "beagle",
    "pet_name": "Biscuit",
    "room_building": "Building C",
    "room_floor": "FL4",
    "attendee_count": 12,
    "card_type": "visa",
    "billing_zip": "94110",
}
BOOK = goal_facts(INFO)


def _bundles(*steps: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(b.keys, b.stated) for b in read_bundles(list(steps), BOOK)]


@pytest.mark.parametrize(
    ("step", "keys", "stated"),
    [
        (
            "3. If asked for the shipment details, provide your tracking number, say that you want "
            "express delivery, and specify 14 days. Do not mention any other parcel.",
            ("tracking_number", "delivery_speed", "hold_days"),
            ("delivery_speed", "hold_days"),
        ),
        (
            "When the agent asks about your trip, give the destination as Lisbon and the travel dates "
            "as 2026-09-03 through 2026-09-10.",
            ("destination_city", "trip_start_date", "trip_end_date"),
            ("destination_city", "trip_start_date", "trip_end_date"),
        ),
        (
            "Once they ask for the pet details, state that your pet is a beagle called Biscuit.",
            ("pet_breed", "pet_name"),
            ("pet_breed", "pet_name"),
        ),
        (  # what the step forbids is no part of it
            "If the agent asks for the room details, say Building C and 12 attendees, but do not "
            "mention floor FL4.",
            ("room_building", "attendee_count"),
            ("room_building", "attendee_count"),
        ),
        (  # a clause given only if asked is not given with the others
            "If asked for the payment details, provide the card type visa, the billing zip 94110, "
            "and your member ID if asked.",
            ("card_type", "billing_zip"),
            ("card_type", "billing_zip"),
        ),
    ],
)
def test_a_conditional_step_that_states_values_is_a_bundle(
    step: str, keys: tuple[str, ...], stated: tuple[str, ...]
) -> None:
    assert _bundles(step) == [(keys, stated)]


@pytest.mark.parametrize(
    "step",
    [
        # no condition naming what is asked: 'when asked' is each fact when it is asked
        "When asked, provide the card type visa and the billing zip 94110.",
        # one at a time, only when asked, in order
        "If asked for the payment details, give them one at a time: card type visa, billing zip 94110.",
        "If the agent asks for the trip, provide Lisbon and 2026-09-03 only when asked for each.",
        "If asked for the shipment, provide the tracking number first, then say express delivery.",
        # no value stated: the facts are named, not scripted ('exactly as listed')
        "If asked to verify your identity, provide your member ID and date of birth exactly as listed.",
        # more than an answer says: the agent asks item by item
        "If asked for the trip details, give Lisbon, 2026-09-03, 2026-09-10 and 14 days.",
        # one fact
        "If asked about the delivery, say express.",
    ],
)
def test_steps_that_do_not_bundle(step: str) -> None:
    assert _bundles(step) == []


def test_extra_adds_the_stated_others_within_the_limit() -> None:
    b = Bundles.of(
        ["If asked for the shipment details, provide your tracking number, say that you want express "
         "delivery, and specify 14 days."],
        BOOK,
    )  # fmt: skip
    assert b.extra(["tracking_number"], set()) == ["delivery_speed", "hold_days"]
    assert b.extra(["tracking_number"], {"hold_days"}) == ["delivery_speed"]  # said before: not again
    assert b.extra(["tracking_number", "member_id"], set()) == ["delivery_speed"]  # three in all
    assert len(b.extra(["tracking_number", "member_id", "billing_zip"], set())) == 0 == MOST - 3
    assert b.extra(["member_id"], set()) == []  # a fact of no bundle


SHIP = "If asked for the shipment details, provide your tracking number, say that you want express delivery, and specify 14 days."


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_asked_for_one_the_caller_gives_the_bundle(seed: int) -> None:
    sc = make_scenario(
        {
            "tracking_number": "TRK55102",
            "delivery_speed": "express",
            "hold_days": 14,
            "member_id": "MBR448120",
        },
        goal="You want your parcel re-sent by express delivery.",
        negotiation=[SHIP],
        start="Hi, I need my parcel re-sent.",
    )
    c = opened(sc, seed)
    act = c.respond("Sure. Please give me your tracking number.")
    assert act.kind == "answer"
    assert act.facts == ["tracking_number", "delivery_speed", "hold_days"]
    assert "express" in act.text.lower() and "14" in act.text
    again = c.respond("Thanks. How many days should we hold it?")  # asked again later: only what is asked
    assert again.facts == ["hold_days"]


def test_without_a_bundle_the_caller_answers_only_what_is_asked() -> None:
    sc = make_scenario(
        {"tracking_number": "TRK55102", "delivery_speed": "express", "hold_days": 2},
        goal="You want your parcel re-sent by express delivery.",
        negotiation=["Provide details only when asked: the tracking number, express delivery, 14 days."],
        start="Hi, I need my parcel re-sent.",
    )
    act = opened(sc).respond("Sure. Please give me your tracking number.")
    assert act.facts == ["tracking_number"]
