"""The bench's own matcher (EVA's normaliser on both sides) and its folds."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import chosen_option, offered_options

from ..pipelines.caller_goal.conftest import make_scenario

FACTS = goal_facts({
    "confirmation_number": "ZK3FFW", "last_name": "Lima", "new_date": "2026-07-06", "arrive_by": "4:00 PM PST",
    "flight_time": "12:05", "max_cost": "$120", "seat": {"first_choice": "window"}, "groups": ["GRP-ENGCORE"],
    "floor": "FL2", "status": "confirmed", "vip": True,
})  # fmt: skip


def test_values_are_found_as_people_say_them() -> None:
    said = {
        "Z K three F F W. Lima.": ["confirmation_number", "last_name"],
        "two zero two six dash zero seven dash zero six": ["new_date"],
        "July 6th, please.": ["new_date"],
        "I need to arrive by 4 PM.": ["arrive_by"],
        "The twelve oh five PM one.": ["flight_time"],
        "No more than a hundred and twenty dollars.": ["max_cost"],
        "Window, please.": ["seat.first_choice"],
        "G R P, E N G C O R E": ["groups"],
        "Floor 2.": ["floor"],
        "Confirmed. Go ahead.": [],
        "Because it limas.": [],
    }
    for text, keys in said.items():
        assert facts_said(text, FACTS) == keys, text


def test_a_clock_time_said_with_the_other_half_of_the_day_is_another_time() -> None:
    """'4:00 AM' is not the caller's '4:00 PM' said without its half; '4:00' alone may be."""
    assert facts_said("I need to arrive by 4:00 AM.", FACTS) == []
    assert facts_said("By 4 a.m., please.", FACTS) == []
    assert facts_said("By 4:00, please.", FACTS) == ["arrive_by"]
    assert facts_said("By 4:00 p.m., please.", FACTS) == ["arrive_by"]


def test_a_value_the_agent_said_first_is_not_disclosed() -> None:
    assert facts_said("Yes, Lima.", FACTS, unless_in="Is your last name Lima?") == []


def test_invented_codes_and_dates() -> None:
    g = Grounding({"confirmation_number": "ZK3FFW"}, "Move the flight on June 3, 2026.")
    assert g.invented("It is Q X seven T four M.") == ["qx7t4m"]
    assert g.invented("Z K three F F W, on June 3rd, 2026.") == []
    assert g.invented("On June 9.") == ["date:6/9"]


def test_options_from_an_or_question_and_from_times() -> None:
    opts = offered_options(
        "Next, for your Confluence access, what access level do you need: read only, standard, or admin?"
    )
    assert opts == ["read only", "standard", "admin"]
    assert chosen_option("Read only, please.", opts) == 0
    times = offered_options("There is a flight at twelve oh five PM and one at three ten PM. Which one?")
    assert len(times) == 2 and chosen_option("The 3:10 PM one.", times) == 1
    assert offered_options("It leaves at 9 AM and lands at 1 PM. Would you like me to book it?") == []


def _items(n: int) -> list[tuple[str, object]]:
    out = []
    for i in range(n):
        sc = make_scenario({"x": "1"}).model_copy(update={"id": f"s{i}"})
        out.append(("ab"[i % 2], sc))
    return out


def test_kfold_is_a_partition_fixed_by_the_seed() -> None:
    items = _items(11)
    folds = kfold(items, 5, seed=3)  # type: ignore[arg-type]
    ids = sorted(s.id for f in folds for _, s in f)
    assert ids == sorted(s.id for _, s in items) and len(folds) == 5
    assert [[s.id for _, s in f] for f in folds] == [
        [s.id for _, s in f] for f in kfold(list(reversed(items)), 5, 3)
    ]  # type: ignore[arg-type]
    assert [[s.id for _, s in f] for f in folds] != [[s.id for _, s in f] for f in kfold(items, 5, 4)]  # type: ignore[arg-type]
    assert all(len(rest(items, f)) == 11 - len(f) for f in folds)  # type: ignore[arg-type]


def test_leave_one_domain_out() -> None:
    folds = domain_folds(_items(6))  # type: ignore[arg-type]
    assert [{d for d, _ in f} for f in folds] == [{"a"}, {"b"}]


def test_an_identifier_value_is_found_with_its_short_words_spelled() -> None:
    """'hr_portal' said 'H R portal': EVA's normaliser joins three spelled letters, not two."""
    facts = goal_facts({"affected_system": "hr_portal"})
    assert facts_said("The affected system is H R portal.", facts) == ["affected_system"]
    assert facts_said("It's the HR portal.", facts) == ["affected_system"]
    assert facts_said("It's the portal.", facts) == []
