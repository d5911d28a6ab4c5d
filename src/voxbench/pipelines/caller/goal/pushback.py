"""What the goal caller says after a refusal: the tree's scripted lines, its push-backs, one
follow-up, in that order, each as many times as the tree allows; and whether a troubleshooting
step is the one the tree says fixes the issue."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import STEP
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.tree import OUTCOME_WORDS, TreeRules, content_words
from voxbench.spoken import sentences_of

_REFUSAL_CONDITION = re.compile(
    r"\b(refus|can't|cannot|declin|not eligible|pushback|push back|denied|still)", re.I
)


class PushBacks:
    """The caller's budget of answers to a refusal, spent in the tree's order."""

    def __init__(self, rules: TreeRules, follow_ups: int, phr: Phrasing) -> None:
        self.rules = rules
        self.follow_ups = follow_ups
        self.phr = phr
        self.scripted_next = 0
        self.pushbacks = 0
        self.asked_follow_ups = 0
        self.about: int | None = None
        """The request whose refusal the push-backs and follow-ups were spent on."""

    def for_request(self, i: int) -> None:
        """A refusal of another request than the last one refused gets push-backs and a follow-up
        of its own: trees say 'ask one follow-up question' of each request ('if you are told the
        swap is not possible ..., accept after one follow-up question'; the same of the on-call
        registration), and a caller that spent its one on the first ended at the second refusal.
        The tree's scripted lines stay in the tree's order, once each."""
        if self.about is not None and i != self.about:
            self.pushbacks = self.asked_follow_ups = 0
        self.about = i

    def left(self) -> bool:
        return self.pushes_left() or self.asked_follow_ups < self.follow_ups

    def spent(self) -> bool:
        """Every answer to a refusal said, and at least one was: the agent has heard them all."""
        return bool(self.scripted_next or self.pushbacks or self.asked_follow_ups) and not self.left()

    def pushes_left(self) -> bool:
        """The tree's own answers to a refusal (its scripted lines, its push-backs) not all said."""
        return bool(
            self.rules.scripted[self.scripted_next :]
            or self.pushbacks < self.rules.pushbacks - len(self.rules.scripted)
        )

    def next_line(self, text: str) -> tuple[str, str] | None:
        """(line, rule) for the next answer to the refusal in ``text``; None when none is left."""
        words = content_words(text)
        for s in self.rules.scripted[self.scripted_next :]:
            own = own_condition(s.condition)
            if len(content_words(own) & words) >= 2 or _REFUSAL_CONDITION.search(own):
                self.scripted_next = s.index + 1
                if pattern("follow_up_named").search(own) and self.asked_follow_ups < self.follow_ups:
                    self.asked_follow_ups += 1  # 'ask exactly one follow-up question: "..."': it is the one
                return s.line, f"tree_scripted_line:{s.index}"
        if self.pushbacks < self.rules.pushbacks - len(self.rules.scripted):
            self.pushbacks += 1
            return self.phr.say("push_back"), "tree_push_back"
        if self.asked_follow_ups < self.follow_ups:
            self.asked_follow_ups += 1
            return self.phr.say("follow_up"), "one_follow_up_question"
        return None


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
