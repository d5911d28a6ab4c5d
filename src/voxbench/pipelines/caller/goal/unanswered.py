"""The goal caller's replies to a question none of its facts answers: the goal's own words for
an open question or a yes/no about its situation (:mod:`.openask`, :mod:`.yesno`), its identity,
the part of a field it holds, what it has in place of a field it lacks, what it wants, and else
that it does not have it. Kept apart from :mod:`.followups` (what it says when the turn asks
nothing) because each of these answers a question, and a third dead end in a row ends the call
here with a line that answers it."""

from __future__ import annotations

from voxbench.pipelines.caller.goal import rules
from voxbench.pipelines.caller.goal.acting import ActLog
from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.cues import ASKS_FOR, GIVE_Q
from voxbench.pipelines.caller.goal.followcues import HELD_ID_TAILS, ID_FIELD, NOT_ID_WORDS, WANTS_Q, YES_NO_Q
from voxbench.pipelines.caller.goal.forms import have_question
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.identity import held_part, identity_answer
from voxbench.pipelines.caller.goal.openask import WHICH, OpenAnswer, offers, other_request
from voxbench.pipelines.caller.goal.options import examples_of_any
from voxbench.pipelines.caller.goal.readback import asks_to_state
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.pipelines.caller.goal.yesno import Answer, asks_whether
from voxbench.spoken import is_code


class Unanswered:
    """The caller's answer to a question it holds no fact for."""

    def __init__(self, state: CallState, log: ActLog, req: Requests) -> None:
        self.s = state
        self.log = log
        self.req = req

    def open_answer(self, heard: Heard) -> CallerAct | None:
        """The goal's own words for an open question (:mod:`.openask`), or None."""
        q = heard.question
        offered = heard.has("options") or bool(heard.options) or offers(self.s.agent_turn)
        said = self.s.open_answers.answer(q, other_request(self.s.tracker, self.s.in_hand, q), offered)
        return None if said is None else self.said_open(said, heard)

    def said_open(self, said: OpenAnswer, heard: Heard) -> CallerAct:
        """The goal's words for an open question, with the text they came from in the act's rules."""
        self.s.stuck = 0
        act = self.log.act("answer", said.line, f"{rules.GOAL_ANSWERS_OPEN}:{said.how}", heard)
        act.rules += [f"goal_text:{said.source}"] if act.rule.startswith(rules.GOAL_ANSWERS_OPEN) else []
        return act

    def unanswerable(self, heard: Heard) -> CallerAct:
        extras = examples_of_any(heard.question)
        if extras and not any(content_words(x) and content_words(x) <= self.s.scope.words for x in extras):
            # 'Do you need any room equipment, such as a projector or whiteboard?': nothing it came for
            return self.log.act("confirm", self.s.phr.say("no_thanks"), "extras_outside_goal_declined", heard,
                                choice="no")  # fmt: skip
        if "cut_request" in heard.rules:  # 'Please provide the conf.': cut off by the recogniser
            return self.log.act("cannot_answer", self.s.phr.say("say_again"), rules.CUT_ASKS_AGAIN, heard)
        if (said := self.identity(heard)) is not None:  # 'Can you verify your identity?'
            return said
        q = heard.question
        grounded = self.s.answers.answer(q) if YES_NO_Q.match(q) or asks_whether(q) else None
        if grounded is not None and grounded.polarity != "unknown":  # a decision: progress
            self.s.stuck = 0
            return self.goal_answer(grounded, heard)
        said = None if grounded or heard.lacking else self.open_answer(heard)
        if said is not None:  # 'Why are you cancelling?': the goal's own words (:mod:`.openask`)
            return said
        self.s.stuck += 1
        if self.s.stuck >= self.s.config.give_up_after:
            # the turns without progress spent on a question it cannot answer: its goodbye answers it
            return self.log.act(
                "end", self.s.phr.say("bye_cannot_answer"), "no_progress_end", heard, ends_call=True
            )
        if grounded is not None:  # the goal's own 'say you do not know'
            return self.goal_answer(grounded, heard)
        if heard.lacking:
            return self.lacking(heard)
        field = ID_FIELD.search(heard.question)
        held = [f.key for f in self.s.book if f.key in self.s.given and is_code(str(f.value))
                and f.words and f.words[-1] in HELD_ID_TAILS and not NOT_ID_WORDS & set(f.words)]  # fmt: skip
        if field and held:  # 'What's your flight number?' having given its confirmation code: that again
            line = self.s.phr.say("dont_have_field", field=f"{field.group(1).lower()} {field.group(2)}")
            return self.log.act("cannot_answer", f"{line} {self.s.say.answer(held[:1])}",
                                "no_such_identifier_offers_one", heard, facts=held[:1])  # fmt: skip
        if heard.has("info_request"):  # asked for information naming none it holds: what is needed?
            return self.log.act("cannot_answer", self.s.phr.say("what_needed"), rules.VAGUE_ASKS_WHAT, heard)
        q = heard.question
        pending = self.s.tracker.pending()
        named = self.s.tracker.named(q) if len(self.s.intents) > 1 else None
        named = named if named in pending else None
        which = WHICH.search(q) and (named is None or offers(self.s.agent_turn))
        if WANTS_Q.search(q) and not YES_NO_Q.match(q) and not which and pending:
            # 'What time would you like?' with no fact for it: what it wants, the request the question
            # names by its words ('What kind of room do you need?') else the one in hand; 'Which one
            # would you like?' names none, and 'Which room ...?' after a list of rooms: a choice
            # among things offered (:mod:`.choose`)
            line, told, what = self.req.line(True, named)
            return self.log.act("state_request", line, "wanted_asked_states_request", heard, what, facts=told)
        if have_question(q):  # 'Do you have a seat preference?', holding none (its goal silent too)
            return self.log.act(
                "confirm", self.s.phr.say("have_none"), "have_question_none", heard, choice="no"
            )
        # 'Are you on Wi-Fi right now?': not 'I don't have that'; 'Are you able to provide the X?' is a request
        if YES_NO_Q.match(q) and not (ASKS_FOR.match(q) or GIVE_Q.match(q) or asks_to_state(q, self.s.book)):
            return self.log.act("cannot_answer", self.s.phr.say("not_sure"), "not_sure_yes_no", heard)
        return self.log.act("cannot_answer", self.s.phr.say("dont_have"), rules.NO_FACT, heard)

    def identity(self, heard: Heard) -> CallerAct | None:
        """Its identifying facts to a request for its identity, the part of a field it holds to the
        field asked whole (:mod:`.identity`); None when neither is asked or it holds none."""
        ident = identity_answer(heard.question, self.s.book, self.s.say)
        if ident is not None:
            self.s.stuck = 0
            return self.log.act("answer", ident[0], "identity_gives_identifiers", heard, facts=ident[1])
        held = held_part(heard.question, self.s.book)
        if held is None:
            return None
        line = self.s.phr.say("only_part", part=held[1], value=self.s.say.value(held[0]))
        return self.log.act("answer", line, "part_of_field_held", heard, facts=[held[0].key])

    def goal_answer(self, grounded: Answer, heard: Heard) -> CallerAct:
        """A yes/no question about its situation that its goal's text answers (:mod:`.yesno`): the
        goal's answer, said in its words ('No, the issue is still not resolved.'). Asked what the
        goal holds no clear answer to, the caller says it is not sure (:meth:`unanswerable`). The
        goal's words the answer came from go in the act's rules (``goal_text:<words>``), so the
        record shows why it said yes or no."""
        kinds: dict[str, ActKind] = {"unknown": "cannot_answer", "said": "answer"}
        choice = grounded.polarity if grounded.polarity in ("yes", "no") else ""
        act = self.log.act(kinds.get(grounded.polarity, "confirm"), grounded.line,
                           f"{rules.GOAL_ANSWERS_YES_NO}{grounded.polarity}", heard, choice=choice)  # fmt: skip
        if act.rule == f"{rules.GOAL_ANSWERS_YES_NO}{grounded.polarity}":  # not a repeat's stand-in
            act.rules = [*act.rules, f"goal_text:{grounded.source}"]
        return act

    def lacking(self, heard: Heard) -> CallerAct:
        """Asked for a field it does not have ('the flight number'), the caller says so by name, and
        offers once what it has in its place ('My flight is today to Denver.')."""
        line = self.s.phr.say("dont_have_field", field=" or the ".join(dict.fromkeys(heard.lacking.values())))
        offer = [k for k in heard.lacking if k not in self.s.given]
        if offer:
            line = f"{line} {self.s.say.answer(offer)}"
        rule = "no_such_field_offers_fact" if offer else "no_such_field"
        return self.log.act("cannot_answer", line, rule, heard, facts=offer)
