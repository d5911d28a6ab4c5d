"""The offline key-entity method on spoken forms stated per value kind, with no label read.

Each pair is what a caller meant to say and what an STT may write for it (dates, times, codes,
names, spellings, amounts, emails, phones), with the judgement a person would give: the same
value written another way is heard (True), one element changed is not (False); None marks a
pair with no key entity. A spelled O heard as a zero is not heard (EVA's people: "Z5OROH" heard
"Z-5-0-R-O-H" is wrong). Used to find classes of values the reader misreads without reading
the labelled halves (docs/judges.md, "entity-rules 0.3"). Prints the misread pairs and the count.

    PYTHONPATH=src .venv/bin/python benchmarks/key_entity_forms.py
"""

from __future__ import annotations

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline.key_entities import key_entities_offline

PAIRS: list[tuple[str, str, bool | None]] = [
    ("My flight is on March twenty fifth.", "My flight is on March 25th.", True),
    ("My flight is on March twenty fifth.", "My flight is on 3/25.", True),
    ("My flight is on March twenty fifth.", "My flight is on March 25.", True),
    ("My flight is on March twenty fifth.", "My flight is on March 24th.", False),
    ("I fly on the twenty fifth of March.", "I fly on the 25th of March.", True),
    ("I fly on the fifth of March.", "I fly on March 5th.", True),
    ("It was on June first.", "It was on June 1st.", True),
    ("It was on June first.", "It was on June 1.", True),
    ("It was on June first, twenty twenty six.", "It was on June 1st, 2026.", True),
    ("The date is 2026-06-10.", "The date is June 10th, 2026.", True),
    ("I leave at two forty five PM.", "I leave at 2:45 PM.", True),
    ("I leave at two forty five PM.", "I leave at 2.45 p.m.", True),
    ("I leave at two forty five PM.", "I leave at 245 PM.", True),
    ("I leave at two forty five PM.", "I leave at 2:55 PM.", False),
    ("I leave at two forty five PM.", "I leave at 2:45 AM.", False),
    ("I leave at noon.", "I leave at 12 PM.", True),
    ("I leave at noon.", "I leave at 12:00 p.m.", True),
    ("I leave at midnight.", "I leave at 12 AM.", True),
    ("I leave at ten fifteen in the morning.", "I leave at 10:15 in the morning.", True),
    ("I leave at seven thirty AM.", "I leave at 7:30 a.m.", True),
    ("I leave at seven oh five AM.", "I leave at 7:05 AM.", True),
    ("I leave at seven oh five AM.", "I leave at 7:50 AM.", False),
    ("I leave at 10:00 AM.", "I leave at ten a.m.", True),
    ("My code is B five O D Z X.", "My code is B5ODZX.", True),
    ("My code is B five O D Z X.", "My code is BODZX.", False),
    ("My code is B five O D Z X.", "My code is B 5 O D Z X.", True),
    ("My code is B five O D Z X.", "My code is B-5-O-D-Z-X.", True),
    ("My code is B five O D Z X.", "My code is b5odzx.", True),
    ("My code is B five O D Z X.", "My code is B50DZX.", False),
    ("My code is B five O D Z X.", "My code is B5ODZS.", False),
    ("My code is Kilo seven Papa three Quebec Foxtrot.", "My code is K7P3QF.", True),
    ("My code is Kilo seven Papa three Quebec Foxtrot.", "My code is kilo 7 papa 3 Quebec foxtrot.", True),
    ("My code is Kilo seven Papa three Quebec Foxtrot.", "My code is Kilo 7 Papa 3 Quebec Foxtrot.", True),
    ("My code is Kilo seven Papa three Quebec Foxtrot.", "My code is K7P3QS.", False),
    ("The code is double seven X Y Z.", "The code is 77XYZ.", True),
    ("The code is seven seven X Y Z.", "The code is double 7 XYZ.", True),
    ("My number is five five five, one two three, four five six seven.", "My number is 555-123-4567.", True),
    ("My number is five five five, one two three, four five six seven.", "My number is 555-123-4557.", False),
    ("My number is five five five one two three four five six seven.", "My number is (555) 123-4567.", True),
    ("The card ends in zero one two three.", "The card ends in 0123.", True),
    ("The card ends in zero one two three.", "The card ends in 0 1 2 3.", True),
    ("The card ends in zero one two three.", "The card ends in O one two three.", False),
    ("The card ends in zero one two three.", "The card ends in 1 2 3.", False),
    ("It cost one hundred twenty dollars.", "It cost $120.", True),
    ("It cost one hundred twenty dollars.", "It cost $120.00.", True),
    ("It cost one hundred twenty dollars.", "It cost 120 dollars.", True),
    ("It cost one hundred twenty dollars.", "It cost $112.", False),
    ("It cost a hundred and twenty dollars.", "It cost $120.", True),
    ("It cost one twenty.", "It cost $120.", True),
    ("It cost forty five dollars and fifty cents.", "It cost $45.50.", True),
    ("It cost $45.50.", "It cost forty five fifty.", True),
    ("Email me at mark dot lewis at gmail dot com.", "Email me at mark.lewis@gmail.com.", True),
    ("Email me at mark dot lewis at gmail dot com.", "Email me at mark.lewis at gmail.com.", True),
    ("Email me at mark dot lewis at gmail dot com.", "Email me at mark lewis at gmail dot com.", True),
    ("Email me at mark dot lewis at gmail dot com.", "Email me at marc.lewis@gmail.com.", False),
    ("My last name is Lewis.", "My last name is Louis.", False),
    ("My last name is Nguyen.", "My last name is Nguyen.", True),
    ("My last name is Lewis, L E W I S.", "My last name is Lewis, L-E-W-I-S.", True),
    ("My last name is Lewis, L E W I S.", "My last name is Lewis, LEWIS.", True),
    ("My last name is Lewis, L E W I S.", "My last name is Lewis, L-E-W-I-F.", False),
    ("Flight S W seven seven zero.", "Flight SW770.", True),
    ("Flight S W seven seven zero.", "Flight SW 770.", True),
    ("Flight S W seven seven zero.", "Flight SW717.", False),
    ("Flight seven seventy.", "Flight 770.", True),
    ("Flight twelve eighteen.", "Flight 1218.", True),
    ("Flight twelve eighteen.", "Flight 12 18.", True),
    ("Flight UA four fifty.", "Flight UA 450.", True),
    ("Flight UA four fifty.", "Flight UA450.", True),
    ("Flight UA four fifty.", "Flight UA 415.", False),
    ("Seat twelve C please.", "Seat 12C please.", True),
    ("Seat twelve C please.", "Seat 12 C please.", True),
    ("Seat twelve C please.", "Seat 12-C please.", True),
    ("Seat twelve C please.", "Seat 12 D please.", False),
    ("Seat twelve C please.", "Seat twelve see please.", False),
    ("I fly from AUS to LAX.", "I fly from AUF to LAX.", False),
    ("My member ID is M G H zero four B.", "My member ID is MGH04B.", True),
    ("My member ID is M G H zero four B.", "My member ID is MGH-04B.", True),
    ("My ID is E M P two eight eight five three zero.", "My ID is EMP288530.", True),
    ("My ID is E M P two eight eight five three zero.", "My ID is M288530.", False),
    ("The zip is nine four one oh two.", "The zip is 94102.", True),
    ("I have two bags.", "I have 2 bags.", None),
    ("It's for 3 passengers.", "It's for three passengers.", None),
    ("Arriving by 4 PM if possible.", "Arriving by 4 p.m. if possible.", True),
    ("Arriving by 4 PM if possible.", "Arriving by 4:00 PM if possible.", True),
    ("Arriving by 4 PM if possible.", "Arriving by four o'clock if possible.", True),
    ("the 3 o'clock flight", "the three o'clock flight", True),
    ("the 3 o'clock flight", "the 3:00 flight", True),
    ("the 3 o'clock flight", "the 2 o'clock flight", False),
    ("It's O as in Oscar, R as in Romeo.", "It's O as in Oscar, R as in Romeo.", True),
    ("Thursday, June eleventh.", "Thursday, June 11th.", True),
    ("Thursday, June eleventh.", "Thursday, June 7th.", False),
    ("December thirty first.", "December 31st.", True),
    ("December thirty first.", "December 30 first.", True),
    ("November fifth.", "November 5th.", True),
    ("November fifth.", "Nov 5.", True),
    ("November fifth.", "11/5.", True),
]


def main() -> int:
    misread = 0
    for i, (meant, heard, expected) in enumerate(PAIRS):
        ctx = ConversationContext(record_id=str(i), source="forms")
        ctx.intended_user_turns, ctx.transcribed_user_turns = {0: meant}, {0: heard}
        ents = (key_entities_offline(ctx).details.get("per_turn_entities") or {}).get(0, [])
        got = all(e["correct"] for e in ents if not e["skipped"]) if ents else None
        if got != expected:
            misread += 1
            print(f"expected {expected}, got {got}: {meant!r} | {heard!r}")
            for e in ents:
                print(f"    {e['type']} {e['value']!r} {e['correct']} {e['analysis']}")
    print(f"{misread} of {len(PAIRS)} pairs misread")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
