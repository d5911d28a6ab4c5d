"""Weak-agent turns as a small agent's speech reaches the caller through speech recognition: a
read-back said as a statement (its question mark lost), a request cut off, a "do you have a ...
preference?" question. Templates per class (``bench/lang/weak_<lang>.json``) filled with one
scenario's own facts, as :mod:`.weak_turns` does for the other classes:

* ``statement_right`` / ``statement_changed``: one of the caller's facts read back as a statement
  ending the turn ("So your employee ID is EMP031482.", "Alright, so you want your new departure
  date to be March 25."), right / with another value of its kind; expected: yes / a correction;
* ``statement_report``: a report in the same form that states no field of the caller's ("You're
  all set.", "Your ticket has been created."); expected: an acknowledgement, no yes and no no;
* ``cut_request``: a request whose object the recogniser cut ("Please provide the conf.", "Can
  you give me your."): the first letters of one of its fields' words, or nothing; expected: a
  question back asking what is needed, no fact, not "I don't have that";
* ``have_preference`` / ``have_no_preference``: "Do you have a seat preference?" about a
  preference it holds / a topic no fact or goal word of its names; expected: yes and the value /
  a no.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, changed, label, said, split_words
from voxbench.spoken import sentences_of

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def _template(b: Builder, cls: str, f: Leaf) -> str:
    """The class's template for the fact: its want template when the key says the caller wants it."""
    c = b.t.classes[cls]
    if c.wants and set(split_words(f.key)) & set(b.t.want_words):
        return b.template_of(c.wants, cls, f.key)
    return b.template(cls, f.key)


def statements(b: Builder) -> None:
    """A read-back of one fact as the turn's last sentence, no question mark; right and changed."""
    for f in b.pick([f for f in b.own if f.kind != "text"], lambda f: f"statement/{f.key}"):
        b.add(
            "statement_right", _template(b, "statement_right", f).format(label=label(f), value=said(f.value))
        )
    for f in b.pick(b.changeable(), lambda f: f"statement/{f.key}"):
        wrong = said(changed(f, b.taken) or "")
        b.add(
            "statement_changed",
            _template(b, "statement_changed", f).format(label=label(f), value=wrong),
            [f.key],
        )
    ts = b.t.classes["statement_report"].templates
    first = b.own[:1]
    for t in b.pick([t for t in ts if "{label}" not in t or first], lambda t: t):
        b.add("statement_report", t.format(label=label(first[0]) if first else ""))


def cut(word: str, letters: int) -> str:
    """A word as the recogniser cut it: an acronym's first letters but its last ('DEA' -> 'DE'),
    else its first ``letters`` ('confirmation' -> 'conf'); '' when nothing would be left out."""
    if word.isupper() or word in ("id", "npi", "dea", "otp", "pin", "ssn"):
        return word[:-1].upper() if len(word) >= 3 else ""
    return word[:letters] if len(word) >= letters + 2 else ""


def cut_requests(b: Builder) -> None:
    """A request cut after a field word's first letters, or before its object."""
    cls = b.t.classes["cut_request"]
    whole = {w.lower() for f in b.facts for w in (*f.words, *re.findall(r"[A-Za-z]+", f.value))}
    cuts = []
    for f in b.own:  # a cut that is a word or a value's token of its own ('DIAG') is no fragment
        part = next((c for w in f.words if (c := cut(w, b.t.cut_letters)) and c.lower() not in whole), "")
        if part:
            cuts.append((f.key, part))
    with_part = [t for t in cls.templates if "{cut}" in t]
    without = [t for t in cls.templates if "{cut}" not in t]
    for key, part in b.pick(cuts, lambda c: f"cut/{c[0]}")[:2]:
        b.add("cut_request", b.template_of(with_part, "cut_request", key).format(cut=part))
    if without:
        b.add("cut_request", b.template_of(without, "cut_request", ""))


def _goal_words(b: Builder) -> set[str]:
    g = b.scenario.user_goal
    tree = g.decision_tree
    text = " ".join([g.high_level_user_goal, *tree.must_have_criteria, *tree.nice_to_have_criteria,
                     *tree.negotiation_behavior, *tree.edge_cases])  # fmt: skip
    return {w.lower() for s in sentences_of(text) for w in re.findall(r"[A-Za-z]+", s)}


def preferences(b: Builder) -> None:
    """'Do you have a seat preference?' about a preference it holds, and about a topic it has none of."""
    prefer = set(b.t.preference_words)
    held: dict[str, Leaf] = {}
    for f in b.own:
        top = f.key.split(".")[0]
        words = split_words(top)
        if set(words) & prefer and top not in held and f.kind != "number":
            held[top] = f
    for top, f in b.pick(list(held.items()), lambda x: f"prefer/{x[0]}"):
        topic = " ".join(
            "OS" if w == "os" else w for w in split_words(top) if w not in prefer and w not in b.t.label_drop
        )
        if topic:
            b.add("have_preference", b.template("have_preference", top).format(topic=topic), [f.key])
    mine = (
        {w for f in b.facts for w in f.words}
        | {w for f in b.facts for w in split_words(f.value)}
        | _goal_words(b)
    )
    free = [t for t in b.t.free_topics if not set(t.split()) & mine]
    for topic in b.pick(free, lambda t: f"free/{t}")[:1]:
        b.add("have_no_preference", b.template("have_no_preference", topic).format(topic=topic))
