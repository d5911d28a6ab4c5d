"""One agent turn cut into the sentences each of the classifier's rules looks at."""

from __future__ import annotations

from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.asks import is_request
from voxbench.pipelines.caller.goal.cues import (
    ANYTHING_ELSE,
    ANYTHING_ELSE_BARE,
    ANYTHING_ELSE_SAID,
    OUTCOME_Q,
    STEP,
)
from voxbench.pipelines.caller.goal.marks import asked
from voxbench.pipelines.caller.goal.offered import offers_asked
from voxbench.spoken import sentences_of


@dataclass
class Turn:
    """One agent turn cut into the sentences each rule looks at."""

    text: str
    sents: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)

    def asks_beyond_anything_else(self) -> bool:
        """A request other than an "anything else?" said as a statement ('Let me know if there is
        anything else I can do.' is one by :func:`.asks.is_request`, and asks nothing)."""
        return any(not ANYTHING_ELSE_SAID.search(r) for r in self.requests)

    def anything_else(self, question: str) -> bool:
        """The question is an "anything else?": a cue's wording, or a bare 'What else?' that is the
        turn's one question (after another question it asks for more of that one's answer)."""
        return bool(ANYTHING_ELSE.search(question)) or (
            self.questions == [question] and bool(ANYTHING_ELSE_BARE.search(question))
        )

    def troubleshooting(self) -> bool:
        """A step to try and a question whether it worked."""
        return any(STEP.search(s) for s in self.sents) and any(OUTCOME_Q.search(s) for s in self.sents)

    @classmethod
    def of(cls, text: str) -> Turn:
        text = text.replace("’", "'").replace("‘", "'")
        sents = offers_asked([asked(s) for s in sentences_of(text)])  # an offer stated asks (.offered)
        return cls(
            text=text,
            sents=sents,
            questions=[s for s in sents if s.endswith("?")],
            requests=[s for s in sents if is_request(s)],
            statements=[s for s in sents if not s.endswith("?")],
        )
