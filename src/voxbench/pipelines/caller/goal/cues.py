"""Phrase patterns a customer-service agent uses in any domain, as the goal caller hears them.

Each pattern names one kind of thing an agent turn can do (ask, put on hold, transfer, report a
completed action, refuse, ask a yes/no question, walk through a troubleshooting step...).
:mod:`.classify` combines them; nothing here names a scenario or a domain. The words are data
(``goal/lang/<lang>.json``, ``phrases.cues``); the grammar around them (anchors, lookarounds,
word boundaries, groups) is here.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.lang import alt


def _a(name: str) -> str:
    return alt("cues", name)


REQUEST = re.compile(
    rf"^(?:[^,]{{1,24}},\s*|(?:(?:{_a('request_lead_in')}) )?(?:{_a('request_topic')}) [^,]{{1,40}},\s*)?"
    rf"(?:(?:{_a('request_connective')})\s+)?({_a('request_opener')})\b"
    rf"|\b(?:{_a('i')})({_a('will_contracted')}| (?:{_a('will')}))? ((?:{_a('also')}) )?(?:{_a('need')})"
    rf" ({_a('need_object')})\b"
    rf"|(?:,\s*|\s)(?:(?:{_a('and')})\s+)?(?:(?:{_a('if_so')}),?\s*)?(?:{_a('please')}) ({_a('please_verb')})\b"
    rf"|,\s*(?:(?:{_a('and')})\s+)?(?:{_a('then')}) ((?:{_a('please')})\s+)?({_a('then_verb')})\b"  # not 'then tell me if it works'
    rf"|^[^,]{{1,48}}?\s(?:{_a('unclosed_opener')})\s+[a-z]",
    re.IGNORECASE,
)
"""A request: an opener after a lead the comma closes ('Before I do that, please tell me ...'), or
'please' before a verb of giving anywhere. A recogniser may drop the commas: then 'please' or
'kindly' after a short lead opens the request all the same ('For the new hire setup please give me
...', ``benchmarks/caller_asr_forms.py`` rule ``no_commas``)."""
# An action the agent says it is about to take ('I'll add a checked bag to the journey.'): said
# while it makes the tool call, it is a hold; the result comes next. Not under a condition ('I'll
# cancel it if you want', 'I'll submit it once you confirm'): that is an offer or a step.
ACTION_VERB = _a("action_verb")
# The agent says it takes (or is taking) that action: 'I'll add a checked bag', 'I'm updating it now'.
ACTION_SAID = re.compile(
    rf"\b(?:{_a('i_will')})\s+(?:(?:{_a('now')})\s+)?(?:(?:{_a('go_ahead')})\s+)?(?:" + ACTION_VERB + r")\b"
    rf"|\b(?:{_a('i_am')})\s+(?:(?:{_a('now')})\s+)?(?:{_a('action_doing')})\b",
    re.IGNORECASE,
)
TRANSFER_NOW = re.compile(_a("transfer_now"), re.IGNORECASE)
TRANSFER_OFFER = re.compile(_a("transfer_offer"), re.IGNORECASE)
GOODBYE = re.compile(rf"\b({_a('goodbye')})\b", re.I)
ANYTHING_ELSE = re.compile(_a("anything_else"), re.IGNORECASE)
# 'What else?' / 'Okay, what more is there?' alone: an "anything else?" only as the turn's one
# question ('What do you need help with? What else?' asks for all of the first) (:class:`.turn.Turn`).
ANYTHING_ELSE_BARE = re.compile(_a("anything_else_bare"), re.IGNORECASE)
# 'Will that be all for today?', 'Does that take care of everything?': the agent's "anything else?"
# asked the other way round, a yes meaning nothing is left (not a yes to an offer).
THAT_ALL = re.compile(_a("that_all"), re.IGNORECASE)
# The same offer said as a statement, at the close of a turn ('If you have any other questions, feel
# free to ask.', 'Let me know if there's anything else I can do.'): the agent's "anything else?".
ANYTHING_ELSE_SAID = re.compile(_a("anything_else_said"), re.IGNORECASE)
DONE_VERB = f"({_a('done_verb')})"
# The completion phrases name the completion verbs as '{done}' (the list above).
COMPLETED = re.compile(rf"\b({_a('completed').replace('{done}', DONE_VERB)})", re.IGNORECASE)
# A completion verb under a negation or a condition is not a completion ("cannot be submitted",
# "has to wait until that record is updated").
NOT_DONE = re.compile(rf"\b({_a('not_done')})\b", re.I)
NEXT_STEP = re.compile(rf"\b({_a('next_step')})\b", re.I)
DENIAL = re.compile(rf"\b({_a('denial')})", re.IGNORECASE)
# Offers to do something, asked as a yes/no question ('Do you want to add a bag?', 'Would you like to ...').
OFFER_VERBS = _a("offer_verb")
CONFIRM_Q = re.compile(
    rf"^({_a('confirm_lead')}|({_a('want_to')}) (?:{_a('to')}) ("
    + OFFER_VERBS
    + rf")\b|{_a('confirm_tail_lead')})"
    rf"|\b({_a('confirm_word')})\s*\?$|{_a('confirm_said')}"
    rf"|^(?!({_a('wh_word')})\b)[a-z]+ ({_a('object_pronoun')})\b[^?]{{0,30}}\?$"
    rf"|^(?:(?:{_a('confirm_modal')})\s+(?:{_a('you')})\s+(?:(?:{_a('please_just')})\s+)?)?(?:{_a('confirm_verb')})\b"
    rf"[^?]*\b(?:{_a('stated_link')})\b[^?]*\?$",
    re.IGNORECASE,
)
OPEN_Q = re.compile(_a("open_q"), re.IGNORECASE)
# 'What equipment requests do you need help with?', 'What kind of leave request ...?', 'What leave-related
# help ...?': the caller's requests of that kind, not the fact the modifier names ('equipment_type',
# 'leave_category'); 'What type of issue ...?' stays a fact request.
REQUESTS_Q = re.compile(
    rf"\b(?:{_a('what')}) (\w+ ){{1,3}}({_a('requests_plural')})\b[^?]*\b({_a('requests_verb')})\b[^?]*\?"
    rf"|\b(?:{_a('what')}) ({_a('requests_kind')})s? (?:{_a('of')}) (\S+ ){{0,2}}({_a('request_help')})\b[^?]*\?"
    rf"|\b(?:{_a('what')}) \S+[- ](?:{_a('related')}) ({_a('help_request')})\b[^?]*\?",
    re.IGNORECASE,
)
STEP = re.compile(
    rf"\b({_a('step')})\b"  # a step by its verb, or any instruction: 'please reseat them', 'Step four: unplug it'
    rf"|\b(?:{_a('please')}|(?:{_a('step_word')}) \w+:)\s+(?!(?:{_a('not_a_step')})\b)[a-z]{{3,}}\b"
    rf"(?! (?:{_a('you_me_us')})\b)",
    re.IGNORECASE,
)
OUTCOME_Q = re.compile(f"({_a('outcome_q')})", re.IGNORECASE)


# Words that name a piece of information (an LLM is asked which fact only for such a request).
INFO_NOUN = re.compile(rf"\b({_a('info_noun')})\b", re.I)
# The agent sent the caller a one-time code: the caller reads it out next.
SENT_CODE = re.compile(rf"\b({_a('sent_code_verb')})\b.{{0,40}}\b({_a('code_noun')})\b", re.I)
WH = re.compile(rf"({_a('question_word')})\b", re.I)
READBACK_CUE = re.compile(rf"\b({_a('readback_cue')})\b", re.I)
# A yes/no question about the caller's readiness to go on ('Are you with the laptop now and able to
# try a few quick checks?', 'Can you try that now?'): a cooperative caller says yes.
WILLING_Q = re.compile(
    rf"^(?:\w+,\s+)?({_a('willing_lead')})\b"
    rf".{{0,60}}\b({_a('willing_word')})\b[^?]*\?$",
    re.I,
)
# A modal yes/no question whose verb is a giving verb and whose object names a fact ('Can you
# provide me with your policy number?', 'Would you be able to give me your passport number?',
# 'Are you able to provide the account number?'): a request for that fact, whether or not the
# caller has it, never a question of its readiness (:data:`WILLING_Q`) to be answered 'Yes, I can.'
# 'provide' and 'share' ask for information whatever noun follows ('Are you able to provide the
# vehicle license plate?'): their object needs no noun of the table.
GIVE_Q = re.compile(
    rf"^(?:\w+[,!.]?\s+)?(?:{_a('give_q_lead')})\s+(?:(?:{_a('softener')})\s+)*"
    rf"(?:(?:{_a('able_to')})\s+)?(?:(?:{_a('info_verb')})\b(?:\s+(?:{_a('me_us')}))?(?:\s+(?:{_a('with')}))?"
    rf"\s+(?:(?:{_a('your')})\b|[^?]*\b(?:{_a('info_noun')})\b)|(?:{_a('info_verb_any_object')})\b"
    rf"(?:\s+(?:{_a('me_us')}))?(?:\s+(?:{_a('with')}))?\s+(?:{_a('the')})\b)",
    re.I,
)
# A confirm verb whose object is 'your X' and nothing after it ('Can you confirm your home mailing
# address?', 'Please verify your date of birth.'): with no value said it asks the caller to state X
# (:func:`.readback.asks_to_state`); 'Can you confirm your name is Maria?' states one.
CONFIRM_ASKS = re.compile(
    rf"^(?:\w+[,!.]?\s+)?(?:(?:{_a('confirm_modal')})\s+(?:{_a('you')})\s+(?:(?:{_a('softener')})\s+)*"
    rf"|(?:{_a('please')})\s+)?(?:{_a('confirm_verb')})\s+(?:(?:{_a('for_me')})\s+)?(?:{_a('your')})\s+"
    rf"(?![^?.!]*\b(?:{_a('stated_verb')})\b)(?P<field>[^?.!,:;]+?)(?:,?\s+(?:{_a('please_for_me')}))?\s*[?.!]?$",
    re.I,
)
# A request for information by a modal and a verb of giving ('Can you please provide me with the
# necessary information?', 'Could you give me the details I need?'): a request whatever it names,
# never a question whether the caller is able to (no 'if', 'whether' or question word after it);
# not one for 'your X', a field the caller holds or lacks.
_ASKS_FOR = (
    rf"^(?:\w+[,!.]?\s+)?(?:{_a('confirm_modal')})\s+(?:{_a('you')})\s+(?:(?:{_a('softener')})\s+)*"
    rf"(?:{_a('info_verb')})\b"
)
ASKS_FOR = re.compile(_ASKS_FOR, re.I)
"""'Could you tell me the desk code?': a request for something, worded as a yes/no question."""
_PLEASE_GIVE = rf"^(?:\w+[,!.]?\s+)?(?:{_a('please_kindly')})\s+(?:{_a('info_verb')})\b"
"""The same request as an imperative: 'Please provide the following information.'"""
INFO_ASKED = re.compile(
    rf"(?:{_ASKS_FOR}|{_PLEASE_GIVE})"
    rf"(?!\s+(?:(?:{_a('me_us')})\s+)?(?:(?:{_a('with')})\s+)?(?:{_a('your')})\b)"  # 'your plate': a field
    rf"(?![^?]*\b(?:{_a('question_word')}|{_a('if_whether')})\b)",
    re.I,
)
# Nothing but a courtesy word: the tail of a sentence already answered ('Please.', 'Thanks.').
COURTESY = re.compile(rf"^({_a('courtesy')})[.!]*$", re.I)
# A sentence of service talk that thanks for the caller's patience or says the agent is there to
# help ('Thanks for your patience.', "I'm happy to help."): it tells and asks nothing, so what the
# turn does is what its other sentences do ('One moment. Thanks for your patience.' still holds).
SERVICE_TALK = re.compile(rf"^(?:{_a('service_talk')})[.!]*$", re.I)

# The agent reports something done in words too loose for a completion ('That's done.'): not the
# end of a request, but progress enough that the call is not stalled.
PROGRESS = re.compile(rf"\b({_a('that_it')})(['’]s| (?:{_a('is')})) ({_a('progress')})\b", re.I)

# Asked to say again what it just said, or to try again ('Can you try again?', 'Sorry, could you
# repeat that?'): the facts of its last answer, said again; never a bare 'Yes, I can.'.
AGAIN = re.compile(rf"\b({_a('again_word')})\b", re.I)
"""A request to say a value again or more carefully ('Please read it again slowly.')."""
REPEAT_Q = re.compile(rf"\b({_a('repeat_q')})\b", re.I)
# Asked to spell a value ('Can you spell your last name?', 'Could you spell that for me?').
SPELL_Q = re.compile(rf"\b{_a('spell')}", re.I)
