"""Weak-agent turns of two classes an ask the caller can only partly answer falls in, templates in
``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns` does
for the other classes:

* ``some_held_asked``: one of its facts and a field it has no fact for asked in one turn ("Could
  you provide your employee ID and your passport number?"); expected: the fact, and that it does
  not have the other (live medical_hr: 'your employee ID and the shift ID' answered with the ID
  alone, the agent asked again and the caller left);
* ``unheld_alone``: an identifier asked alone that no fact of its holds, qualified by the first
  word of one of its dates or times ("Could you provide the shift ID?" holding ``shift_date`` and
  ``shift_start_time``); expected: that it does not have it (it may give the date and time too).
  Live, the caller gave the date and time as if they were the ID;
* ``present_asked``: the date (and time) of the call asked ("What's the current date and
  time?"), a question about the world and about none of its facts; expected: the date of the call,
  which EVA's caller prompt gives it ('Today is {current_date_time}.'), and none of its own dates
  or times (live: 'The date birth is August 22, 1991. The date is September 14, 2026.');
* ``presence_check``: a turn that only checks the caller is on the line ("Hello? Are you still
  there?"), first thing, and again after one of its facts was asked for; expected: a yes (it is
  there) and no fact (live airline: "Hello?" answered "Sorry, I don't have that information.").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.caller_check import call_date_time
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.weak_facts import label, said
from voxbench.bench.weak_fields import askable
from voxbench.spoken.moment import call_date

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def lack_classes(b: Builder) -> None:
    """The four classes' items of one scenario."""
    lacked = b.lacked()
    own = askable(b)
    for f in b.pick(own, lambda f: f"some_held/{f.key}"):
        x = b.pick(lacked, lambda x, k=f.key: f"some_held/{k}/{x}")[:1]
        if x:
            turn = b.template("some_held_asked", f.key + x[0]).format(a=label(f), lacked=x[0])
            b.add("some_held_asked", turn, [f.key])
    unheld_alone(b)
    presence_checks(b)
    day = call_date(b.scenario.current_date_time)
    if not day:  # no date of the call: nothing the answer could be graded against
        return
    # a fact the call's date or time cannot be said without (the same day, the same hour) is no fault
    info = b.scenario.user_goal.information_required
    inside = set(facts_said(f"{said(day)}. {call_date_time(b.scenario)}", goal_facts(info)))
    timed = [f.key for f in b.own if f.kind in ("date", "time") and f.key not in inside]
    for t in b.pick(b.t.classes["present_asked"].templates, lambda t: f"present/{t}")[:1]:
        b.add("present_asked", t, must_not=timed, when=day)


_IDENTIFIER = ("id", "number", "code", "num", "no")


def unheld_alone(b: Builder) -> None:
    """``unheld_alone``: the thing a date or time of the caller's is of, asked for by an identifier
    no fact of its holds (no fact has both the thing's word and an identifier word)."""
    skip = set(b.t.unheld_skip) | set(b.t.want_words)
    things = sorted({f.words[0] for f in b.own if f.kind in ("date", "time") and len(f.words) > 1})
    things = [w for w in things if w not in skip and len(w) > 2 and w.isalpha()]
    coded = {w for f in b.facts if set(f.words) & set(_IDENTIFIER) for w in f.words}
    for w in b.pick([w for w in things if w not in coded], lambda w: f"unheld_alone/{w}")[:1]:
        b.add("unheld_alone", b.template("unheld_alone", w).format(thing=w), [])


def presence_checks(b: Builder) -> None:
    """``presence_check``: the check alone, then after one of its facts was asked (the caller's
    answer to that ask is context, not graded); no fact of its may be said."""
    cls = b.t.classes["presence_check"]
    keys = [f.key for f in b.own]
    b.add("presence_check", b.template("presence_check", "first"), must_not=keys)
    for f in b.pick(askable(b), lambda f: f"presence/{f.key}")[:1]:
        turn = b.template("presence_check", f.key)
        b.add("presence_check", turn, must_not=keys, context=[cls.context[0].format(label=label(f))])
