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
* ``end_*``: the end of a call with more than one request (:mod:`.weak_endings`), and around
  its last report (:mod:`.weak_closings`), and on its failure side: an agent error, a thing
  the tree says to accept being told, an action said as to come (:mod:`.weak_failures`), and
  in the middle of a call with several requests and with an agent that makes no progress
  (:mod:`.weak_midcall`), and at the refusal that meets a tree line's count of push-backs or
  attempts and the one before it (:mod:`.weak_treeend`);
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
  all held or one not (:mod:`.weak_several`);
* ``option_*``: its request and things no goal asks for offered as options, the ways agents
  phrase them ('A or B?', 'Alternatively, ...', ordinals, numbered lists, after a refusal:
  :mod:`.weak_choices`).

The table and the caller's facts as templates use them are :mod:`.weak_facts`.

Each item carries the act expected and the facts that must (and must not) be said; the dev/test
half is the caller check's split (:func:`half`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, Field

from voxbench.bench.matcher import goal_facts
from voxbench.bench.refused import refused_facts
from voxbench.bench.weak_alternatives import alternatives_declined
from voxbench.bench.weak_choices import choices
from voxbench.bench.weak_closings import closings
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
    split_words,
    table,
)
from voxbench.bench.weak_failures import failures
from voxbench.bench.weak_fallback import fallbacks
from voxbench.bench.weak_fields import two_fields
from voxbench.bench.weak_goal import answer_words, question_of, told_lines
from voxbench.bench.weak_heard import cut_requests, preferences, statements
from voxbench.bench.weak_identity import identity_classes, identity_pairs
from voxbench.bench.weak_lack import lack_classes
from voxbench.bench.weak_live import live_classes
from voxbench.bench.weak_midcall import midcall
from voxbench.bench.weak_misheard import misheard_classes
from voxbench.bench.weak_offers import offers
from voxbench.bench.weak_reask import reask_classes
from voxbench.bench.weak_records import record_fields
from voxbench.bench.weak_refusals import refusal_classes
from voxbench.bench.weak_restate import restated
from voxbench.bench.weak_several import several
from voxbench.bench.weak_treeask import tree_asked
from voxbench.bench.weak_treeend import tree_endings
from voxbench.bench.weak_whose import whose_classes
from voxbench.bench.weak_wish import phrase_words, wished
from voxbench.bench.weak_wishes import confirm_wishes
from voxbench.scenarios import Scenario

__all__ = ["Leaf", "WeakClass", "WeakItem", "WeakTable", "changed", "generate", "half", "key_label_words",
           "kind_of", "label", "leaves", "person_pairs", "said", "table"]  # fmt: skip


class WeakItem(BaseModel):
    """One graded agent turn: said after ``context`` (the caller's replies to those are not graded)."""

    domain: str
    scenario_id: str
    half: str
    cls: str
    act: str
    context: list[str] = Field(default_factory=list)
    turn: str
    must: list[str] = Field(default_factory=list, description="fact keys the reply must say")
    must_not: list[str] = Field(default_factory=list, description="fact keys the reply must not say")
    words: list[str] = Field(
        default_factory=list, description="the goal's words the reply must say (two thirds)"
    )
    open_words: list[list[str]] = Field(
        default_factory=list, description="each open request's words (ending classes)"
    )
    spelled: list[str] = Field(
        default_factory=list, description="values the reply must spell letter by letter"
    )
    not_offered: list[str] = Field(
        default_factory=list, description="a thing offered beside its request that the reply must not choose"
    )
    not_my: list[str] = Field(
        default_factory=list, description="things the reply must not call its own ('my application')"
    )
    framed: list[str] = Field(
        default_factory=list, description="wishes the reply, if it says them, must say as wishes"
    )
    when: str = Field(default="", description="the date of the call the reply must say (``present_asked``)")
    steps: list[str] = Field(
        default_factory=list,
        description="tree steps the class adds to the scenario's edge cases (:mod:`.weak_refusals`)",
    )
    told: int = Field(default=0, description="times the caller said the must fact before: no more claimed")
    not_words: list[str] = Field(default_factory=list, description="words the reply must not say ('also')")


def half(domain: str, scenario_id: str) -> str:
    """The caller check's split, fixed in advance: dev when sha256('domain/id')'s first 8 hex digits are even."""
    h = int(hashlib.sha256(f"{domain}/{scenario_id}".encode()).hexdigest()[:8], 16)
    return "dev" if h % 2 == 0 else "test"


def _pick(items: list[Any], scenario_id: str, key: Any, n: int) -> list[Any]:
    """Up to ``n`` items, in an order fixed by a hash of the scenario and each item (no seed)."""
    return sorted(items, key=lambda x: hashlib.sha256(f"{scenario_id}/{key(x)}".encode()).hexdigest())[:n]


_CHANGEABLE = ("date", "time", "number", "code", "capitals", "name")


def _fill(template: str, **kw: str) -> str:
    return template.format(**kw)


class Builder:
    """The items of one scenario."""

    def __init__(self, domain: str, scenario: Scenario) -> None:
        self.t = table()
        self.domain, self.sid = domain, scenario.id
        self.half = half(domain, scenario.id)
        self.scenario = scenario
        info = scenario.user_goal.information_required
        refused = refused_facts(scenario, goal_facts(info))  # its tree refuses them: asked, no answer
        self.facts = [f for f in leaves(info, set(self.t.label_drop)) if f.key not in refused]
        persons = set(self.t.persons)
        self.own = [f for f in self.facts if not set(f.words) & persons]
        self.others = [f for f in self.facts if set(f.words) & persons]
        self.taken = {f.value for f in self.facts}
        self.items: list[WeakItem] = []

    def pick(self, items: list[Any], key: Any) -> list[Any]:
        return _pick(items, self.sid, key, self.t.per_class)

    def lacked(self) -> list[str]:
        """The fields of ``lacked_fields`` no fact of the scenario holds (a word of theirs other than
        'number', 'address', 'name' is a word of none of its facts)."""
        held = {w for f in self.facts for w in f.words}
        return [x for x in self.t.lacked_fields if not set(x.split()) - {"number", "address", "name"} & held]

    def template(self, cls: str, salt: str) -> str:
        return self.template_of(self.t.classes[cls].templates, cls, salt)

    def template_of(self, ts: list[str], cls: str, salt: str) -> str:
        """One of ``ts``, picked by a hash of the scenario, the class and ``salt`` (no seed)."""
        return ts[int(hashlib.sha256(f"{self.sid}/{cls}/{salt}".encode()).hexdigest()[:6], 16) % len(ts)]

    def must_not(self, must: list[str]) -> list[str]:
        """Another person's facts of the kind of those asked: a caller must not give them for its own
        (one holding the same value as a fact asked cannot be told apart from it, and is left out)."""
        kinds = {f.kind for f in self.facts if f.key in must}
        values = {f.value for f in self.facts if f.key in must}
        return [o.key for o in self.others if o.kind in kinds and o.key not in must and o.value not in values]

    def add(self, cls: str, turn: str, must: list[str] | None = None, context: list[str] | None = None,
            must_not: list[str] | None = None, when: str = "", steps: list[str] | None = None) -> None:  # fmt: skip
        must = must or []
        c = self.t.classes[cls]
        self.items.append(WeakItem(domain=self.domain, scenario_id=self.sid, half=self.half, cls=cls, act=c.act,
                                   context=context or [], turn=turn, must=must, when=when,
                                   must_not=must_not or (self.must_not(must) if must else []),
                                   steps=steps or []))  # fmt: skip

    def build(self) -> list[WeakItem]:
        changeable = [f for f in self.own if f.kind in _CHANGEABLE and changed(f, self.taken)]
        for f in self.pick(changeable, lambda f: f.key):
            wrong = said(changed(f, self.taken) or "")
            self.add(
                "readback_changed",
                _fill(self.template("readback_changed", f.key), label=label(f), wrong=wrong),
                [f.key],
            )
        for f in self.pick([f for f in changeable if self.siblings(f)], lambda f: f.key):
            right = ", ".join(f"{label(s)} {said(s.value)}" for s in self.siblings(f))
            wrong = said(changed(f, self.taken) or "")
            turn = _fill(self.template("record_changed", f.key), right=right, label=label(f), wrong=wrong)
            self.add("record_changed", turn, [f.key])
        for mine, other in self.pick(person_pairs(self.facts), lambda p: p[1].key):
            name = "name" if len(mine) > 1 else label(mine[0])
            turn = _fill(
                self.template("confirm_other_person", other.key), label=name, other=said(other.value)
            )
            self.add("confirm_other_person", turn, [f.key for f in mine])
        for f in self.pick([f for f in self.own if f.kind != "text"], lambda f: f.key):
            self.add(
                "confirm_right",
                _fill(self.template("confirm_right", f.key), label=label(f), value=said(f.value)),
            )
        self.go_ahead()
        self.records()
        self.reports(changeable)
        for f in self.pick(self.own, lambda f: f.key):
            self.add("point_back", _fill(self.template("point_back", f.key), label=label(f)), [f.key])
            ask = _fill(self.t.classes["repeated"].context[0], label=label(f))
            self.add("repeated", _fill(self.template("repeated", f.key), label=label(f)), [f.key], [ask])
        lacked = self.lacked()
        for x in self.pick(lacked, lambda x: x):
            self.add("lacking", _fill(self.template("lacking", x), lacked=x))
        for x in self.pick(lacked, lambda x: f"modal/{x}"):
            self.add("lacking_modal", _fill(self.template("lacking_modal", x), lacked=x))
        for x in self.pick(lacked, lambda x: f"confirm/{x}"):
            self.add("lacking_confirm", _fill(self.template("lacking_confirm", x), lacked=x))
        for f in self.pick([f for f in self.own if f.kind != "text"], lambda f: f"confirm/{f.key}"):
            self.add("confirm_asked", _fill(self.template("confirm_asked", f.key), label=label(f)), [f.key])
        for cls in ("announce", "vague_request"):  # a field's words as the topic: no field asked
            for f in self.pick(self.own, lambda f, c=cls: f"{c}/{f.key}"):
                self.add(cls, _fill(self.template(cls, f.key), label=label(f)))
        self.goal_open()
        self.goal_wish()
        statements(self)
        cut_requests(self)
        preferences(self)
        restated(self)
        record_fields(self)
        live_classes(self)
        two_fields(self)
        identity_classes(self)
        endings(self)
        closings(self)
        failures(self)
        midcall(self)
        tree_endings(self)
        offers(self)
        tree_asked(self)
        alternatives_declined(self)
        confirm_wishes(self)
        identity_pairs(self)
        enumerated(self)
        fallbacks(self)
        choices(self)
        lack_classes(self)
        reask_classes(self)
        refusal_classes(self)
        misheard_classes(self)
        several(self)
        whose_classes(self)
        return self.items

    def goal_open(self) -> None:
        told = self.t.goal_told
        for n, (x, y, _) in enumerate(
            self.pick(told_lines(self.scenario, told, self.t.not_have) if told else [], lambda t: t[2])
        ):
            assert told is not None
            ask = question_of(x, told, n)
            self.add("goal_open", _fill(self.template("goal_open", x), ask=ask))
            self.items[-1].words = answer_words(y, told)

    def goal_wish(self) -> None:
        wish = self.t.goal_wish
        for head, np, _ in self.pick(wished(self.scenario, wish) if wish else [], lambda t: t[1]):
            assert wish is not None
            self.add("goal_wish", _fill(self.template("goal_wish", np), head=head))
            self.items[-1].words = phrase_words(np, wish)

    def siblings(self, f: Leaf) -> list[Leaf]:
        """The other facts of its record: the same group ('original_travel_details.0.*'), else the
        caller's identifiers (codes, names); two at most."""
        if "." in f.key:
            group = f.key.rsplit(".", 1)[0]
            sib = [
                s
                for s in self.own
                if s.key != f.key and s.key.rsplit(".", 1)[0] == group and s.kind != "text"
            ]
        else:
            sib = [s for s in self.own if s.key != f.key and "." not in s.key and s.kind in ("code", "name")]
        return [s for s in sib if s.value != f.value][:2]

    def records(self) -> None:
        """A record read back by its places and date alone, no field words ('You have a flight from
        ORD to SEA on May 14'): all three changed, or all three right; the first group that has them."""
        groups: dict[str, list[Leaf]] = {}
        for f in self.own:
            groups.setdefault(f.key.rsplit(".", 1)[0] if "." in f.key else "", []).append(f)
        for fs in groups.values():
            o, d = (
                [f for f in fs if w in f.words and f.kind == "capitals"][:1] for w in self.t.record_places
            )
            day = [f for f in fs if f.kind == "date"][:1]
            if not (o and d and day):
                continue
            wrong_o = changed(o[0], self.taken) or ""
            wrong_d = changed(d[0], self.taken | {wrong_o}) or ""
            keys = [o[0].key, d[0].key, day[0].key]
            wrong_day = changed(day[0], self.taken) or ""
            for cls, vals in (("record_other", (wrong_o, wrong_d, wrong_day)),
                              ("record_right", (o[0].value, d[0].value, day[0].value))):  # fmt: skip
                turn = _fill(
                    self.template(cls, keys[0]), origin=vals[0], destination=vals[1], date=said(vals[2])
                )
                self.add(cls, turn, keys if cls == "record_other" else [])
            self.record_one_changed(
                keys, [o[0].value, d[0].value, day[0].value], [wrong_o, wrong_d, wrong_day]
            )
            return

    def record_one_changed(self, keys: list[str], right: list[str], wrong: list[str]) -> None:
        """The record read back with one of its places or its date changed and the others right
        ("a flight from SEA to BOS on August 17" to a caller flying on August 14): the one wrong
        part is what a correction must give."""
        for i in self.pick([i for i in range(3) if wrong[i]], lambda i: f"one/{keys[i]}"):
            vals = [wrong[j] if j == i else right[j] for j in range(3)]
            turn = _fill(self.template("record_one_changed", keys[i]), origin=vals[0], destination=vals[1],
                         date=said(vals[2]))  # fmt: skip
            self.add("record_one_changed", turn, [keys[i]])

    def reports(self, changeable: list[Leaf]) -> None:
        """A completion report stating one of the caller's fixed values (no preference, limit or
        amount: ``report_not_held``) changed, and the same report with it right; for the right one
        the fact is *must not*: a reply that says it again is a correction of a right value."""
        drop = set(self.t.report_not_held)
        held = [f for f in changeable if not set(split_words(f.key)) & drop]
        for f in self.pick(held, lambda f: f"report/{f.key}"):
            wrong = said(changed(f, self.taken) or "")
            self.add(
                "report_changed",
                _fill(self.template("report_changed", f.key), label=label(f), value=wrong),
                [f.key],
            )
            right = _fill(self.template("report_right", f.key), label=label(f), value=said(f.value))
            self.add("report_right", right, must_not=[f.key])

    def go_ahead(self) -> None:
        ids = [f for f in self.own if f.kind == "code"]
        context = [_fill(c, label=label(f)) for f in ids[:1] for c in self.t.classes["go_ahead"].context]
        self.add("go_ahead", self.template("go_ahead", ""), None, context)


def generate(domain: str, scenario: Scenario) -> list[WeakItem]:
    """Every weak-agent item of one (culture-resolved) scenario, from its own facts."""
    return Builder(domain, scenario).build()
