"""Synthetic records shaped like EVA's airline calls, with values drawn per record.

Used by `benchmarks/eval_throughput.py` (its default workload: texts rarely repeat across
records, as in real runs) and by the golden test that pins their scores, so speed work on
scoring is checked against fixed outputs for varied text (numbers spoken and written,
codes, amounts, ordinals, STT errors).
"""

from __future__ import annotations

import random

from tests.eval.builders import Conv


def _words(s: str) -> list[str]:
    return s.split()


_ONES = _words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
)
_TENS = _words("_ _ twenty thirty forty fifty sixty seventy eighty ninety")
_NATO = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        _words(
            "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey X-ray Yankee Zulu"
        ),
        strict=True,
    )
)
_NAMES = _words("Rodriguez Nguyen Okafor Schmidt Patel Kowalski Haddad Moreau Tanaka Johansson Silva Murphy")
_CITIES = _words("Austin Denver Boston Seattle Chicago Miami Phoenix Atlanta Dallas Portland")
_MONTHS = _words("January February March April May June July August September October November December")
_ORD = {1: "first", 2: "second", 3: "third", 5: "fifth", 8: "eighth", 9: "ninth", 12: "twelfth"}


def spoken(n: int) -> str:
    """English words for 0 <= n < 10,000 ("three hundred forty", "twenty-one")."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _ONES[n % 10])
    if n < 1000:
        return f"{_ONES[n // 100]} hundred" + ("" if n % 100 == 0 else " " + spoken(n % 100))
    return f"{spoken(n // 1000)} thousand" + ("" if n % 1000 == 0 else " " + spoken(n % 1000))


def spoken_ordinal(n: int) -> str:
    """1..31 as an ordinal word ("twenty-fifth")."""
    if n in _ORD:
        return _ORD[n]
    if n % 10 in _ORD and n > 20:
        return _TENS[n // 10] + "-" + _ORD[n % 10]
    w = spoken(n)
    return (w[:-1] + "ieth") if w.endswith("y") else w + "th"


def digits_ordinal(n: int) -> str:
    sfx = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{sfx}"


def mishear(rng: random.Random, text: str) -> str:
    """An STT transcript of `text`: mostly right, sometimes a word dropped, doubled or swapped
    for a near miss, punctuation and case as a recogniser writes them."""
    words = text.split()
    out: list[str] = []
    for w in words:
        r = rng.random()
        if r < 0.02:
            continue
        if r < 0.03:
            out += [w, w]
        elif r < 0.05:
            out.append(w[:-1] if len(w) > 3 else w + "s")
        else:
            out.append(w)
    heard = " ".join(out)
    return heard.replace("!", ".") if rng.random() < 0.5 else heard.lower()


def varied(rng: random.Random, i: int) -> Conv:
    """A record shaped like EVA's airline calls: 4-12 exchanges; the caller gives a code
    (letters, digits, spelled out or in NATO words), a name, dates, amounts, flight numbers
    in digits; the agent reads them back in words in longer turns; the STT transcripts of
    both sides carry a few errors. Values are drawn per record, so texts rarely repeat
    across records (as in real runs: the greeting and some stock phrases do)."""
    c = Conv(scenario_id=f"s{i % 50}", trial=i // 50)
    code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    name, city, dest = rng.choice(_NAMES), rng.choice(_CITIES), rng.choice(_CITIES)
    month = rng.choice(_MONTHS)
    flight, fare = rng.randint(100, 999), rng.randint(60, 900)
    lines = [
        (f"Hi, I need to change my flight to {month} {digits_ordinal(rng.randint(1, 28))}.",
         "Sure. First, I'll need to pull up your reservation. What's your six-character confirmation number, and the last name on the booking?"),
        (f"The confirmation is {' '.join(code)} and the last name is {name}.",
         f"Got it. I've pulled up {name}, confirmation code {' '.join(_NATO.get(ch, spoken(int(ch)) if ch.isdigit() else ch) for ch in code)}. "
         f"You're on flight Sierra Kilo {spoken(flight)} on {month} {spoken_ordinal(rng.randint(1, 28))}, seat {spoken(rng.randint(1, 40))} {rng.choice('ABCDEF')}."),
        (f"Yeah, same route. {city} to {dest}. I want to arrive by {rng.randint(1, 11)} p.m.",
         f"For {month} {spoken_ordinal(rng.randint(1, 28))}, {city} to {dest}, I have two options. Option one departs {spoken(rng.randint(1, 12))} {spoken(rng.randint(10, 59))} PM, "
         f"and the fare is {spoken(fare)} dollars. Option two is flight SK{flight + 2}, departing at {rng.randint(1, 12)}:{rng.randint(10, 59)} PM."),
        (f"My max total to change is ${rng.randint(50, 300)}. Can you look for any other {city} flight on the {digits_ordinal(rng.randint(1, 28))}?",
         f"The total to change to flight {spoken(flight)} is {spoken(rng.randint(50, 300))} dollars, which is the {spoken(rng.randint(25, 99))} dollar change fee plus the fare difference. Shall I go ahead?"),
        (f"Yes, you have my okay to charge {rng.randint(50, 300)}. Please move me to Sierra Kilo {flight}.",
         f"All set. I rebooked you to flight SK{flight} on {month} {spoken_ordinal(rng.randint(1, 28))}. Your new confirmation is {code}. Is there anything else?"),
        (f"Can I add {rng.randint(1, 3)} checked bags? My loyalty number is {rng.randint(10_000_000, 99_999_999)}.",
         f"I added {spoken(rng.randint(1, 3))} bags for {spoken(rng.randint(30, 120))} dollars; your balance is now {spoken(rng.randint(100, 2000))} points."),
        ("No, that's all. Thanks for your help. Bye.", "You're welcome. Have a great flight!"),
    ]  # fmt: skip
    t = 0.5
    c.agent(t, t + 2.0, "Hello! How can I help you today?", heard="Hello, how can I help you today?")
    t += 2.0
    for k in range(rng.randint(4, 12)):
        said, reply = lines[min(k, len(lines) - 1)] if k < len(lines) else rng.choice(lines[:-1])
        t += rng.uniform(0.3, 1.5)
        dur = rng.uniform(1.0, 4.0)
        c.user(t, t + dur, said, heard=mishear(rng, said))
        t += dur
        if rng.random() < 0.4:
            c.tool(
                t + 0.2,
                "get_reservation",
                {"confirmation_number": code, "last_name": name},
                {"status": "success", "flight": f"SK{flight}", "fare": fare},
            )
        t += rng.uniform(-0.3, 4.0)
        dur = rng.uniform(2.0, 9.0)
        c.agent(t, t + dur, reply, heard=mishear(rng, reply))
        t += dur
    return c
