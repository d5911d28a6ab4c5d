"""`caller check` on a small scenario: requests, withheld facts, decisions, endings, invented values."""

from __future__ import annotations

import json

from voxbench.bench.caller_check import Reply, by_domain, check_all
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.reference import (
    chosen_option,
    reference_end,
    reference_ending,
    reference_turns,
    reply_polarity,
)

from ..pipelines.caller_goal.conftest import make_scenario
from .script_caller import ScriptCaller

TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need to change my flight."),
    ("agent", "May I have your confirmation number and last name?"),
    ("user", "Z K three F F W. Lima."),
    ("agent", "I found a nonstop at one PM with a fifty dollar fee. Would you like me to book it?"),
    ("user", "Yes, please."),
    ("agent", "You're all set."),
]


def _scenario():  # type: ignore[no-untyped-def]
    return make_scenario(
        {"confirmation_number": "ZK3FFW", "last_name": "Lima"},
        must=["The new flight departs before 2:00 PM today."],
        trace=TRACE,
    )


def test_reference_turns_pair_agent_turns_with_replies() -> None:
    opening, turns = reference_turns(_scenario())
    assert opening is None
    assert [r for _, r in turns] == [
        "Hi, I need to change my flight.",
        "Z K three F F W. Lima.",
        "Yes, please.",
        "",
    ]


def test_goal_caller_scores_clean() -> None:
    res = check_all([("airline", _scenario())], lambda d, s: GoalTextCaller(s))
    o = by_domain(res)["overall"].summary()
    assert o["requests_answered_right_pct"] == 100.0 and o["invented_facts"] == 0
    assert o["decisions_matched_pct"] == 100.0 and o["premature_endings"] == 0 and o["missed_endings"] == 0
    json.dumps([r.model_dump(mode="json") for r in res])


class _Bad:
    """A caller that invents a code, withholds the last name, says no, and never hangs up."""

    def open(self) -> Reply:
        return Reply(text="hi")

    def respond(self, agent_text: str) -> Reply:
        if "confirmation" in agent_text:
            return Reply(text="It is Q X seven T four M.")
        return Reply(text="No.")


def test_a_bad_caller_is_caught() -> None:
    c = by_domain(check_all([("airline", _scenario())], lambda d, s: _Bad()))["overall"]
    assert c.requests == 1 and c.requests_right == 0 and c.facts_withheld == 2
    assert c.invented >= 1 and c.decisions == 1 and c.decisions_matched == 0 and c.missed_endings == 1


def test_reply_polarity() -> None:
    assert reply_polarity("Yes, that's correct.") == "yes"
    assert reply_polarity("No, I don't want that.") == "no"
    assert reply_polarity("I already tried that. It's still not working.") == "no"
    assert reply_polarity("My employee ID is E M P.") == ""


def test_chosen_option_is_the_one_named_whole() -> None:
    """A reply that names one option whole and shares a word with another picks the whole one,
    the same reading for the reference and the caller ('The equipment is video conferencing')."""
    options = ["any room equipment", "whiteboard", "video conferencing"]
    assert chosen_option("The equipment is video conferencing.", options) == 2
    assert chosen_option("Video conferencing.", options) == 2


def test_the_reference_goodbye_is_where_the_reference_ended() -> None:
    """A trace may keep the agent's closing line after the caller's goodbye: the reference ended
    at its goodbye, so a caller ending there is not premature, and not ending there is missed."""
    trace = [*TRACE[:-1], ("agent", "You're all set. Anything else?"), ("user", "No, that's all. Goodbye."),
             ("agent", "Thanks for calling. Your confirmation is Z K three F F W.")]  # fmt: skip
    sc = make_scenario({"confirmation_number": "ZK3FFW", "last_name": "Lima"}, trace=trace)
    _, turns = reference_turns(sc)
    assert reference_end(turns) == len(turns) - 2
    c = by_domain(check_all([("airline", sc)], lambda d, s: GoalTextCaller(s)))["overall"]
    assert c.premature_endings == 0 and c.missed_endings == 0


_STAYS = [("agent", "How can I help?"), ("user", "I need a refund."), ("agent", "I can't do that here."),
          ("user", "Please transfer me."), ("tool", "transfer_to_agent"),
          ("agent", "I have transferred you. A person joins in two minutes."), ("user", "I'll wait."),
          ("agent", "Please hold."), ("user", "Goodbye."), ("agent", "Goodbye.")]  # fmt: skip


def _endings(
    trace: list[tuple[str, str]], end_at: int | None, end_reason: str | None = None
) -> tuple[int, int]:
    sc = make_scenario({"confirmation_number": "ZK3FFW"}, trace=trace, end_reason=end_reason)
    c = by_domain(check_all([("airline", sc)], lambda d, s: ScriptCaller(["Okay."] * 9, end_at)))["overall"]
    return c.premature_endings, c.missed_endings


def test_after_the_agent_transfers_ending_is_not_premature() -> None:
    """The reference caller stayed on the line after the transfer tool ran ('I'll wait.') and said
    goodbye two turns later; EVA tells its caller to hang up once the transfer is initiated, so a
    caller ending at the transfer's turn is not premature, and one ending before it is."""
    sc = make_scenario({}, trace=_STAYS)
    assert reference_ending(sc, reference_turns(sc)[1]) == (2, 3, False)
    assert _endings(_STAYS, 2) == (0, 0)
    assert _endings(_STAYS, 3) == (0, 0)
    assert _endings(_STAYS, 4) == (0, 1)
    assert _endings(_STAYS, 1) == (1, 0)
    assert _endings(_STAYS, None) == (0, 1)


def test_one_ending_error_per_scenario() -> None:
    """A caller that hung up early has said its last word: premature, not also missed."""
    assert _endings(TRACE, 1) == (1, 0)
    assert _endings(TRACE, 3) == (0, 0)


def test_a_call_the_agent_ended_by_transfer_counts_no_missed_ending() -> None:
    trace = [*_STAYS[:5], ("agent", "Transferring you to a live agent. Please wait.")]
    assert _endings(trace, None, "transfer") == (0, 0)
    assert _endings(trace, None) == (0, 1)
