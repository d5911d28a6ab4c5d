"""The scenario a reference turn is said again in (:mod:`.weak_refasks`), and which of its facts
may stand in for each fact the source turn says or names: one of the same sort (an identifier
for an identifier, a date for a date, a wish for a wish) and the same whose."""

from __future__ import annotations

from voxbench.bench.matcher import goal_facts
from voxbench.bench.refused import refused_facts
from voxbench.bench.weak_facts import Leaf, table
from voxbench.bench.weak_item import digest, half
from voxbench.bench.weak_refharvest import caller_leaves
from voxbench.bench.weak_whose import owner
from voxbench.scenarios import Scenario

_MONEY = "$€£"


class Target:
    """A scenario turns are said again in: its facts (those its tree refuses left out, as
    :class:`.weak_builder.Builder` does), the caller's own and other persons'."""

    def __init__(self, domain: str, scenario: Scenario) -> None:
        self.domain, self.sid, self.half = domain, scenario.id, half(domain, scenario.id)
        self.goal = goal_facts(scenario.user_goal.information_required)
        refused = refused_facts(scenario, self.goal)  # its tree refuses them: asked, not given
        self.facts = [f for f in caller_leaves(scenario) if f.key not in refused]
        self.taken = {f.value for f in self.facts}
        unique = [f for f in self.facts if not any(p.isdigit() for p in f.key.split("."))
                  and all(o.value != f.value and o.words != f.words for o in self.facts if o.key != f.key)]  # fmt: skip
        self.own = [f for f in unique if not owner(f)[0]]
        self.others = [f for f in unique if owner(f)[0]]


def sort_of(f: Leaf) -> str:
    """The value's sort a stand-in must share: its kind, money apart from codes, identifiers
    (:func:`_identifier`) and numbers of four digits or more as identifiers, shorter numbers as counts, codes of letters
    as words, and whether it is a wish or a limit (``report_not_held``
    words: 'desired', 'maximum') or a value the caller holds."""
    kind = f.kind
    if f.value[:1] in _MONEY:
        kind = "money"
    elif (kind == "code" and _identifier(f.value)) or (kind == "number" and len(f.value) >= 4):
        kind = "identifier"  # 'EMP092841', an NPI's ten digits, a phone number
    elif kind == "number":
        kind = "count"
    elif kind == "code":
        kind = "word"  # 'EMERGENCY', 'FL2', '14-inch': a short code names a thing, as a text does
    wish = bool(set(owner(f)[1]) & set(table().report_not_held))  # 'new hire' names whose, no wish
    return f"{kind}/{'wish' if wish else 'held'}"


def _identifier(value: str) -> bool:
    """A code that identifies a record ('EMP092841', 'ZK3FFW', 'KAFN-13R', '+1-206-555-0334'): five
    letters or digits or more, one a digit, no lower-case word; not 'FL2' or '14-inch'."""
    chars = [c for c in value if c.isalnum()]
    return len(chars) >= 5 and any(c.isdigit() for c in chars) and not any(c.islower() for c in chars)


def _fits(f: Leaf, g: Leaf) -> bool:
    """Whether ``g`` may stand in for ``f``: the same sort and whose (the caller's own or another
    person's); a count or a text, only with the same last label word ('days', 'type'): 'sixty
    days' said of an attendee count, or 'footrest' of an access level, is no turn an agent says."""
    if sort_of(f) != sort_of(g) or bool(owner(f)[0]) != bool(owner(g)[0]):
        return False
    return sort_of(f).split("/")[0] not in ("count", "text", "word") or f.words[-1:] == g.words[-1:]


def map_facts(src: list[Leaf], t: Target, salt: str) -> dict[str, Leaf] | None:
    """Each source fact -> a distinct target fact that may stand in for it (:func:`_fits`; the same
    label first, then the same last word, then by a hash), None when one has none."""
    out: dict[str, Leaf] = {}
    for f in sorted(src, key=lambda x: x.key):
        free = [g for g in [*t.own, *t.others] if _fits(f, g) and g not in out.values()]
        if not free:
            return None
        out[f.key] = min(free, key=lambda g: (g.words != f.words, g.words[-1:] != f.words[-1:],
                                              digest(salt, f.key, g.key)))  # fmt: skip
    return out
