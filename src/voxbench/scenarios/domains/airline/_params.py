"""EVA's airline parameter models: formats, bounds and the field -> error-type map.

Patterns are matched on the raw input (EVA does not normalise; it upper-cases the
confirmation number, flight number and airport codes only after validation). The
descriptions are ours: EVA's exact description strings are not in the reference.
"""

from __future__ import annotations

from voxbench.scenarios.validation import ParamRules, Rule

_CONF = Rule(
    error_type="invalid_confirmation_number_format",
    pattern=r"^[A-Za-z0-9]{6}$",
    description="a 6-character alphanumeric confirmation code",
    examples=("ABC123",),
)
_FLIGHT = Rule(
    error_type="invalid_flight_number_format",
    pattern=r"^[A-Za-z]{2,3}\d{1,4}$",
    description="an airline code followed by 1-4 digits",
    examples=("SK621",),
)
_DATE = Rule(
    error_type="invalid_date_format",
    pattern=r"^\d{4}-\d{2}-\d{2}$",
    description="a date in YYYY-MM-DD format",
    examples=("2026-03-20",),
)
_JOURNEY = Rule(
    error_type="invalid_journey_id_format",
    pattern=r"^FL_(?:[A-Za-z]{2,3}\d{1,4}_)+\d{8}$",
    description="a journey id FL_<flight>[_<flight>]_<YYYYMMDD>",
    examples=("FL_SK621_20260320",),
)
_PAX = Rule(
    error_type="invalid_passenger_id_format",
    pattern=r"^PAX\d+$",
    description="a passenger id",
    examples=("PAX001",),
)
_AIRPORT = Rule(
    error_type="invalid_airport_code_format",
    pattern=r"^[A-Za-z]{3}$",
    description="a 3-letter IATA airport code",
    examples=("JFK",),
)
_FARE = Rule(error_type="invalid_fare_class")

PARAM_RULES = ParamRules(
    style="airline",
    fields={
        "confirmation_number": _CONF,
        "flight_number": _FLIGHT,
        "flight_date": _DATE,
        "date": _DATE,
        "journey_id": _JOURNEY,
        "new_journey_id": _JOURNEY,
        "passenger_id": _PAX,
        "passenger_ids": Rule(
            error_type="invalid_passenger_id_format",
            item_pattern=_PAX.pattern,
            description=_PAX.description,
            examples=_PAX.examples,
        ),
        "origin": _AIRPORT,
        "destination": _AIRPORT,
        "fare_class": _FARE,
        "new_fare_class": _FARE,
        "num_bags": Rule(error_type="invalid_bag_count", ge=0, le=5),
        "passenger_count": Rule(ge=1),
        "amount": Rule(gt=0),
        "refund_amount": Rule(gt=0),
        "num_nights": Rule(ge=1),
    },
)
