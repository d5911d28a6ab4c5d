"""Weak-agent turns of five classes that name several of the caller's facts in one turn, templates
in ``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns`
does for the other classes:

* ``readback_several_right``: two or three of its values read back in one question, each by its
  label or bare, some spelled letter by letter ("So that's Z K 3 F F W, and the last name
  Rodriguez, R O D R I G U E Z?", "Just to confirm: employee ID EMP123456, date of birth March 3,
  1980 - is that right?"); expected: a yes (live: "Sorry, I don't have that information.");
* ``readback_several_one_wrong``: the same with one value changed to another of its kind;
  expected: a no with that fact's own value;
* ``listed_held``: three or four of its facts asked as one listed ask ("your employee ID, your
  last name, and your date of birth?"); expected: every one said;
* ``listed_one_unheld``: two or three of its facts and one field it has no fact for
  (``several.lacked``: 'mother's maiden name', a head word its facts have) asked the same way;
  expected: every fact, and that it does not have the other (live: the last name dropped beside
  'your mother's maiden name').

* ``end_stall_readback``: an agent that makes no progress: three of its facts asked and given,
  then asked again in turn, eight times, one of the eight a read-back of two of them (right);
  expected: it has ended by the eighth (``ends_by``, as ``end_stall_long``: EVA's caller ends
  when "the assistant has not been helpful for 5 consecutive turns"). A yes to a read-back of
  what it already gave moves nothing on; counted as progress, it bought the agent six turns more.

The facts are those :func:`.weak_fields.askable` finds (asked by their label, one fact each), no
label word shared between two of one item.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, SeveralWords, changed, label, said
from voxbench.bench.weak_fields import askable
from voxbench.bench.weak_item import digest

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

CLASSES = ("readback_several_right", "readback_several_one_wrong", "listed_held", "listed_one_unheld",
           "end_stall_readback")  # fmt: skip
_SPELLED = ("code", "name")
"""Kinds of a value an agent spells back letter by letter."""
_BARE = ("code", "name", "date")
"""Kinds of a value an agent reads back with no label ('So that's Z K 3 F F W, ...'): first only,
and changed only a code (a near miss of its own, no other field's; another name or date is)."""


def _h(*parts: str) -> int:
    return int(digest(*parts)[:8], 16)


def spelled(value: str) -> str:
    """'ZK3FFW' -> 'Z K 3 F F W', 'Rodriguez' -> 'R O D R I G U E Z'."""
    return " ".join(c.upper() for c in value if c.isalnum())


def fact_sets(b: Builder, tag: str, least: int, most: int, held: bool = False) -> list[list[Leaf]]:
    """Up to ``per_class`` sets of ``least``..``most`` of its askable facts, no label word in common
    within a set, each set in an order fixed by a hash (no seed); ``held``: only values it holds as
    they are (no wish, limit or preference: ``report_not_held``), which a read-back can only match."""
    drop = set(b.t.report_not_held) if held else set()
    own = [f for f in askable(b) if not (f.value.isdigit() and len(f.value) <= 2) and not set(f.words) & drop]
    out: list[list[Leaf]] = []
    for n in range(b.t.per_class):
        salt = f"{b.sid}/{tag}/{n}"
        picked: list[Leaf] = []
        for f in sorted(own, key=lambda x: _h(salt, x.key)):
            if not any(
                set(f.words) & set(o.words) or f.value in o.value or o.value in f.value for o in picked
            ):
                picked.append(f)
        picked = picked[: least + _h(salt) % (most - least + 1)]
        if len(picked) >= least and [f.key for f in picked] not in [[g.key for g in s] for s in out]:
            out.append(picked)
    return out


def join_items(items: list[str], w: SeveralWords) -> str:
    """'A, B, and C' / 'A and B' (the table's 'and')."""
    and_ = w.joiner
    return f" {and_} ".join(items) if len(items) == 2 else ", ".join(items[:-1]) + f", {and_} {items[-1]}"


def read_item(w: SeveralWords, f: Leaf, value: str, salt: str, first: bool) -> str:
    """One value read back, in one of the table's item forms (spelled for a code or a name; bare
    only as the first of the turn's items and of a kind told by its form, 'So that's Z K 3 F F W, ...')."""
    bare = first and f.kind in _BARE and (value == f.value or f.kind == "code")
    forms = [x for x in w.items if bare or not x.startswith(("{value}", "{spelled}"))]
    if f.kind not in _SPELLED or not any(c.isalpha() for c in value):  # a phone number is not spelled
        forms = [x for x in forms if "{spelled}" not in x]
    form = forms[_h(salt, f.key, "form") % len(forms)]
    return form.format(label=label(f), value=said(value), spelled=spelled(value))


def several(b: Builder) -> None:
    """The classes' items of one scenario (see the module docstring)."""
    w = b.t.several
    if w is None or "listed_held" not in b.t.classes:
        return
    for n, picked in enumerate(fact_sets(b, "readback_several", 2, 3, held=True)):
        salt = f"{b.sid}/readback_several/{n}"
        items = [read_item(w, f, f.value, salt, i == 0) for i, f in enumerate(picked)]
        turn = b.template("readback_several_right", salt).format(items=join_items(items, w))
        b.add("readback_several_right", turn)
        wrong = [f for f in picked if changed(f, b.taken)]
        if not wrong:
            continue
        bad = wrong[_h(salt, "wrong") % len(wrong)]
        items = [read_item(w, f, changed(f, b.taken) or "" if f is bad else f.value, salt, i == 0)
                 for i, f in enumerate(picked)]  # fmt: skip
        turn = b.template("readback_several_one_wrong", salt).format(items=join_items(items, w))
        b.add("readback_several_one_wrong", turn, [bad.key])
    for n, picked in enumerate(fact_sets(b, "listed_held", 3, 4)):
        salt = f"{b.sid}/listed_held/{n}"
        _listed(b, w, "listed_held", salt, [label(f) for f in picked], [f.key for f in picked])
    _stall_readback(b, w)
    lacked = _lacked(b, w)
    for n, picked in enumerate(fact_sets(b, "listed_one_unheld", 2, 3) if lacked else []):
        salt = f"{b.sid}/listed_one_unheld/{n}"
        labels = [label(f) for f in picked]
        at = _h(salt, "at") % (len(labels) + 1)
        labels.insert(at, lacked[_h(salt, "lacked") % len(lacked)])
        _listed(b, w, "listed_one_unheld", salt, labels, [f.key for f in picked])


def _listed(b: Builder, w: SeveralWords, cls: str, salt: str, labels: list[str], must: list[str]) -> None:
    template = b.template(cls, salt)
    turn = template.format(
        items=join_items(labels, w), your_items=join_items([f"{w.your} {x}" for x in labels], w)
    )
    b.add(cls, turn, must)


def _lacked(b: Builder, w: SeveralWords) -> list[str]:
    """The fields of ``several.lacked`` no fact of the scenario holds (as :meth:`.Builder.lacked`)."""
    held = {w for f in b.facts for w in f.words}
    generic = {"number", "address", "name"}
    return [x for x in w.lacked if not (set(x.replace("'s", "").split()) - generic) & held]


_STALL = 8
"""Agent turns that bring nothing in ``end_stall_readback`` (``end_stall_long``'s count)."""


def _stall_readback(b: Builder, w: SeveralWords) -> None:
    """Three facts asked (given), then asked again in turn with a read-back of the first two second
    of the eight turns that bring nothing (module docstring)."""
    ends = b.t.endings
    sets = fact_sets(b, "end_stall_readback", 3, 3, held=True)
    if ends is None or not ends.stall_field or not sets:
        return
    picked, salt = sets[0], f"{b.sid}/end_stall_readback"
    asks = [b.template_of(ends.stall_field, "end_stall_field", f.key).format(label=label(f)) for f in picked]
    read = [read_item(w, f, f.value, salt, i == 0) for i, f in enumerate(picked[:2])]
    readback = b.template("end_stall_readback", salt).format(items=join_items(read, w))
    again = [asks[n % len(asks)] for n in range(_STALL - 1)]
    again.insert(1, readback)
    b.add("end_stall_readback", again[-1], context=asks + again[:-1])
