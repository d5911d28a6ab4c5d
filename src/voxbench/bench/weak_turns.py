"""Weak-agent turns: what a small agent says that EVA's reference agents never do, generated per
scenario from its own facts by templates per class (``bench/lang/weak_<lang>.json``).

The caller check replays only the reference (strong) agents' turns, so a caller rule that fails on
"Could you please confirm your name is <the husband's name>?" is invisible to it. Each class here
is a template filled with one scenario's own facts, never written per item:

* ``readback_changed`` / ``record_changed``: a fact read back (alone, or in a record with the
  caller's other facts of its group right) with its value changed to another of the same kind
  (a date three days on, a time two hours on, a number's first digit up, a code's last two
  characters moved, another name or airport code); expected: a correction with the right value;
* ``confirm_other_person``: the caller's own field confirmed with another person's value of that
  field (``colleague_employee_id`` for ``employee_id``); expected: a correction with its own value;
* ``confirm_right``: the right value; expected: yes;
* ``record_other`` / ``record_right``: the caller's record read back by its places and date alone,
  no field words ("You have a flight from ORD to SEA on May 14."), all changed / all right;
  expected: a no with its own values / no correction (any reply but a no);
  ``record_one_changed``: the same with one part changed, the others right ("It's for a flight
  from SEA to BOS on May 17. Is this correct?" to a caller flying on May 14); expected: a no with
  the changed part's own value;
* ``report_changed`` / ``report_right``: a completion report or anything-else turn ("All done. I
  have recorded your employee ID as EMP091687. Is there anything else ...?") stating one of the
  caller's fixed values (no preference, limit or amount) changed / right; expected: a no with its
  own value / no correction (it does not say the value again, nor that it is wrong);
* ``go_ahead``: "Please go ahead." after the caller gave an identifier; expected: it states its
  business (not "I'm not sure", not a bare fragment);
* ``point_back``: a field named in a statement, then "Can you provide that information?";
  ``repeated``: the same question again; expected: the fact;
* ``lacking``: a field it has no fact for; expected: it says it does not have it;
* ``lacking_modal``: the same as a modal yes/no question of a giving verb ("Can you provide me with
  your fax number?", "Are you able to provide the passport number?"); expected: as ``lacking``,
  never "Yes, I can.";
* ``lacking_confirm``: the same asked by a confirm or verify verb stating no value ("Can you confirm
  your fax number?"); expected: as ``lacking``, never "Yes, go ahead.";
* ``confirm_asked``: one of its fields asked that way ("Please verify your employee ID."): a request,
  not a read-back; expected: the fact;
* ``announce``: what the agent will do next, a field's words as its topic, no question ("Let me
  check the leave category for you."); expected: it waits or acknowledges, no fact, not "I don't
  have that";
* ``vague_request``: a request for information naming no field or only its purpose ("Could you
  give me the details I need?"); expected: the facts its words name, else a question back asking
  what is needed, never a bare yes;
* ``goal_open``: an open question the goal's own text answers, not a fact (:mod:`.weak_goal`);
  expected: the tree's answer in words (two thirds of its content words);
* ``goal_wish``: a thing the caller wants, described by its goal in words and held by no fact,
  asked for by its noun ("What kind of flight would you like?", :mod:`.weak_wish`); expected: the
  goal's words for it (two thirds of the phrase's content words);
* ``statement_right`` / ``statement_changed`` / ``statement_report``, ``cut_request``,
  ``have_preference`` / ``have_no_preference``: turns as heard through speech recognition
  (:mod:`.weak_heard`);
* ``stated_then_asked`` / ``readback_other_asked``: a value it gave stated, then its field asked
  for again / another field asked for (:mod:`.weak_restate`);
* ``record_fields_asked`` / ``record_route_asked``: a field of several listed records, a route's
  two ends, asked (:mod:`.weak_records`);
* ``two_part_asked``, ``readback_both_asked``, ``thing_label``, ``not_found_keys``: classes read
  in live calls (:mod:`.weak_live`); ``two_fields_asked``: two of its facts asked by their labels,
  those two and no other said (:mod:`.weak_fields`); ``enumerated_asks``: three to five asked as
  a numbered list (:mod:`.weak_enumerated`); ``some_held_asked``: one of its facts and a field it
  lacks asked together, ``present_asked``: the date of the call asked (:mod:`.weak_lack`);
  ``hold_turn``: a hold naming one of its fields, first thing and after it was asked
  (:mod:`.weak_holds`);
* ``end_*``: the end of a call with more than one request (:mod:`.weak_endings`), and around
  its last report (:mod:`.weak_closings`), and on its failure side: an agent error, a thing
  the tree says to accept being told, an action said as to come (:mod:`.weak_failures`), and
  in the middle of a call with several requests and with an agent that makes no progress
  (:mod:`.weak_midcall`), and at the refusal that meets a tree line's count of push-backs or
  attempts and the one before it (:mod:`.weak_treeend`), and where an ending rule could end it
  before EVA's rules let it: a forbidden transfer offered again with another request open, a
  refusal naming none after the caller moved on, a check before ending answered only by an action
  to come (:mod:`.weak_premature`);
* ``offer_stated_*``: an offer or a choice said as a statement, and a statement of fact as the
  control (:mod:`.weak_offers`);
* ``fallback_*``: a goal with a fallback: the request stated without it, the fallback taken once
  the request it backs up is refused (:mod:`.weak_fallback`);
* ``refused_*``: a tree step refusing one of its facts added, that fact asked, asked again, and
  another asked (:mod:`.weak_refusals`);
* ``misheard_*``, ``reasked_*``: a name or code read back mis-heard, or asked again, once to
  three times: the value, spelled from the second failed hearing on (:mod:`.weak_misheard`);
* ``readback_several_*``: two or three of its values read back in one question, all right or one
  changed; ``listed_held`` / ``listed_one_unheld``: three or four fields asked in one listed ask,
  all held or one not; ``end_stall_readback``: an agent that makes no progress, one of its eight
  turns a read-back of two facts it gave (:mod:`.weak_several`);
* ``whose_*``: a fact asked by its owner where the caller holds another person's facts: the
  other's held, a field the other has no fact of, the caller's own as "your X" (:mod:`.weak_whose`);
* ``option_*``: its request and things no goal asks for offered as options, the ways agents
  phrase them ('A or B?', 'Alternatively, ...', ordinals, numbered lists, after a refusal:
  :mod:`.weak_choices`).

The table and the caller's facts as templates use them are :mod:`.weak_facts`; a scenario's
items are built on a :class:`.weak_builder.Builder` (the classes written from the table's
templates alone are its methods); :data:`CLASSES` below lists every class's builder in the order
its items are made. Each item (:class:`.weak_item.WeakItem`) carries the act expected and the
facts that must (and must not) be said; the dev/test half is the caller check's split
(:func:`half`). A new class: a module with a function of a :class:`Builder`, one line in
:data:`CLASSES`.
"""

from __future__ import annotations

from collections.abc import Callable

from voxbench.bench.weak_alternatives import alternatives_declined
from voxbench.bench.weak_builder import Builder
from voxbench.bench.weak_choices import choices
from voxbench.bench.weak_closings import closings
from voxbench.bench.weak_donelist import done_with_values, readback_at_end
from voxbench.bench.weak_endings import endings
from voxbench.bench.weak_enumerated import enumerated
from voxbench.bench.weak_facts import (
    Leaf,
    WeakClass,
    WeakTable,
    changed,
    key_label_words,
    kind_of,
    label,
    leaves,
    person_pairs,
    said,
    table,
)
from voxbench.bench.weak_failures import failures
from voxbench.bench.weak_fallback import fallbacks
from voxbench.bench.weak_fields import two_fields
from voxbench.bench.weak_heard import cut_requests, preferences, statements
from voxbench.bench.weak_holds import holds
from voxbench.bench.weak_identity import identity_classes, identity_pairs
from voxbench.bench.weak_item import WeakItem, half
from voxbench.bench.weak_lack import lack_classes
from voxbench.bench.weak_live import live_classes
from voxbench.bench.weak_midcall import midcall
from voxbench.bench.weak_misheard import misheard_classes
from voxbench.bench.weak_offers import offers
from voxbench.bench.weak_premature import premature
from voxbench.bench.weak_reask import reask_classes
from voxbench.bench.weak_records import record_fields
from voxbench.bench.weak_refusals import refusal_classes
from voxbench.bench.weak_restate import restated
from voxbench.bench.weak_several import several
from voxbench.bench.weak_treeask import tree_asked
from voxbench.bench.weak_treeend import tree_endings
from voxbench.bench.weak_whose import whose_classes
from voxbench.bench.weak_wishes import confirm_wishes
from voxbench.scenarios import Scenario

__all__ = ["CLASSES", "Builder", "Leaf", "WeakClass", "WeakItem", "WeakTable", "changed", "generate", "half",
           "key_label_words", "kind_of", "label", "leaves", "person_pairs", "said", "table"]  # fmt: skip

CLASSES: tuple[Callable[[Builder], None], ...] = (
    Builder.readbacks,
    Builder.confirms,
    Builder.go_ahead,
    Builder.records,
    Builder.reports,
    Builder.asked_again,
    Builder.lacking,
    Builder.topics,
    Builder.goal_open,
    Builder.goal_wish,
    statements,
    cut_requests,
    preferences,
    restated,
    record_fields,
    live_classes,
    two_fields,
    identity_classes,
    endings,
    closings,
    failures,
    midcall,
    tree_endings,
    offers,
    tree_asked,
    alternatives_declined,
    confirm_wishes,
    identity_pairs,
    enumerated,
    fallbacks,
    choices,
    lack_classes,
    holds,
    reask_classes,
    refusal_classes,
    misheard_classes,
    several,
    whose_classes,
    done_with_values,
    premature,
    readback_at_end,
)
"""Every class's builder, in the order a scenario's items are made (the order is the report's)."""


def generate(domain: str, scenario: Scenario) -> list[WeakItem]:
    """Every weak-agent item of one (culture-resolved) scenario, from its own facts."""
    b = Builder(domain, scenario)
    for build in CLASSES:
        build(b)
    return b.items
