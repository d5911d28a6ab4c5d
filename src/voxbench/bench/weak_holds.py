"""Weak-agent turns of one class, a hold, templates in ``bench/lang/weak_<lang>.json`` filled with
one scenario's own field labels, as :mod:`.weak_turns` does for the other classes:

* ``hold_turn``: the agent asks for time or announces its own checking, alone, first thing and
  again after one of the caller's facts was asked for (the caller's answer is context, not
  graded): "One moment while I pull up your employee ID.", "I'm checking the shift date now.",
  "Bear with me while I look into your confirmation number."; expected: the caller waits (silence
  or an acknowledgement), says no fact, does not say it lacks anything, asks nothing and does not
  hang up (live, small agents: "One moment, let me verify." got "I'm afraid I don't have that.").

Its templates are worded apart from the caller's hold grammar (:mod:`..pipelines.caller.goal.holds`)
and from the wordings it was written on (``benchmarks/caller_turn_kinds.json``): they measure
reach, not the wiring. Each names a field of the caller's, which a caller reading the turn as a
question would answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import label
from voxbench.bench.weak_fields import askable

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def holds(b: Builder) -> None:
    """``hold_turn``: one of its askable fields named by a hold, first thing and after that field
    was asked; no fact of its may be said."""
    cls = b.t.classes["hold_turn"]
    keys = [f.key for f in b.own]
    for f in b.pick(askable(b), lambda f: f"hold/{f.key}")[:1]:
        name = label(f)
        b.add("hold_turn", b.template("hold_turn", "first").format(label=name), must_not=keys)
        turn = b.template("hold_turn", f.key).format(label=name)
        b.add("hold_turn", turn, must_not=keys, context=[cls.context[0].format(label=name)])
