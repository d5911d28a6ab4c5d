"""Weak-agent turns that end a call naming the caller's values, a template in
``bench/lang/weak_<lang>.json`` filled with one scenario's own requests and facts, as
:mod:`.weak_closings` and :mod:`.weak_several` do:

* ``end_anything_else_values``: every request but the last reported done with "anything else?";
  then the last reported done and "anything else?" (or "Will that be all?") naming two or three
  of its values, each by its label or bare, a code or a name spelled too ("Is there anything
  else I can help you with regarding employee ID EMP123456 and the last name Petrov?").
  Expected (``ends_or_checks``, as ``end_that_all``): it ends, or checks a must-have the report
  did not tell. The question asks whether more is needed; its values name what it is about and
  read nothing back: a caller that answers it "Yes, that's right." never ends the call.
* ``end_readback_last``: every request but the last reported done with "anything else?"; then the
  last reported done and two or three of its values read back right, "Is that correct?" (a live
  call's last turn). Expected (``confirms_ends``): a yes, and it ends or checks a must-have the
  report did not tell, as EVA's reference callers confirm and close: a bare yes leaves the call to
  an agent that has nothing more to ask.
* ``end_readback_open``: its first request reported done and its values read back right the same
  way, another request open. Expected (``confirms_open``): a yes, and no ending.
* ``end_readback_last_wrong``: as ``end_readback_last``, one of the values read back changed to
  another of its kind. Expected (``corrects_open``): a no, and no ending: a goodbye would leave the
  record wrong.
* ``end_readback_step``: a step of the last request reported done ('I've verified your
  identity.'), then its values read back right before the action ('Before I submit it, let me
  read that back: ... Is that correct?'). Expected (``confirms_open``): a yes, and no ending: the
  request is not done yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from voxbench.bench.weak_closings import behaviour_intent, must_words
from voxbench.bench.weak_endings import listed_all, open_words, requests_of, said_back
from voxbench.bench.weak_facts import EndingWords, SeveralWords, changed
from voxbench.bench.weak_item import digest
from voxbench.bench.weak_several import fact_sets, join_items, read_item

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

CLASSES = ("end_anything_else_values",)
READBACK_CLASSES = ("end_readback_last", "end_readback_open", "end_readback_last_wrong", "end_readback_step")


class _Done(NamedTuple):
    """What both builders start from: the tables, the requests, each one's done report, and the
    earlier requests' reports each followed by "anything else?"."""

    w: EndingWords
    s: SeveralWords
    reqs: list[str]
    done: list[str]
    before: list[str]


def _done_reports(b: Builder, classes: tuple[str, ...]) -> _Done | None:
    """None where the classes do not apply: no tables or requests, a goal with no listed intents
    (a goal sentence said back as a request is no agent's words), or an in-call behaviour among
    them (raised once the rest is done: the last report ends nothing)."""
    w, s = b.t.endings, b.t.several
    reqs = requests_of(b)
    if w is None or s is None or not reqs or not set(classes) <= set(b.t.classes):
        return None
    if not b.scenario.scenario_context.get("intents") or any(behaviour_intent(x, w) for x in listed_all(b)):
        return None
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=said_back(w, r))
            for n, r in enumerate(reqs)]  # fmt: skip
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    return _Done(w, s, reqs, done, [f"{d} {anything}" for d in done[:-1]])


def done_with_values(b: Builder) -> None:
    """The class's items of one scenario (module docstring)."""
    got = _done_reports(b, CLASSES)
    if got is None:
        return
    s, done, ctx = got.s, got.done, got.before
    for cls in CLASSES:
        for n, picked in enumerate(fact_sets(b, cls, 2, 3, held=True)):
            salt = f"{b.sid}/{cls}/{n}"
            items = [read_item(s, f, f.value, salt, i == 0) for i, f in enumerate(picked)]
            read = b.template(cls, salt).format(items=join_items(items, s))
            turn = f"{done[-1]} {read}"
            b.add(cls, turn, context=ctx)
            b.items[-1].open_words = must_words(b, turn)


def readback_at_end(b: Builder) -> None:
    """The read-back classes' items of one scenario (module docstring): the last request's, after
    the others were reported done; the first request's, with the others open."""
    got = _done_reports(b, READBACK_CLASSES)
    if got is None:
        return
    w, s, reqs, done, before = got
    cases = [("end_readback_last", done[-1], before)]
    if len(reqs) > 1:
        cases.append(("end_readback_open", done[0], []))
    cases.append(("end_readback_last_wrong", done[-1], before))
    if w.step_report:
        cases.append(("end_readback_step", b.template_of(w.step_report, "end_readback_step", ""), before))
    for cls, report, ctx in cases:
        for n, picked in enumerate(fact_sets(b, cls, 2, 3, held=True)):
            salt = f"{b.sid}/{cls}/{n}"
            values = [f.value for f in picked]
            must: list[str] = []
            if cls == "end_readback_last_wrong":  # one value changed to another of its kind
                wrong = [k for k, f in enumerate(picked) if changed(f, b.taken)]
                if not wrong:
                    continue
                at = wrong[int(digest(salt, "wrong")[:6], 16) % len(wrong)]
                values[at], must = changed(picked[at], b.taken) or "", [picked[at].key]
            items = [
                read_item(s, f, v, salt, i == 0) for i, (f, v) in enumerate(zip(picked, values, strict=True))
            ]
            turn = f"{report} {b.template(cls, salt).format(items=join_items(items, s))}"
            b.add(cls, turn, must, context=ctx)
            b.items[-1].open_words = (
                must_words(b, turn)
                if cls == "end_readback_last"
                else open_words(reqs, list(range(1, len(reqs))), set(w.minor))
                if cls == "end_readback_open"
                else []
            )
