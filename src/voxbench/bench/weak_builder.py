"""One scenario's weak-agent items being built: the scenario's facts as the templates use them,
the choices fixed by a hash (:meth:`Builder.pick`, :meth:`Builder.template_of`), and the classes
written from the table's templates alone (read-backs, confirmations, records, reports, fields
pointed back to or lacked, the goal's open questions and wishes). The other classes are modules
of their own, each a function of a :class:`Builder`; :mod:`.weak_turns` lists them all in order.
"""

from __future__ import annotations

from typing import Any

from voxbench.bench.matcher import goal_facts
from voxbench.bench.refused import refused_facts
from voxbench.bench.weak_facts import Leaf, changed, label, leaves, person_pairs, said, split_words, table
from voxbench.bench.weak_goal import answer_words, question_of, told_lines
from voxbench.bench.weak_item import WeakItem, digest, half
from voxbench.bench.weak_wish import phrase_words, wished
from voxbench.scenarios import Scenario

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
        """Up to ``per_class`` items, in an order fixed by a hash of the scenario and each item's ``key``."""
        return sorted(items, key=lambda x: digest(self.sid, key(x)))[: self.t.per_class]

    def lacked(self) -> list[str]:
        """The fields of ``lacked_fields`` no fact of the scenario holds (a word of theirs other than
        'number', 'address', 'name' is a word of none of its facts)."""
        held = {w for f in self.facts for w in f.words}
        return [x for x in self.t.lacked_fields if not set(x.split()) - {"number", "address", "name"} & held]

    def template(self, cls: str, salt: str) -> str:
        return self.template_of(self.t.classes[cls].templates, cls, salt)

    def template_of(self, ts: list[str], cls: str, salt: str) -> str:
        """One of ``ts``, picked by a hash of the scenario, the class and ``salt`` (no seed)."""
        return ts[int(digest(self.sid, cls, salt)[:6], 16) % len(ts)]

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
                                   must_not=must_not if must_not is not None else self.must_not(must),
                                   steps=steps or []))  # fmt: skip

    def changeable(self) -> list[Leaf]:
        """Its own facts of a kind a read-back can get wrong, that have a changed value to say."""
        return [f for f in self.own if f.kind in _CHANGEABLE and changed(f, self.taken)]

    def readbacks(self) -> None:
        """``readback_changed`` and ``record_changed``: a fact read back changed, alone or among
        the right facts of its record."""
        changeable = self.changeable()
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

    def confirms(self) -> None:
        """``confirm_other_person`` (its field with another person's value) and ``confirm_right``."""
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

    def asked_again(self) -> None:
        """``point_back`` ('Can you provide that information?' after a field is named) and
        ``repeated`` (the same question again)."""
        for f in self.pick(self.own, lambda f: f.key):
            self.add("point_back", _fill(self.template("point_back", f.key), label=label(f)), [f.key])
            ask = _fill(self.t.classes["repeated"].context[0], label=label(f))
            self.add("repeated", _fill(self.template("repeated", f.key), label=label(f)), [f.key], [ask])

    def lacking(self) -> None:
        """``lacking``, ``lacking_modal``, ``lacking_confirm``: a field it has no fact for, asked
        plainly, by a modal giving verb, by a confirm verb."""
        lacked = self.lacked()
        for x in self.pick(lacked, lambda x: x):
            self.add("lacking", _fill(self.template("lacking", x), lacked=x))
        for x in self.pick(lacked, lambda x: f"modal/{x}"):
            self.add("lacking_modal", _fill(self.template("lacking_modal", x), lacked=x))
        for x in self.pick(lacked, lambda x: f"confirm/{x}"):
            self.add("lacking_confirm", _fill(self.template("lacking_confirm", x), lacked=x))

    def topics(self) -> None:
        """``confirm_asked`` (a field asked by a confirm verb), ``announce`` and ``vague_request``
        (a field's words as the topic: no field asked)."""
        for f in self.pick([f for f in self.own if f.kind != "text"], lambda f: f"confirm/{f.key}"):
            self.add("confirm_asked", _fill(self.template("confirm_asked", f.key), label=label(f)), [f.key])
        for cls in ("announce", "vague_request"):
            for f in self.pick(self.own, lambda f, c=cls: f"{c}/{f.key}"):
                self.add(cls, _fill(self.template(cls, f.key), label=label(f)))

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

    def reports(self) -> None:
        """A completion report stating one of the caller's fixed values (no preference, limit or
        amount: ``report_not_held``) changed, and the same report with it right; for the right one
        the fact is *must not*: a reply that says it again is a correction of a right value."""
        drop = set(self.t.report_not_held)
        held = [f for f in self.changeable() if not set(split_words(f.key)) & drop]
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
