"""Phrase patterns a customer-service agent uses in any domain, as the goal caller hears them.

Each pattern names one kind of thing an agent turn can do (ask, put on hold, transfer, report a
completed action, refuse, ask a yes/no question, walk through a troubleshooting step...).
:mod:`.classify` combines them; nothing here names a scenario or a domain.
"""

from __future__ import annotations

import re

REQUEST = re.compile(
    r"^(?:[^,]{1,24},\s*|(?:now |next |so |and )?(?:for|regarding|about|on|to) [^,]{1,40},\s*)?"
    r"(?:(?:then|and|also|now|next|so|finally)\s+)?(please|kindly|can you|could you|would you|will you|may i|can i (get|have)|tell me|give me|"
    r"provide|read me|spell|say|let me know|i('ll| will)? ?need|i also need|next,? i need|now,? i need|"
    r"what('s| is| are)|which|and (your|the)|also,? (your|the)|go ahead and)\b"
    r"|\bi('ll| will)? (also )?need (the|your|a few|two|some|to know|to get|to have)\b"
    r"|,\s*(?:and\s+)?(?:if so,\s*)?please (give|tell|provide|read|spell|share)\b"
    r"|,\s*(?:and\s+)?then (please\s+)?(give me|provide|read me|spell)\b",  # not 'then tell me if it works'
    re.IGNORECASE,
)
# An action the agent says it is about to take ('I'll add a checked bag to the journey.'): said
# while it makes the tool call, it is a hold; the result comes next. Not under a condition ('I'll
# cancel it if you want', 'I'll submit it once you confirm'): that is an offer or a step.
ACTION_VERB = (
    r"add|update|change|book|cancel|process|submit|assign|move|reset|unlock|rebook|issue|create|file|"
    r"place|schedule|apply|set up|register|renew|extend|remove|put (?:in|through)"
)
# The agent says it takes (or is taking) that action: 'I'll add a checked bag', 'I'm updating it now'.
ACTION_SAID = re.compile(
    r"\bi(?:'ll|\s+will|'m going to|\s+am going to)\s+(?:now\s+)?(?:go ahead and\s+)?(?:"
    + ACTION_VERB
    + r")\b"
    r"|\bi(?:'m|\s+am)\s+(?:now\s+)?(?:adding|updating|changing|booking|cancel+ing|processing|submitting|assigning|"
    r"moving|resetting|unlocking|rebooking|issuing|creating|filing|placing|scheduling|applying|setting up|"
    r"registering|renewing|extending|removing)\b",
    re.IGNORECASE,
)
HOLD = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|alright|all right|great|perfect|got it|thanks?|thank you|certainly|of course|"
    r"understood)[,!.]*\s*)*(?:please\s+)?(?:(?:hold(?: on)?|wait)(?: (?:for )?(?:a|one|just a) (?:moment|second|sec|minute))?|"
    r"(?:one|a|just a|give me a) "
    r"(?:moment|second|sec|minute)|let me (?:check|look|see|pull|find|verify|confirm|search|review|get|take)\b.*|"
    r"i(?:'ll|\s+will|'m going to)\s+(?:now\s+)?(?:(?:check|look|pull|search|review|verify|go ahead)\b.*|"
    r"(?:" + ACTION_VERB + r")\b(?!.*\b(?:if|once|when|unless|after|as soon as)\b).*)|bear with me)"
    r"(?:[,\s]+(?:please|for you|for me|now|on that|on this))*[.!]*$",
    re.IGNORECASE,
)
TRANSFER_NOW = re.compile(
    r"\btransferring you\b|\bi('m| am) (now )?transferring\b|\bi('ve| have) transferred you\b|\bconnecting you (to|with)\b|"
    r"stay on the line for (the|a) (live )?(agent|specialist)|\bi('ve| have) (initiated|started) (the|a) transfer\b",
    re.IGNORECASE,
)
TRANSFER_OFFER = re.compile(
    r"\btransfer you\b|\b(live|human) (agent|specialist|representative|person|hr)\b|\bsupervisor\b|\bescalat",
    re.IGNORECASE,
)
GOODBYE = re.compile(
    r"\b(goodbye|good bye|bye|have a (great|good|nice|wonderful) (day|evening|trip|flight))\b", re.I
)
ANYTHING_ELSE = re.compile(
    r"anything else|something else (i can|to) help|any other (question|request|thing)|help you with anything|"
    r"else (i|we) can (help|do)|\bwhat else (would|can|could|do|may|shall|should)\b",
    re.IGNORECASE,
)
# The same offer said as a statement, at the close of a turn ('If you have any other questions, feel
# free to ask.', 'Let me know if there's anything else I can do.'): the agent's "anything else?".
ANYTHING_ELSE_SAID = re.compile(
    r"\bif (you have|you need|there('s| is)|there are) (any(thing)? (other|more|further|else)|anything)\b|"
    r"\bif you have any (questions|concerns)\b[^.?!]*\b(feel free|let me know|don't hesitate|just ask|reach out)\b|"
    r"\blet (me|us) know if (there('s| is)|you (have|need)) (anything|any (other|more|further))\b|"
    r"\b(feel free|don't hesitate|do not hesitate) to (reach out|call (back|again|us)|contact us|get in touch)\b|"
    r"\b(here|happy|glad) to help (you )?with anything else\b",
    re.IGNORECASE,
)
DONE_VERB = (
    r"(submitted|processed|updated|booked|changed|rebooked|moved|cancel+ed|issued|created|registered|scheduled|"
    r"restored|reactivated|added|placed|opened|unlocked|approved|reset|logged|completed|filed|recorded|"
    r"assigned|extended|transferred|refunded|reinstated|provisioned|granted|removed|corrected|saved|enrolled|renewed)"
)
COMPLETED = re.compile(
    rf"\b(you('| a)re all set|all set|all done|it('s| is) done|^done\b|^{DONE_VERB}[;:,.!]|"
    rf"everything is (complete|confirmed|done)|"
    rf"(has|have) (now )?been (successfully )?{DONE_VERB}|(is|are) (now )?(successfully )?{DONE_VERB}|"
    rf"i('ve| have) (successfully )?(also )?{DONE_VERB}|i {DONE_VERB}\b|successfully|you('re| are) (now )?"
    rf"(confirmed|booked|registered|on (the )?(standby|waitlist))|your (\w+ )?(request|case|ticket|booking|"
    rf"confirmation|reference|registration|waitlist) (number|id|code)s? (is|are)|you('re| are) back in)",
    re.IGNORECASE,
)
# A completion verb under a negation or a condition is not a completion ("cannot be submitted",
# "has to wait until that record is updated").
NOT_DONE = re.compile(
    r"\b(not|cannot|can't|can’t|unable|won't|won’t|until|once|if|unless|before|after|will be)\b", re.I
)
NEXT_STEP = re.compile(
    r"\b(now (for|let'?s|let’s|we('ll| will| can)|on to|to)|next,|let(')?s (do|move|start|turn|handle|take care)|moving on"
    r"|we can (now )?(continue|move (on|to)|go on|do|start|handle|take care))\b",
    re.I,
)
DENIAL = re.compile(
    r"\b(can('|no)?t|cannot|unable to|not able to|not allowed|(is|are)n('|o)t (eligible|available|allowed|"
    r"possible)|not eligible|not possible|no (seats?|rooms?|desks?|slots?|availability|options?|flights?)\b|"
    r"not finding|couldn('|o)t find|could not find|unfortunately|doesn('|o no)t (qualify|match)|is blocked|"
    r"(is|was|are|were|been) (automatically )?(rejected|denied|declined)|"
    r"not authorized|won('|o)t be able|don('|o no)t see (a|any)|there (are|is) no|does not match|"
    r"do not have (a|any)|no record|no matching|isn('|o)t something i can)",
    re.IGNORECASE,
)
# Offers to do something, asked as a yes/no question ('Do you want to add a bag?', 'Would you like to ...').
OFFER_VERBS = r"assign|add|book|cancel|renew|submit|change|update|unlock|reset"
CONFIRM_Q = re.compile(
    r"^(is that|is this|is it|are those|are these|does that|does this|did i|have i|can you confirm|please confirm|"
    r"to confirm|shall i|should i|do you want me to|do you recognize|would you like me to|do i have your|can i go ahead|"
    r"is it (ok|okay|alright)|ok(ay)? to|do you approve|do you authorize|are you (ok|okay|fine|happy) with|"
    r"may i (go ahead|proceed|submit|book|place|process)|would you like (to (proceed|go ahead|confirm|keep|book))|"
    r"ready for me to|does everything|want me to|sound good|is everything|shall we|just to confirm|"
    r"do you want (to )?(proceed|go ahead|keep)|(do you want|would you like) to ("
    + OFFER_VERBS
    + r")\b|would you like that|do you still want|is that (still )?what)"
    r"|\b(correct|right|accurate)\s*\?$|\bplease say yes\b|\bconfirm (that )?you want\b|\bto proceed\b.*\?$"
    r"|^(?!(what|which|how|where|when|who|why|spell|say|read)\b)[a-z]+ (it|that|this|them)\b[^?]{0,30}\?$",
    re.IGNORECASE,
)
OPEN_Q = re.compile(
    r"how (can|may|might) i (help|assist)|what can i (do|help)|what (do you need|would you like|brings you|"
    r"can i do)|\b(let me know|tell me) (what you(?:'d| would)? (need|want|like)|how (i|we) (can|may|might) "
    r"(help|assist))\b|"
    r"how can i help|what (\w+ ){0,3}(do you need|are you calling|would you like help)|"
    r"what('s| is) the (reason|issue|problem)|what seems to be|tell me (more )?about (the|your) (issue|problem)|"
    r"what (are|is|'s) (the|your) .{0,40}\b(requests?|issues?|things?|updates?|needs?|changes?|items?)\b|"
    r"\b(second|next|other|another|third|fourth|fifth|last|remaining) (\w+ ){0,2}(request|thing|issue|item|update|change|one|question)s?\b.*\?|"
    r"what .{0,30}\bcan i (help|assist)( you)? with|"
    r"what('s| is) (the|your) (first|next|second|third|fourth|fifth|other|last|remaining) (\w+ ){0,2}"
    r"(thing|request|item|issue|question|task|one)s?\b|"
    r"what (\w+ ){0,3}would you like (help with|to (take care of|handle|do|start with|work on|address|cover))\b",
    re.IGNORECASE,
)
# 'What equipment requests do you need help with?', 'What kind of leave request ...?', 'What leave-related
# help ...?': the caller's requests of that kind, not the fact the modifier names ('equipment_type',
# 'leave_category'); 'What type of issue ...?' stays a fact request.
REQUESTS_Q = re.compile(
    r"\bwhat (\w+ ){1,3}(requests|issues|problems|needs|tasks|things|changes)\b[^?]*\b(need|have|help|like)\b[^?]*\?"
    r"|\bwhat (kind|type|sort)s? of (\S+ ){0,2}(requests?|help)\b[^?]*\?|\bwhat \S+[- ]related (help|requests?)\b[^?]*\?",
    re.IGNORECASE,
)
STEP = re.compile(
    r"\b(try|restart|reboot|check|make sure|forget|reconnect|disconnect|clear|sign (in|out)|log (in|out)|run|"
    r"reset|close|reopen|update|turn (off|on)|unplug|plug|confirm you('re| are) entering|verify that)\b",
    re.IGNORECASE,
)
OUTCOME_Q = re.compile(
    r"(is it working|is that working|did (that|it|this) (fix|resolve|work|help|clear)|does (that|it|this) "
    r"(fix|resolve|work)|(let me|tell me) (know )?(if|whether|when|once)|has that (fixed|resolved)|"
    r"is the (\w+ )?(stable|working)|are you (able|still)|still (happening|not working|having)|"
    r"did (that|it|this) change anything|(is|was) (the issue|the problem|it|that) (now )?(resolved|fixed)|"
    r"does (the|your) (external )?(\w+ )?(work|connect|turn on|power on)\b)",
    re.IGNORECASE,
)


# Words that name a piece of information (an LLM is asked which fact only for such a request).
INFO_NOUN = re.compile(
    r"\b(number|id|i d|code|name|date|dates|address|email|e mail|phone|time|zip|birth|pin|passcode|"
    r"amount|account|reference|type|size|floor|building|location)\b",
    re.I,
)
# The agent sent the caller a one-time code: the caller reads it out next.
SENT_CODE = re.compile(
    r"\b(i('ve| have)? (just )?(sent|texted)|i('m| am) (now )?sending|we('ve| have)? sent)\b.{0,40}\b(code|passcode)\b",
    re.I,
)
WH = re.compile(r"(what|which|how|where|when|who|why|whose)\b", re.I)
READBACK_CUE = re.compile(
    r"\b(let me read (that|it) back|i heard|to confirm|just to confirm|i have (you down|you as|your))\b", re.I
)
# A yes/no question about the caller's readiness to go on ('Are you with the laptop now and able to
# try a few quick checks?', 'Can you try that now?'): a cooperative caller says yes.
WILLING_Q = re.compile(
    r"^(?:\w+,\s+)?(are you|is now|would you be|can you|could you|do you have (a (minute|moment)|time))\b"
    r".{0,60}\b(able|ready|available|with (the|your|it)|in front of|near|at (the|your)|okay to|free|willing|"
    r"try|do that|give (that|it) a try|a (minute|moment)|time)\b[^?]*\?$",
    re.I,
)
# Nothing but a courtesy word: the tail of a sentence already answered ('Please.', 'Thanks.').
COURTESY = re.compile(
    r"^(please|thanks?|thank you|sure|okay|ok|alright|all right|great|perfect|certainly|of course|got it|"
    r"i see|sorry|i'm sorry|no problem|absolutely)[.!]*$",
    re.I,
)

# The agent reports something done in words too loose for a completion ('That's done.'): not the
# end of a request, but progress enough that the call is not stalled.
PROGRESS = re.compile(r"\b(that|it)(['’]s| is) (done|taken care of)\b", re.I)

# Asked to say again what it just said, or to try again ('Can you try again?', 'Sorry, could you
# repeat that?'): the facts of its last answer, said again; never a bare 'Yes, I can.'.
REPEAT_Q = re.compile(
    r"\b(try (that |it )?again|repeat (that|it|this|those|them)|say (that|it) again|once more|one more time|"
    r"didn'?t (quite )?(catch|get|hear) (that|it|you)|come again|again,? please)\b",
    re.I,
)
# Asked to spell a value ('Can you spell your last name?', 'Could you spell that for me?').
SPELL_Q = re.compile(r"\bspell", re.I)
