"""How often the caller has put the same value right, and what it says from that.

A correction answers a read-back that got a fact wrong (:meth:`.drafts.Drafts.correction`). The
*same* correction is the same facts with the same values; said a second time in a row it says
so ("No, that's not right. As I mentioned, my last name is Okonkwo."; the phrase is the seeded
``said_before`` of the caller's table, :meth:`.phrases.Phrasing.again`), a value misheard twice
still spelled (:mod:`.hearing`). Once said :data:`CORRECTIONS_CAP` times, the next wrong
read-back of it gets a no and a goodbye with its reason ("No, that's still not right, and I've
corrected it a few times now. ... Goodbye.", ``templates.bye_corrected``; rule
:data:`GAVE_UP`, end reason ``stalled``), as the caller's other give-ups (:mod:`.stall`) do.

Why it exists: live ``make run`` bb.2, the agent read a date back right and the caller's own
recogniser heard it wrong ("May 30" for "May 13"): the caller corrected it seven times, word for
word. The progress count that ends a stalled call (:class:`.stall.Stalls`) did not help: a
recogniser hearing the agent's same words differently makes up progress.

What starts the count over: a correction of another fact or another value, and the agent reading
the corrected fact back right (a later misreading of it is a new one, as
:class:`.hearing.Hearings` clears its count then). *In a row* counts corrections, not turns: the
fifth wrong read-back of one value with no right one between ends the call whatever else the
agent did between them (other facts asked and given included), because progress elsewhere does not
put this value right, and a recogniser that makes up progress defeated the turn count. The key is
the caller's own value, not the form it heard: five different wrong forms of one name count as
the same correction (the caller cannot tell who misheard; EVA's "repeatedly misunderstands you"
covers both). Two facts read back wrong in turn (one, the other, the first again) reset each
other and are left to the turns-without-progress count; of a two-fact correction where one fact
is then put right, the count restarts for the other alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.heard import Heard

CORRECTIONS_CAP = 4
"""Times the caller says the same correction before it gives up at the next wrong read-back of
it. EVA's simulated user ends the call when "the assistant has not been helpful for 5 consecutive
turns (e.g., repeatedly misunderstands you ...)" (``configs/prompts/simulation.yaml``): four wrong
read-backs corrected, the fifth is that fifth turn. EVA's dev reference conversations never put
one value right twice in a row (of 32 replies that open with a no, 3 say one of the caller's facts,
none the one before said again), so they bound nothing tighter; the goal caller gives a fact asked
again at most 4 times too (:mod:`.stall`, ``answer``'s ``total``)."""

GAVE_UP = "same_correction_again_end"
"""The rule of the goodbye to the same value read back wrong once more after :data:`CORRECTIONS_CAP`."""

Content = tuple[tuple[str, str], ...]
"""What a correction puts right: (fact key, value as said), sorted."""


@dataclass
class Corrections:
    """The last correction said, the times in a row it was said, and one drafted for this turn."""

    said: Content = ()
    times: int = 0
    drafted: tuple[int, Content, int] | None = None
    """(agent turn, content, times) of a correction drafted, counted once its act is said (a draft
    may give way to another act: :meth:`said_in`)."""

    def times_now(self, content: Content) -> int:
        """The times ``content`` would have been said with this telling (1: the first in a row)."""
        return self.times + 1 if content and content == self.said else 1

    def draft(self, turn: int, content: Content, times: int) -> None:
        """A correction of ``content`` drafted in reply to agent turn ``turn``, its ``times``-th."""
        self.drafted = (turn, content, times)

    def said_in(self, act: CallerAct) -> None:
        """The act said: a correction drafted for its turn becomes the last one said."""
        if self.drafted is not None and self.drafted[0] == act.turn and act.kind == "correct":
            _, self.said, self.times = self.drafted
        self.drafted = None

    def hear(self, heard: Heard) -> None:
        """An agent turn: a corrected fact read back right starts the count over."""
        if any(k in heard.readback_ok for k, _ in self.said):
            self.said, self.times = (), 0
