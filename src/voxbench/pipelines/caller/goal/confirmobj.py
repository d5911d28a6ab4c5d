"""What a confirm or verify verb's object names: one of the caller's facts, the matter in hand, or
a field the caller does not have.

"Please confirm your vehicle license plate." and "Please confirm your booking." have one form; a
person states the first (or says it does not have one) and says yes or no to the second. The
object decides, read against the caller's own scenario, not a list of field nouns:

* it shares a word with one of the caller's facts ('your phone number' to a caller holding its
  phone's last four, 'your date of birth'): a request for that fact;
* its head is a record or an action an agent has in hand ('your booking', 'your leave request':
  :data:`.scope.OFFER_WORDS`), or every word of it is in what the caller came for (its goal,
  requests, tree, facts: :attr:`.facts.FactBook.matter`, 'your IntelliJ license' to a caller
  asking for one): the matter in hand, a yes/no;
* otherwise it names something the call is not about and the caller holds no fact for ('your
  vehicle license plate' to a caller rebooking a flight): a field asked, which the caller says it
  does not have.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.facts import FactBook, stem
from voxbench.pipelines.caller.goal.scope import CALENDAR, OFFER_WORDS
from voxbench.pipelines.caller.goal.tree import content_words


def _held_words(book: FactBook) -> set[str]:
    return {stem(w) for f in book for w in f.words if len(w) > 2}


def asks_a_field(obj: str, book: FactBook) -> bool:
    """Whether a confirm verb's object ``obj`` ('vehicle license plate') asks the caller to state
    a field (held or not), rather than to confirm the matter in hand (see the module docstring)."""
    words = [w for w in re.findall(r"[a-z]+", obj.lower()) if len(w) > 2]
    if not words:
        return False
    said = content_words(obj)
    if stem(words[-1]) in OFFER_WORDS or not said:  # 'your booking', 'your request'
        return False
    if {stem(w) for w in words} & _held_words(book):  # 'your phone number', 'your date of birth'
        return True
    return not said - OFFER_WORDS - CALENDAR <= book.matter
