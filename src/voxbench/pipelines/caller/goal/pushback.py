"""What the goal caller says after a refusal: the tree's scripted lines, its push-backs, one
follow-up, in that order, each as many times as the tree allows; and whether a troubleshooting
step is the one the tree says fixes the issue."""

from __future__ import annotations

import re
from collections.abc import Callable

from voxbench.pipelines.caller.goal.conditions import unconditioned
from voxbench.pipelines.caller.goal.cues import DENIAL, STEP
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.tree import OUTCOME_WORDS, TreeRules, content_words, pushback_count
from voxbench.spoken import sentences_of

_REFUSAL_CONDITION = re.compile(
    r"\b(refus|can't|cannot|declin|not eligible|pushback|push back|denied|still)", re.I
)


Budget = tuple[int, int]
"""(push-backs, follow-up questions) the tree allows one request's refusal."""


class PushBacks:
    """The caller's budget of answers to a refusal, spent in the tree's order."""

    def __init__(
        self,
        rules: TreeRules,
        follow_ups: int,
        phr: Phrasing,
        budgets: dict[int, Budget] | None = None,
        cap: int = 0,
    ) -> None:
        self.rules = rules
        self.follow_ups = follow_ups
        self.phr = phr
        self.budgets = budgets or {}
        """Request -> its own budget, where the tree states one per request (:func:`request_budgets`)."""
        self.scripted_next = 0
        self.pushbacks = 0
        self.asked_follow_ups = 0
        self.asked_own: set[int] = set()
        """The tree's own follow-up questions asked (:attr:`.tree.TreeRules.asks`), by index."""
        self.pushed: list[str] = []
        """The generic push-backs said: the next is another ('pushing back firmly 3 times')."""
        self.about: int | None = None
        """The request whose refusal the push-backs and follow-ups were spent on."""
        self.cap = cap
        """The refusals of one request the failure condition counts (:mod:`.attempts`; 0: none)."""
        self.refusals = 0
        """The refusals of the request under way heard so far."""
        self.scripted_pushes = sum(
            bool(_REFUSAL_CONDITION.search(own_condition(x.condition))) for x in rules.scripted
        )
        """The tree's scripted lines that answer a refusal ('make ONE attempt to push back by saying:
        "..."'): those are its push-backs, said in its words. A line for another turn ('If the agent
        offers ONLY a hotel voucher, ask: "..."') spends none of the push-backs the tree counts."""

    def for_request(self, i: int) -> None:
        """A refusal of another request than the last one refused gets push-backs and a follow-up
        of its own: trees say 'ask one follow-up question' of each request ('if you are told the
        swap is not possible ..., accept after one follow-up question'; the same of the on-call
        registration), and a caller that spent its one on the first ended at the second refusal.
        The tree's scripted lines stay in the tree's order, once each."""
        if self.about is not None and i != self.about:
            self.pushbacks = self.asked_follow_ups = self.refusals = 0
        self.about = i

    def refused(self) -> None:
        """One more refusal of the request under way: one attempt of the failure condition's count."""
        self.refusals += 1

    def met(self) -> bool:
        """The failure condition's count of attempts met: no answer to a refusal is left
        (:mod:`.attempts`), whatever the tree scripts or the budget holds."""
        return bool(self.cap) and self.refusals >= self.cap

    def _limits(self) -> Budget:
        """The push-backs (beyond the scripted lines) and follow-ups of the request refused: its own
        budget where the tree states one, else the tree's."""
        own = self.budgets.get(self.about) if self.about is not None else None
        return own or (self.rules.pushbacks - self.scripted_pushes, self.follow_ups)

    def left(self) -> bool:
        return not self.met() and (self.pushes_left() or self.asked_follow_ups < self._limits()[1])

    def spent(self) -> bool:
        """Every answer to a refusal said, and at least one was: the agent has heard them all."""
        return bool(self.scripted_next or self.pushbacks or self.asked_follow_ups) and not self.left()

    def pushes_left(self) -> bool:
        """The tree's own answers to a refusal (its scripted lines, its push-backs) not all said."""
        return not self.met() and bool(
            self.rules.scripted[self.scripted_next :] or self.pushbacks < self._limits()[0]
        )

    def next_line(self, text: str) -> tuple[str, str] | None:
        """(line, rule) for the next answer to the refusal in ``text``; None when none is left."""
        if self.met():
            return None
        words = content_words(text)
        pushes, follow_ups = self._limits()
        for s in self.rules.scripted[self.scripted_next :]:
            own = own_condition(s.condition)
            if len(content_words(own) & words) >= 2 or _REFUSAL_CONDITION.search(own):
                self.scripted_next = s.index + 1
                if pattern("follow_up_named").search(own) and self.asked_follow_ups < follow_ups:
                    self.asked_follow_ups += 1  # 'ask exactly one follow-up question: "..."': it is the one
                return s.line, f"tree_scripted_line:{s.index}"
        if self.pushbacks < pushes:
            self.pushbacks += 1
            line = self.phr.unsaid("push_back", self.pushed)
            self.pushed.append(line)
            return line, "tree_push_back"
        if self.asked_follow_ups < follow_ups:  # the tree's own question wins over the generic one
            asked = self.tree_question(text)
            if asked is not None:
                return asked, "tree_follow_up_question"
            self.asked_follow_ups += 1
            return self.phr.say("follow_up"), "one_follow_up_question"
        return None

    def scripted_follow_up(self, text: str) -> tuple[str, str] | None:
        """(line, rule) when the tree's next line for the refusal in ``text`` is its one follow-up
        question, quoted ('If floor 2 has no availability, ask exactly one follow-up question: "Is
        there anything else available?"'), said as :meth:`next_line` says it; None otherwise. Asked
        before an answer to what the turn offers, it is asked only for the refusal its condition
        names, as the tree's unquoted question is (:meth:`_own_question`): two of its words in the
        turn's refusing statements ('there is no stable workaround' names no lockout)."""
        words, refused = content_words(text), refusal_words(text)
        for s in self.rules.scripted[self.scripted_next :] if not self.met() else []:
            own = own_condition(s.condition)
            if len(content_words(own) & words) >= 2 or _REFUSAL_CONDITION.search(own):
                named = len((content_words(own) - OUTCOME_WORDS) & refused) >= 2
                return self.next_line(text) if named and pattern("follow_up_named").search(own) else None
        return None

    def tree_question(self, text: str) -> str | None:
        """The tree's own question for the refusal in ``text``, not asked yet (None: the tree names
        none for it). Each is its step's one follow-up ('If told X, ask exactly one follow-up
        question: whether Y'), asked once whatever request the refusal is counted to; it spends
        the refused request's follow-up too, so no generic one comes after it."""
        own = None if self.met() else self._own_question(refusal_words(text))
        if own is not None:
            self.asked_follow_ups = max(self.asked_follow_ups, self._limits()[1])
        return own

    def _own_question(self, words: set[str]) -> str | None:
        """The question the tree names for this refusal ('If the agent says the shift cannot be
        swapped because it is within 24 hours, ask whether there is any exception or workaround'):
        the one whose condition shares the most words (two or more) with the refusal, once each.
        The tree's question is what its caller asks; a generic one asks what the tree did not."""
        best, best_n = None, 1
        for i, ask in enumerate(self.rules.asks):
            n = len((content_words(ask.condition) - OUTCOME_WORDS) & words)
            if i not in self.asked_own and n > best_n:
                best, best_n = i, n
        if best is None:
            return None
        self.asked_own.add(best)
        return self.rules.asks[best].question


_QUESTION_PART = re.compile(
    rf"(?:^|[,;:]\s*|\s(?:or|and|but|so)\s+)(?:{alt('pushback', 'question_lead')})\s", re.I
)


def stated(sentence: str) -> str:
    """The part of a sentence that states: all of it, or of a question the words before the
    question begins ('I can't swap that shift, but would you like a ticket?' -> 'I can't swap
    that shift'; 'Now, for your lockout, is your account locked, or has your password expired and
    you cannot reset it?' -> 'Now, for your lockout'). A question refuses nothing: it asks. Where
    no question word begins a clause ('I can't swap it - want a ticket instead?') the question's
    start is not known, and all of it is kept."""
    if not sentence.rstrip().endswith("?"):
        return sentence
    m = _QUESTION_PART.search(sentence)
    return sentence[: m.start()] if m else sentence


def refuses(text: str) -> bool:
    """Some statement of ``text`` refuses (:func:`stated`)."""
    return any(DENIAL.search(unconditioned(stated(s))) for s in sentences_of(text.replace("\u2019", "'")))


def refusal_words(text: str) -> set[str]:
    """The words of the sentences of ``text`` that refuse ('I can't create a new onboarding
    checklist.'), not of the rest of the turn ('Let me read back your DEA number.'), nor of a
    question (:func:`stated`): a tree step's condition is matched with the refusal, not with what
    else the agent says (all of ``text`` when no sentence refuses)."""
    refusing = [s for s in sentences_of(text) if DENIAL.search(unconditioned(stated(s)))]
    return content_words(" ".join(refusing) or text)


def request_budgets(criteria: list[str], names: Callable[[int, str], bool], n: int) -> dict[int, Budget]:
    """Each request's own budget of answers to a refusal, where the tree states one per request: the
    one criterion naming request ``i`` and no other (``names``) that counts push-backs or names a
    follow-up question ('You want to understand why your laptop does not qualify yet, but if you
    are told it is not eligible, accept that outcome after one follow-up question': none, one;
    'You want the agent to skip the entitlement check, but after pushing back firmly 3 times, if
    you are clearly denied, accept': three, none). Only trees that state two budgets that differ
    (else the tree's one budget serves every request, as before)."""
    out: dict[int, Budget] = {}
    for i in range(n):
        lines = [c for c in criteria if names(i, c) and not any(names(j, c) for j in range(n) if j != i)]
        budgets = {(pushback_count(c), int(bool(pattern("follow_up_named").search(c)))) for c in lines}
        budgets.discard((0, 0))
        if len(budgets) == 1:
            out[i] = budgets.pop()
    return out if len(set(out.values())) >= 2 else {}


def own_condition(condition: str) -> str:
    """A scripted line's own condition: the tree's words before its quote, from the end of the
    line quoted before it ('After steps 1 and 2 say "still not working". After step 3 say': the
    second line's condition is 'After step 3 say', no refusal)."""
    return re.split(r"[\"\u201c\u201d]", condition)[-1]


def step_fixes(rules: TreeRules, text: str) -> bool:
    """Whether the troubleshooting step in ``text`` is one the tree says fixes the issue.

    Only the step's own sentences count: "Thanks." or "Glad the login issue is fixed." around
    it share words with the tree's closing lines ("thank them", "the login is fixed"), not with
    the step that fixes the problem."""
    steps = [s for s in sentences_of(text) if STEP.search(s)]
    words = content_words(" ".join(steps) or text) - OUTCOME_WORDS
    fix = len(words & (rules.fixing_words - rules.not_fixing_words))
    return fix >= 2 and fix > len(words & rules.not_fixing_words)
