"""Facts said as a person says them (:mod:`voxbench.pipelines.caller.goal.speech`), checked over
every scenario's facts: each disclosed value in the sentence, no other value, no key spelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.phrases import Phrasing, first_person
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import acronyms_of, label, said_problems, value_kind
from voxbench.scenarios import Scenario, load_dataset

BUILTIN = Path(__file__).resolve().parents[3] / "src" / "voxbench" / "scenarios" / "data"


def resolved_scenarios(data: Path) -> list[tuple[str, Scenario]]:
    """Every scenario of an EVA-format folder, culture-resolved as the caller sees it."""
    out = []
    for domain, dd in load_dataset(str(data), None).domains.items():
        for sc in dd.scenarios.values():
            out.append(
                (domain, Scenario.model_validate(dd.resolver(sc, "en").resolve(sc.model_dump(mode="json"))))
            )
    return out


def _problems(caller: GoalCaller) -> list[str]:
    """Every fact of the caller said alone, and each group of facts said together, checked."""
    out: list[str] = []
    groups: dict[str, list[str]] = {}
    for f in caller.book:
        groups.setdefault(f.top, []).append(f.key)
    for keys in [[f.key] for f in caller.book] + list(groups.values()):
        keys = caller.say.with_companions(keys)
        text = caller.say.answer(keys)
        disclosed = {k: f.value for k in keys if (f := caller.book.get(k)) is not None}
        others = {f.key: f.value for f in caller.book if f.key not in disclosed}
        out += [f"{caller.scenario.id} {keys}: {text!r}: {p}"
                for p in said_problems(text, disclosed, others, caller.say.acronyms)]  # fmt: skip
    return out


def test_every_built_in_scenario_says_its_facts_right() -> None:
    scenarios = resolved_scenarios(BUILTIN)
    assert scenarios
    assert [p for _, sc in scenarios for p in _problems(GoalCaller(sc))] == []


def test_every_eva_scenario_says_its_facts_right(eva_data: Path) -> None:
    scenarios = resolved_scenarios(eva_data)
    assert len(scenarios) >= 100
    assert [p for _, sc in scenarios for p in _problems(GoalCaller(sc))] == []


def test_no_key_is_read_as_letters_and_money_is_said_as_money() -> None:
    sc = make_scenario(
        {"max_additional_cost": 250, "latest_acceptable_return_arrival_time_BOS_EST": "20:00",
         "npi": "1234567890", "Husband's name": "David Park"},
        goal="You want to rebook your BOS trip; your NPI is on file.",
    )  # fmt: skip
    caller = GoalCaller(sc)
    text = caller.say.answer(["max_additional_cost", "latest_acceptable_return_arrival_time_BOS_EST"])
    assert "max additional cost is $250." in text
    assert "latest acceptable return arrival time is 8 PM." in text
    assert "M A X" not in text and "B O S" not in text and "E S T" not in text
    assert "N P I is" in caller.say.answer(["npi"])  # the scenario writes it in capitals: an acronym
    assert "husband's name is David Park" in caller.say.answer(["Husband's name"])


def test_the_checker_finds_each_kind_of_fault() -> None:
    disclosed = {"new_return_date": "2026-11-08"}
    others = {"new_departure_date": "2026-11-01", "max_cost": 250}
    assert said_problems("The new return date is November 8, 2026.", disclosed, others) == []
    assert said_problems("The new return date is soon.", disclosed, others)  # value missing
    assert said_problems("Return November 8, 2026, leaving November 1.", disclosed, others)  # another value
    assert said_problems("November 8, 2026, under $300.", disclosed, others)  # an amount of no fact
    assert said_problems("The M A X date is November 8, 2026.", disclosed, others)  # a key spelled
    assert said_problems("The N P I date is November 8, 2026.", disclosed, others, {"npi"}) == []


def test_value_kinds_and_labels() -> None:
    assert value_kind("2026-03-25") == "date"
    assert value_kind("14:00") == "time"
    assert value_kind(120, ["maximum", "cost"]) == "money"
    assert value_kind(2, ["bags"]) == "number"
    assert value_kind("ZK3FFW") == "code"
    assert value_kind("Ana Lima", ["first", "name"]) == "name"
    assert value_kind("window") == "text"
    assert label("Latest acceptable arrival time in MSP", {"in"}, set()) == "latest acceptable arrival time"
    assert label("date_of_birth", set(), set()) == "date of birth"
    assert acronyms_of(["Your NPI and the FIRST one; first things first. <PHONE>"]) == {"npi"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_facts_asked_together_are_all_given_in_the_order_asked(seed: int) -> None:
    from voxbench.pipelines.caller.goal.config import GoalCallerConfig

    sc = make_scenario(
        {
            "confirmation_number": "ZK3FFW",
            "new_return_date": "2026-11-08",
            "new_departure_date": "2026-11-01",
        },
        goal="You want to move your trip to new dates.",
    )
    caller = GoalCaller(sc, GoalCallerConfig(seed=seed))
    caller.open()
    act = caller.respond("What new departure and return dates would you like?")
    assert act.facts[:2] == ["new_departure_date", "new_return_date"]
    assert act.text.index("November 1, 2026") < act.text.index("November 8, 2026")
    act = caller.respond("And what return and departure dates again?")
    assert act.facts[:2] == ["new_return_date", "new_departure_date"]


def test_an_outbound_date_is_the_departure_date_asked() -> None:
    """'departure' asks for an 'outbound' fact, and the answer keeps the order asked."""
    sc = make_scenario(
        {
            "confirmation_number": "ZK3FFW",
            "desired_return_date": "2026-11-08",
            "desired_outbound_date": "2026-11-01",
        }
    )
    caller = GoalCaller(sc)
    caller.open()
    act = caller.respond("What new departure and return dates would you like?")
    assert act.facts == ["desired_outbound_date", "desired_return_date"]
    assert "November 1, 2026" in act.text and "November 8, 2026" in act.text


def test_brackets_in_the_goals_text_are_not_spoken() -> None:
    """A code after a proper name is said after it, as a code; after a common word it labels
    the words before it and is left out; brackets holding no code stay as written."""
    said = first_person("You want to move your flight from Chicago (ORD) to Miami (MIA) to June 3.")
    assert said == "I want to move my flight from Chicago, O R D, to Miami, M I A, to June 3."
    assert (
        first_person("Your flight was cancelled by the airline (IRROPS).")
        == "My flight was cancelled by the airline."
    )
    assert (
        first_person("You need a desk in Headquarters (BLD3)") == "I need a desk in Headquarters, B L D three"
    )
    assert first_person("You want (maybe) a refund") == "I want (maybe) a refund"


def test_a_key_naming_part_of_a_number_is_said_as_that_part() -> None:
    """'phone_last_four' is 'the last four digits of my phone number', never the key read out."""
    sc = make_scenario({"phone_last_four": "6620", "ssn_last_4": "1234", "employee_id": "EMP123"})
    caller = GoalCaller(sc)
    said = caller.say.answer(["phone_last_four"])
    assert "phone last four is" not in said
    assert "last four digits" in said and "phone number" in said and "six six two zero" in said
    ssn = caller.say.answer(["ssn_last_4"])
    assert "last 4 digits" in ssn and "S S N" in ssn and "number" not in ssn
    assert "digits" not in caller.say.answer(["employee_id"])


def test_an_acronym_inside_an_identifier_value_is_spelled() -> None:
    """'target_system: vpn_gateway' with 'VPN' in the goal: 'V P N gateway', not 'vpn gateway'."""
    sc = make_scenario({"target_system": "vpn_gateway"}, goal="You are locked out of the VPN.")
    said = GoalCaller(sc).say.answer(["target_system"])
    assert "V P N gateway" in said and "vpn" not in said


def test_a_span_of_one_day_is_said_once() -> None:
    sc = make_scenario({"start_date": "2026-05-21", "end_date": "2026-05-21"})
    said = GoalCaller(sc).say.answer(["start_date", "end_date"])
    assert said.count("May 21, 2026") == 1 and "one day" in said
    two = GoalCaller(make_scenario({"start_date": "2026-05-21", "end_date": "2026-05-22"}))
    assert "one day" not in two.say.answer(["start_date", "end_date"])


def test_a_name_or_month_said_again_keeps_its_capital() -> None:
    """make run bb.1 (2026-12-06): 'As I said, whitfield.'; a sentence of the caller's own is
    lowered after the lead-in, a value said alone keeps its case."""
    p = Phrasing(0)
    assert p.again("Whitfield.").endswith(", Whitfield.")
    assert p.again("July 27, 2026, at 10 AM.").endswith(", July 27, 2026, at 10 AM.")
    assert p.again("My last name is Okafor.").endswith(", my last name is Okafor.")
    assert p.again("Seven four five.").endswith(", seven four five.")
