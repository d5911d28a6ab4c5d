"""Weak-agent turns for a tree that tells the caller to refuse one of its facts, templates in
``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns` does
for the other classes. The class adds the refusing step to the scenario's tree (``WeakItem.steps``:
"If the agent asks for your <label>, refuse to provide it and ..."), the way EVA's trees test an
agent's verification policy (airline 7.1.1: the last name and the confirmation number, keyed
``..._if_eventually_provided``):

* ``refused_asked``: that fact asked; expected: a refusal, the fact not said (not a hang-up);
* ``refused_asked_again``: asked a second time, the agent insisting; expected: the same;
* ``refused_other_asked``: another of its facts asked under that tree; expected: that fact, and
  not the refused one (the refusal is of the one fact, not of every ask).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import label
from voxbench.bench.weak_fields import askable

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_KINDS = ("code", "name", "number", "capitals")


def refusal_classes(b: Builder) -> None:
    """The three classes' items of one scenario: one refused fact (picked by a hash), another asked."""
    own = [f for f in askable(b) if f.kind in _KINDS]
    for f in b.pick(own, lambda f: f"refused/{f.key}")[:1]:
        step = b.template("refused_asked", f"step/{f.key}")
        every = [*b.t.refusal_steps, *b.t.refusal_steps_wide]
        steps = [b.template_of(every, "refused", f.key).format(label=label(f))]
        narrow = [b.template_of(b.t.refusal_steps, "refused", f.key).format(label=label(f))]
        ask = step.format(label=label(f))
        b.add("refused_asked", ask, must_not=[f.key], steps=steps)
        again = b.template("refused_asked_again", f.key).format(label=label(f))
        b.add("refused_asked_again", again, must_not=[f.key], context=[ask], steps=steps)
        for o in b.pick([o for o in own if o.key != f.key], lambda o: f"refused_other/{o.key}")[:1]:
            turn = b.template("refused_other_asked", o.key).format(label=label(o))
            b.add("refused_other_asked", turn, [o.key], must_not=[f.key], steps=narrow)  # one fact refused
