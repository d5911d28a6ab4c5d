"""Airport codes as people say them: 'AUS' is 'Austin', 'ORD' is 'Chicago O'Hare'.

A scenario's facts hold IATA codes ("Original route": "AUS to LAX"); an agent reading a booking
says the cities ("from Austin to Los Angeles"). To the caller, and to the bench that checks what
a caller disclosed, both are the same value. This is public reference data about one kind of
fact value (IATA airport codes of the larger North American airports and the main international
hubs), not a list taken from any scenario. A city with several airports is named with its
airport ("Chicago O'Hare", "New York Kennedy"), never by the city alone.
"""

from __future__ import annotations

import re

AIRPORT_NAMES: dict[str, tuple[str, ...]] = {
    "ATL": ("Atlanta",), "AUS": ("Austin",), "BNA": ("Nashville",), "BOS": ("Boston", "Logan"),
    "BWI": ("Baltimore",), "CLE": ("Cleveland",), "CLT": ("Charlotte",), "CMH": ("Columbus",),
    "CVG": ("Cincinnati",), "DAL": ("Dallas Love Field", "Love Field"), "DCA": ("Reagan National",
    "Washington National", "Washington Reagan", "Reagan"), "DEN": ("Denver",),
    "DFW": ("Dallas Fort Worth", "Dallas-Fort Worth", "DFW"), "DTW": ("Detroit",), "EWR": ("Newark",),
    "FLL": ("Fort Lauderdale",), "HNL": ("Honolulu",), "HOU": ("Houston Hobby", "Hobby"),
    "IAD": ("Washington Dulles", "Dulles"), "IAH": ("Houston Intercontinental", "Houston Bush"),
    "IND": ("Indianapolis",), "JAX": ("Jacksonville",), "JFK": ("New York Kennedy", "Kennedy", "JFK"),
    "LAS": ("Las Vegas",), "LAX": ("Los Angeles",), "LGA": ("LaGuardia", "La Guardia", "New York LaGuardia"),
    "LGB": ("Long Beach",), "MCI": ("Kansas City",), "MCO": ("Orlando",), "MDW": ("Chicago Midway", "Midway"),
    "MIA": ("Miami",), "MKE": ("Milwaukee",), "MSP": ("Minneapolis", "Minneapolis-St. Paul"),
    "MSY": ("New Orleans",), "OAK": ("Oakland",), "OGG": ("Maui", "Kahului"), "OKC": ("Oklahoma City",),
    "OMA": ("Omaha",), "ONT": ("Ontario",), "ORD": ("Chicago O'Hare", "O'Hare"), "PBI": ("West Palm Beach",),
    "PDX": ("Portland",), "PHL": ("Philadelphia",), "PHX": ("Phoenix",), "PIT": ("Pittsburgh",),
    "RDU": ("Raleigh-Durham", "Raleigh Durham", "Raleigh"), "RSW": ("Fort Myers",), "SAN": ("San Diego",),
    "SAT": ("San Antonio",), "SEA": ("Seattle",), "SFO": ("San Francisco",), "SJC": ("San Jose",),
    "SLC": ("Salt Lake City",), "SMF": ("Sacramento",), "SNA": ("Santa Ana", "Orange County", "John Wayne"),
    "STL": ("St. Louis", "Saint Louis"), "TPA": ("Tampa",), "TUS": ("Tucson",), "XNA": ("Northwest Arkansas",
    "Bentonville"), "ABQ": ("Albuquerque",), "ANC": ("Anchorage",), "BUF": ("Buffalo",), "BUR": ("Burbank",),
    "BOI": ("Boise",), "ELP": ("El Paso",), "RNO": ("Reno",), "RIC": ("Richmond",), "SDF": ("Louisville",),
    "YYZ": ("Toronto",), "YVR": ("Vancouver",), "YUL": ("Montreal",), "YYC": ("Calgary",),
    "MEX": ("Mexico City",), "CUN": ("Cancun",), "LHR": ("London Heathrow", "Heathrow"),
    "LGW": ("London Gatwick", "Gatwick"), "CDG": ("Paris", "Charles de Gaulle"), "FRA": ("Frankfurt",),
    "AMS": ("Amsterdam",), "MAD": ("Madrid",), "BCN": ("Barcelona",), "FCO": ("Rome",), "MUC": ("Munich",),
    "ZRH": ("Zurich",), "DUB": ("Dublin",), "NRT": ("Tokyo Narita", "Narita"), "HND": ("Tokyo Haneda", "Haneda"),
    "ICN": ("Seoul", "Incheon"), "HKG": ("Hong Kong",), "SIN": ("Singapore",), "SYD": ("Sydney",),
    "DXB": ("Dubai",), "DOH": ("Doha",), "DEL": ("Delhi",), "BOM": ("Mumbai",), "GRU": ("Sao Paulo",),
}  # fmt: skip

_CODE = re.compile(r"\b[A-Z]{3}\b")
_CONNECTORS = re.compile(r"(?i)\b(to|from|and|via|then|round ?trip)\b|[\s,;/()→>-]+")


def airport_codes(value: str) -> list[str]:
    """The airport codes a value is made of ('AUS to LAX', 'ORD→MIA', 'JFK'), or [] if it holds
    anything else (other words, unknown codes)."""
    codes = _CODE.findall(value)
    if not codes or any(c not in AIRPORT_NAMES for c in codes):
        return []
    return codes if not _CONNECTORS.sub("", _CODE.sub("", value)).strip() else []
