"""The names of the caller's rules that other code compares, each written once.

A rule name is recorded with every act (``CallerAct.rule``) and read by the bench, so the strings
themselves never change; code that asks which rule produced an act (a yes to an offer, a transfer
asked already, a fact found by borrowed words) compares against these names, so a rule renamed
here is renamed for every reader, and a misspelt one is an import error, not a comparison that is
silently never true. Modules that produce a rule use the same name.
"""

from __future__ import annotations

# Drafted answers to an offer (:mod:`.drafts`).
CONFIRM_OFFER = "confirm_offer_meets_goal"
CONFIRM_READBACK = "confirm_readback_matches"
OFFER_OUTSIDE_GOAL = "offer_outside_goal"

# Acts the later turns look back at (:mod:`.followups`, :mod:`.policy`, :mod:`.acting`).
MUST_HAVE_NOT_TOLD = "must_have_not_told"
MUST_HAVE_ASKED_AGAIN = "must_have_check_unanswered"
NOT_FOUND_GIVES_AGAIN = "not_found_gives_again"
ASKS_TRANSFER = "escalation_asks_transfer"
ACCEPTS_TRANSFER = "escalation_accepts_transfer"
TRANSFER_RULES = frozenset({ASKS_TRANSFER, ACCEPTS_TRANSFER})
"""A transfer asked for or accepted: the escalation rule has been acted on."""
CUT_ASKS_AGAIN = "cut_request_asks_again"
VAGUE_ASKS_WHAT = "vague_request_asks_what"
CUT_REPLIES = frozenset({CUT_ASKS_AGAIN, VAGUE_ASKS_WHAT})
NO_FACT = "no_fact_for_question"
LACKING_RULES = frozenset(
    {NO_FACT, "no_such_field", "no_such_field_offers_fact", "no_such_identifier_offers_one"}
)
"""The caller saying it does not hold what was asked ('I don't have the email address.'): asked
again, or a third question in a row it cannot answer, its goodbye says so (:mod:`.acting`)."""
"""The caller's replies to a request cut before its object ('First, I need your')."""

# How a fact was found asked (:mod:`.asks`): the rule of an ``ask:<key>:<rule>`` tag of a turn.
ASK_TAG = "ask:"
"""The prefix of a turn's tag naming a fact it asks for and the rule that found it."""
MOST_WORDS = "most_words"
CONTEXT = "context"
"""Found by words borrowed from the rest of the turn; ``context_...`` rules are its variants."""
CONTEXT_MOST_WORDS = "context_most_words"
THIRD_PARTY = "third_party"
"""Another person's fact ('her date of birth'); the tag's rule is ``third_party:<key named>``."""

# Answers from the goal's own text (:mod:`.followups`, :mod:`.openask`, :mod:`.yesno`).
GOAL_ANSWERS_OPEN = "goal_answers_open"
"""An open question answered from the goal's words; the rule is ``goal_answers_open:<how>``."""
GOAL_ANSWERS_YES_NO = "goal_answers_yes_no:"
"""The prefix of a yes/no answered from the goal's words: ``goal_answers_yes_no:<polarity>``."""

# How a fact was found by a head noun alone (:mod:`.fallbacks`, read by :mod:`.classify`).
HEAD_TAG = "head:"
"""The prefix of the rule of a fact found by its head noun alone: ``head:<noun>`` ('the date')."""
