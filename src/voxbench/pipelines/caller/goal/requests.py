"""The caller's requests as it says and tracks them: the line stating its pending requests (with
the details that go with the first), the next request after one is done, which request an
agent's offer or turn is about, and what an agent turn completes or refuses
(:class:`.intents.IntentTracker`)."""

from __future__ import annotations

import copy
import re

from voxbench.pipelines.caller.goal.acting import about
from voxbench.pipelines.caller.goal.belong import InHand
from voxbench.pipelines.caller.goal.conditions import unconditioned
from voxbench.pipelines.caller.goal.cues import COMPLETED, DENIAL, NEXT_STEP, OFFER_VERBS, READBACK_CUE
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import Fact
from voxbench.pipelines.caller.goal.framing import kind_of
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.intents import IntentTracker, goal_clause_facts, intent_facts, words_close
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.learn import Learnings
from voxbench.pipelines.caller.goal.offered import offers
from voxbench.pipelines.caller.goal.phrases import as_need, first_person
from voxbench.pipelines.caller.goal.scope import REPORT_VERB
from voxbench.pipelines.caller.goal.speech import unit_form
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.spoken import mentions, sentences_of

_BARE_DONE = re.compile(rf"^(?=(?:\S+\s+){{0,4}}\S+$)(?:.*){COMPLETED.pattern}", re.I)
"""A completion of five words at most, naming nothing ('Done.', 'All set.', 'You're all set.')."""


def _a(name: str) -> str:
    return alt("requests", name)


# A yes/no offer to take something up ('Would you like to do the shift swap now?').
OFFER_REQ = re.compile(
    rf"^(?!(?:{_a('not_wh')})\b)(?:\w+[,.]?\s+)?({_a('offer_lead')}) (?:{_a('to')})\b[^?]*\?$",
    re.I,
)

# A confirmation question that may offer one of the caller's requests ('Would you like to assign it now?').
_OFFER_TO_DO = re.compile(rf"^(?:\w+[,.]?\s+)?(?:{_a('would_like_to')}) (" + OFFER_VERBS + r")\b", re.I)

# An offer whose object is a pronoun ('Would you like to assign it now?', 'shall we do that?').
_RECORD_STATE = frozenset(phrases("facts", "record_state_words"))
"""Key words of a record's state ('status'): what the system holds, no detail of a request."""
_BY_PRONOUN = re.compile(rf"\b(?:{_a('to')}) \w+ ({_a('pronoun')})\b", re.I)
_VALUE_Q = re.compile(rf"^\s*(?:{_a('not_wh')})\b", re.I)
"""A question for a value ('What floor would you like?')."""
_WHICH_Q = re.compile(rf"^\s*(?:{_a('which')})\b(?:\s+\w+){{0,4}}\?$", re.I)
_OR = re.compile(rf"\b(?:{_a('or')})\b", re.I)
_OR_SPLIT = re.compile(rf",?\s+\b(?:{_a('or')})\b\s+")
"""A bare choice question, its options said before it ('Which would you prefer?')."""


class Requests:
    """The caller's requests: said, offered, completed or refused."""

    def __init__(self, state: CallState) -> None:
        self.s = state

    def line(self, only_next: bool = False, first: int | None = None) -> tuple[str, list[str], str]:
        """The caller's pending requests (or just the next: ``first`` when given, the request a
        question names), with the details of the first one; the facts told, and which requests it
        states (:func:`about`)."""
        pending = self.s.tracker.pending() or [
            i for i in range(len(self.s.intents)) if not self.s.tracker.fallback[i]
        ]
        if only_next:
            pending = [first] if first is not None else pending[:1]
        if len(self.s.intents) == 1 and self.s.intents[0] == self.s.scenario.user_goal.high_level_user_goal:
            return first_person(self.s.intents[0]), [], about(0)
        parts = [as_need(self.s.plain[i]) for i in pending]
        line = (", and ".join(parts) + ".").replace(", and I need to ", ", and ")
        details, told = self.details(pending[0])
        return f"{line} {details}".strip(), told, about(*pending)

    def details(self, i: int, later: bool = False) -> tuple[str, list[str]]:
        """The facts that go with request ``i`` and have not been said (the intent's words aside);
        those the goal's own sentence ties to it ('a standing desk converter delivered to East Campus
        floor 1') are part of saying the request, said before or not. ``later``: a request stated
        after the first (the next one, one chosen or offered): what it is and where, without its
        identifiers and dates (:func:`_held_back`)."""
        intent = self.s.intents[i]
        others = [x for j, x in enumerate(self.s.intents) if j != i]
        found = intent_facts(intent, self.s.book, others)
        rest = [self.s.tracker.own_words(j) for j in range(len(self.s.intents)) if j != i]
        have = [f.values() for f in found]
        clause = [f.key for f in goal_clause_facts(self.s.tracker.own_words(i), rest, self.s.goal_text, self.s.book, intent)
                  if f.values() not in have]  # fmt: skip
        keys = self.s.say.with_companions(list(dict.fromkeys([f.key for f in found] + clause)))
        told = [  # 'a desk on floor 2': and its building; a record's state ('...0.status': confirmed)
            k  # is the system's, no detail of the request
            for k in keys
            if (k not in self.s.given or k in clause)
            and k.rsplit(".", 1)[-1].split("_")[-1] not in _RECORD_STATE
        ]
        said = [
            k
            for k in told
            if (f := self.s.book.get(k)) and not any(mentions(self.s.plain[i], v) for v in f.values())
        ]
        if later:
            cut = {k for k in said if (f := self.s.book.get(k)) is not None and _held_back(f)}
            said, told = [k for k in said if k not in cut], [k for k in told if k not in cut]
        return self.s.say.answer(said), told

    def next_line(self, i: int, kind: str = "next_request") -> tuple[str, list[str]]:
        """'Yes, one more thing: I need to ...' with the request's details, and the facts told;
        ``kind`` is the phrasing that leads it ('fallback_request': 'Then, I need to ...')."""
        nxt = as_need(self.s.plain[i])
        details, told = self.details(i, later=True)
        why = self.circumstances(i, told)
        if why:  # '... a new 27-inch monitor for my desk. The justification is new setup.'
            details, told = f"{details} {self.s.say.answer(why)}".strip(), told + why
        line = self.s.phr.say(kind, intent=nxt if nxt.startswith("I ") else nxt[0].lower() + nxt[1:])
        return f"{line} {details}".strip(), told

    def fallback_line(self, prefix: str = "") -> tuple[str, list[str], int] | None:
        """'Then, I need to get a desk on floor 3.': the open fallback of a request refused
        (:meth:`.intents.IntentTracker.fallback_for`), once the tree's answers to the refusal are
        said; its facts told, and which it is. None: no refused request has one. A refusal naming
        none of its requests ('I cannot reserve it.') refuses the one in hand."""
        refused = self.s.refused_now or self.s.refused or set(self.s.tracker.pending()[:1])
        i = self.s.tracker.fallback_for(refused) if refused else None
        if i is None:
            return None
        line, told = self.next_line(i, "fallback_request")
        return f"{prefix} {line}".strip(), told, i

    def circumstances(self, i: int, told: list[str]) -> list[str]:
        """The words the goal places with request ``i`` (:mod:`.belong`), its reason or
        circumstance ('new_setup', 'personal leave'), not said yet: a person asked for its next
        request says why with it ("I also need a monitor because this is a new setup"); no code,
        number, date or name, which the agent asks for when it needs them."""
        return [
            k for k, o in self.s.owners.items()
            if o == i and k not in told and k not in self.s.given
            and (f := self.s.book.get(k)) is not None and kind_of(f) == "text"
        ]  # fmt: skip

    def in_hand(self, text: str, heard: Heard | None = None) -> InHand:
        """The facts of the request in hand, of those done and of those to come (:mod:`.belong`):
        the request the agent's turn moves to by its words ('Now for the room booking, ...'), else
        the first one not done, once what this turn completes is counted (``heard``: 'Your leave
        case is open. Now, what dates do you want off?' is about the time off)."""
        tracker, refused = self.s.tracker, set(self.s.refused)
        if heard is not None and (heard.has("completed") or heard.has("denial")):
            tracker, learn = copy.deepcopy((self.s.tracker, self.s.learn))
            refused |= self.resolve(text, heard, tracker, learn)
        pending = tracker.pending()
        if len(self.s.intents) < 2:
            return InHand()
        moved = [s for s in sentences_of(text) if NEXT_STEP.search(s)]
        named = tracker.named(" ".join(moved)) if moved else None
        i = named if named is not None else (pending[0] if pending else None)
        finished = [d and j not in refused for j, d in enumerate(tracker.done)]  # refused: may be pushed for
        return InHand.of(self.s.owners, i, finished)

    def offered(self, heard: Heard, text: str = "") -> int | None:
        """The agent offers to take up one of the caller's pending requests ('Would you like to do the
        malpractice update now?'), or its fallback ('Would you like me to add you to the waitlist
        instead?', :meth:`.intents.IntentTracker.fallback_named`): that request. Not a confirmation
        before submitting one."""
        q = heard.question
        fallback = self.fallback_offered(heard, text)
        if fallback is not None:  # offered with the refusal: the tree's answers to a refusal first
            return None if heard.has("denial") and self.s.push.left() else fallback
        if not OFFER_REQ.match(q) or _OR.search(q):
            return None
        if heard.has("confirm_question") and not _OFFER_TO_DO.match(q):
            return None
        named = self.s.tracker.rank(q)
        pending = self.s.tracker.pending()
        if named is None and len(pending) == 1 and _BY_PRONOUN.search(q):
            return pending[0]  # 'Would you like to assign it now?': the one request in hand
        return named

    def fallback_offered(self, heard: Heard, text: str = "") -> int | None:
        """A fallback of the caller's offered (:meth:`.intents.IntentTracker.fallback_named`): by a
        yes/no question naming it ('Would you like me to add you to the waitlist instead?'), or as
        one of a choice ('... the waitlist, or a callback request?'; 'You could join the waitlist,
        or I can set up a callback. Which do you prefer?': the sentence before a bare 'which'; an
        offer stated with no question, :func:`.offered.offers`), whose other options name none of
        its requests. Not a question for a value ('What floor?')."""
        q = heard.question
        if not q:  # 'No spaces are open. I can add you to the waitlist.': the offer stated
            said = next((s for s in sentences_of(text) if offers(s) and self.s.tracker.fallback_named(s)), "")
        elif not q.endswith("?") or (_VALUE_Q.match(q) and not _WHICH_Q.match(q)):
            return None
        else:
            said = q
        if _WHICH_Q.match(q) and self.s.tracker.fallback_named(q) is None:
            before = [s for s in sentences_of(text) if s != q and not s.endswith("?")]
            said = before[-1] if before else q
        fallback = self.s.tracker.fallback_named(said)
        if fallback is None:
            return None
        parts = _OR_SPLIT.split(said)
        others = [p for p in parts if self.s.tracker.fallback_named(p) != fallback]
        return None if any(self.s.tracker.rank(p) is not None for p in others) else fallback

    def note_resolutions(self, text: str, heard: Heard) -> None:
        """Which intents the agent has completed or refused, by their words in its closing sentences."""
        self.s.pending_before = len(self.s.tracker.pending())
        before = {i for i, d in enumerate(self.s.tracker.done) if d}
        self.s.refused_now = self.resolve(text, heard, self.s.tracker, self.s.learn, self.s.named_done_now())
        self.s.refused |= self.s.refused_now
        self.s.done_now = {i for i, d in enumerate(self.s.tracker.done) if d} - before - self.s.refused_now

    def resolve(
        self, text: str, heard: Heard, tracker: IntentTracker, learn: Learnings, named_done: bool = False
    ) -> set[int]:
        """Marks in ``tracker`` and ``learn`` what this agent turn completes or refuses, and returns
        the requests it refused; nothing else changes (:meth:`would_finish` gives it copies).
        ``named_done``: the turn named a request finished (:meth:`.state.CallState.named_done_now`),
        a completion report whatever its classification."""
        asks_back = {"request", "options"} <= set(heard.kinds)  # 'not X unless A or B?': no refusal
        before = {i for i, d in enumerate(tracker.done) if d}
        learn.note(text)
        learning = bool(learn.parts) and len(self.s.intents) == 1
        # a question is done when answered
        completed = (heard.has("completed") or named_done) and not learning
        refused: set[int] = set()
        if completed or (heard.has("denial") and not asks_back):
            said = [s for s in sentences_of(text) if not NEXT_STEP.search(s) and not s.endswith("?")
                    and not read_back_only(s)]  # fmt: skip
            other = [s for s in said if completed and not self.names(s)
                     and self.s.scope.other_done(s, mostly=not self.mentioned(s))]  # fmt: skip
            if other and not heard.has("denial") and all(s in other or self.beside(s) for s in said):
                return refused  # a completion of something it did not ask for: none of its requests
            said = [s for s in said if s not in other]
            denied = (
                [s for s in said if DENIAL.search(unconditioned(s.replace("\u2019", "'")))]
                if completed and heard.has("denial")
                else []
            )
            if denied and not asks_back:  # one request refused, another done in the same turn
                tracker.note(" ".join(denied), False)
                refused = {i for i, d in enumerate(tracker.done) if d and i not in before}
                said = [s for s in said if s not in denied]
            if not completed:  # what the refusal moves on to is not refused ('We can still handle ...',
                # 'I can add you to the waitlist instead': an offer, :mod:`.offered`)
                said = [s for s in said if not pattern("still_can").search(s) and not offers(s)]
            # 'All set: your access review is scheduled.': each sentence tells a must-have that is none
            # of its listed requests; no request is done by it, the next one no more than the others
            listed = self.s.intents != [self.s.goal_text]
            other_must = completed and listed and all(self.s.agenda.tells(x) for x in said or [text])
            next_one = not other_must and self.of_things(said or [text], bool(other))
            tracker.note(" ".join(said) or text, completed, next_one=next_one)
            if completed and next_one:
                self.reported_each(said, tracker)
            if not completed:  # the requests this refusal named
                refused = {i for i, d in enumerate(tracker.done) if d and i not in before}
        if learning and learn.complete:
            tracker.done[0] = True
        return refused

    def names(self, sentence: str) -> bool:
        """Whether a sentence names one of the caller's requests as a completion must
        (:meth:`.intents.IntentTracker.says`): a report that does is about that request, never
        something the caller did not ask for, whatever other words it holds."""
        return any(self.s.tracker.says(i, sentence) for i in range(len(self.s.tracker.done)))

    def reported_each(self, said: list[str], tracker: IntentTracker) -> None:
        """A turn reporting several things ('Your sick leave request has been submitted ... Today
        I opened your F M L A case ...'): an open request is done too, whatever else the turn
        names in full, when one of its done clauses says only the caller's things (its subject's
        words all among :attr:`.scope.Scope.things`), names no other request in full, and names
        this one by a word that tells it apart (the tracker reads the turn whole, and a request
        named in full leaves the others to the next-one reading it then skips)."""
        scope = self.s.scope
        clauses = [c for x in said for c in scope.done_clauses(x, REPORT_VERB)]
        for i in tracker.pending():
            if tracker.behaviour[i] or tracker.fallback[i]:
                continue
            own = tracker.own_words(i)
            for c in clauses:
                subject = scope.subject(c)
                if not scope.all_things(subject) or any(
                    tracker.says(j, c) for j in range(len(tracker.done)) if j != i
                ):
                    continue
                if any(words_close(w, x) for w in own for x in subject):
                    tracker.done[i] = True

    def of_things(self, said: list[str], beside_other: bool) -> bool:
        """Whether a completion naming none of the caller's requests may still be the one in hand's
        (or the next one's): one of its done clauses is of what the caller asks for
        (:meth:`.scope.Scope.of_things`).
        A report of something else, its words in none of the caller's requests or facts, is no
        completion of any: the caller's request stays open, to be raised before it ends. With no
        done clause left to read, a turn whose done clauses were all of other things
        (``beside_other``: 'I submitted your access update ...', then 'your case number is ...')
        completed those, not the caller's request."""
        of = self.s.scope.of_things(said)
        return of if of is not None else not beside_other

    def mentioned(self, sentence: str) -> bool:
        """Whether a sentence says a word that tells one of the caller's requests apart
        (:meth:`.intents.IntentTracker.mentions`): a report of that request, however few of its
        words it says, is no report of another thing (:meth:`.scope.Scope.other_done`)."""
        return any(self.s.tracker.mentions(i, sentence) for i in range(len(self.s.tracker.done)))

    def beside(self, sentence: str) -> bool:
        """A sentence that goes with a report of something the caller never asked for and changes
        nothing of what it reports: one that says nothing done and names none of the caller's
        requests (a reference number, 'Your case number is C A S E M A L 391369.'; a courtesy,
        'Thank you for calling.'), or a bare completion of five words at most ('All set.',
        'Done.'), which leads in to that report. A report whose done clauses are all outside the
        caller's goal (:meth:`.scope.Scope.other_done`) and name none of its requests completes
        none of them, whatever such sentences go with it (:meth:`resolve`)."""
        if _BARE_DONE.match(sentence.strip()):
            return True
        return not self.s.scope.reports(sentence) and not self.names(sentence)

    def refuse_line(self, bad: list[str] | None = None) -> str:
        restate = [
            c for c in (bad or []) if c != "direct"
        ] or self.s.scenario.user_goal.decision_tree.must_have_criteria[:1]
        line = self.s.phr.say("no_offer")
        return f"{line} {first_person(restate[0])}" if restate else line


def _held_back(f: Fact) -> bool:
    """A detail a caller stating a later request leaves for the agent to ask: an identifier (a code
    that names no place: not 'FL2', a floor) or a date or time. Moving on to its next request ("I
    also need to request PTO before the leave starts.") a person says what it wants, not the
    document number or the dates. Of what the goal caller said with a later request on the dev half,
    EVA's reference callers said none of the 14 identifiers and dates, and 28 of the 35 others
    (kinds, names, levels, counts, places), which it keeps."""
    kind = kind_of(f)
    return kind in ("date", "time") or (kind == "code" and unit_form(f.value) is None)


def read_back_only(sentence: str) -> bool:
    """'To confirm, I have the monitor size 27 inch and the delivery floor F L 1.': a read-back,
    led by its cue and saying nothing done, checks values; it completes or refuses nothing, so the
    words of its values name no request (a report of the first request read back with the second's
    monitor size did not finish the second)."""
    return bool(READBACK_CUE.search(sentence)) and not COMPLETED.search(sentence)
