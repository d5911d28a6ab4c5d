"""Judge prompts, in voxbench's own words, covering the dimensions and scales of EVA §3.

Each prompt is a template; its hash (`voxbench.eval.types.prompt_hash`) is recorded in
every result it produced, so a changed prompt is visible in the output.
"""

from __future__ import annotations

import json
from typing import Any

TAGS_NOTE = """Bracketed tags in the transcript are timing annotations, never speech:
- [assistant interrupts] / [user interrupts]: at the start of a text, that speaker began while
  the other was still talking; inside a text, roughly where the other speaker cut in.
- [likely cut off by user] (in agent text) / [likely cut off by assistant] (in caller text):
  the speaker stopped while the other talked over them.
- [speaker likely cut itself off]: the speaker stopped on its own (mid-text: it then resumed).
- [likely interruption]: the agent's speech broke off for no visible reason.
- [pause]: the agent paused while a tool call ran.
Words before a cut-off tag (from the start of the text or the previous tag) may not have been
spoken at all; do not count what the speaker could not finish against them."""

FAITHFULNESS = """You audit a customer-service voice agent for faithfulness. You get its role,
its policy, its tools, the date, and the conversation with tool calls and results. The
caller's words come from speech recognition and may contain recognition errors.

Rate each dimension from 1 to 3 (3 = no problem, 2 = minor or ambiguous problem with
little effect on the caller, 1 = a problem with real consequences for the caller):
- fabricating_tool_parameters: tool arguments the caller never gave and the agent never looked up.
- misrepresenting_tool_result: telling the caller something different from what a tool returned.
- violating_policies: acting against the policy (skipping verification, unauthorised changes, ...).
- failing_to_disambiguate: acting on unclear or likely misheard input without confirming it.
- hallucination: stating facts that no tool, policy or caller statement supports.

{tags}

Reply with JSON only:
{{"dimensions": {{"<dimension>": {{"evidence": "...", "flagged": true|false, "rating": 1|2|3}}, ...}}}}
"""

CONCISENESS = """You judge how easy a voice agent's spoken turns are to follow by ear. For every
turn id listed, rate the agent's speech in that turn:
3 = concise, nothing a listener has to struggle with;
2 = one minor problem;
1 = clear overload for a listener;
null = the agent said nothing in that turn.
Problems (name them in failure_modes): verbosity_or_filler, excess_information_density,
over_enumeration_or_list_exhaustion, contextually_disproportionate_detail.
Not problems: spelling out codes letter by letter, reading identifiers back, a closing summary.

{tags}

Reply with a JSON array, one item per turn:
[{{"turn_id": <int>, "explanation": "...", "failure_modes": [...], "rating": 1|2|3|null}}]
"""

PROGRESSION = """You judge whether a voice agent moved the conversation forward efficiently.
Leave policy questions aside (another check covers them); reading back error-prone values
to confirm them is fine. Rate each dimension 1 to 3 (3 = fine, 2 = minor, 1 = serious):
- unnecessary_tool_calls: repeated or pointless tool calls.
- information_loss: asking again for what the caller already gave, forgetting results.
- redundant_statements: saying the same thing again without reason.
- question_quality: vague, badly ordered or needlessly many questions.

{tags}

Reply with JSON only:
{{"dimensions": {{"<dimension>": {{"evidence": "...", "flagged": true|false, "rating": 1|2|3}}, ...}}}}
"""

SPEAKABILITY = """Each block below is text a voice agent sent to speech synthesis. Rate each
turn 1 if it reads naturally aloud, 0 if it contains markdown or visual formatting
(bullets, headers, bold, tables), JSON or code, brackets, emojis, or words run together
without spaces. Reply with a JSON array:
[{{"turn_id": <int>, "explanation": "...", "rating": 0|1}}]
"""

KEY_ENTITIES = """Each item pairs what a caller said (Expected) with what the agent's speech
recognition heard (Transcribed). List the key entities in Expected (names, codes,
numbers, dates, times, amounts, emails, addresses) and say whether each was transcribed
with the same meaning. Mark an entity skipped when the caller's text has tags or
fragments that make it unjudgeable. Reply with a JSON array:
[{{"turn_id": <int>, "entities": [{{"type": "...", "value": "...", "transcribed_value": "...",
"analysis": "...", "correct": true|false, "skipped": true|false}}], "summary": "..."}}]
"""

USER_BEHAVIOR = """You check a simulated caller (not the agent) for corruption that would make
the test conversation invalid. You get the caller's instructions (goal, decision tree,
facts), the conversation, and how it ended. Detect:
extra_modifications (asked for changes outside the goal), premature_ending (hung up before
the goal was settled), missing_information (withheld facts it was given and was asked for),
duplicate_modifications (asked for the same change twice), decision_tree_violation
(accepted/refused against its decision tree), wrong_language.
Rating 1 = clean, 0 = corrupted. Reply with JSON only:
{{"corruptions": {{"<type>": {{"analysis": "...", "detected": true|false}}, ...}}, "rating": 0|1}}
"""

AGENT_SPEECH = """You hear a voice agent's audio and see the conversation with the agent's turns
redacted. For each agent turn, transcribe it, say whether it contains entities from the
conversation (codes, names, numbers, dates, amounts), and rate 1 if every such entity is
clearly and correctly articulated, 0 if any is garbled. Do not judge whether the content
is right. Reply with a JSON array:
[{{"turn_id": <int>, "transcript": "...", "has_entities": true|false, "explanation": "...", "rating": 0|1}}]
"""

TTS_FIDELITY = """You hear a recording of a voice agent's side of a call (the caller is not in it)
and read the text the agent sent to speech synthesis, turn by turn. Check whether the audio says
that text faithfully, word for word, with extra care for entities (codes spelled letter by
letter, identifiers, amounts, times, dates, names).

{tags}
Tags are never spoken. Words in a region a tag marks as possibly unspoken may be missing.

Per turn, rating 1 = every entity right and no meaning-changing missing, added or garbled
words; 0 otherwise. Ignore fillers, prosody, honorific variants (Mr./Mister), number forms
that sound the same, trailing words cut off at the very end of the recording, and text that
drifted into a neighbouring turn. For rating 0, list every failure mode that applies:
entity_error (an entity wrong, missing or garbled), truncation (content missing where no tag
explains it), garbled_hallucination (non-entity words unintelligible), insertion_hallucination
(words the text does not contain), wrong_language (not the expected language). The list is
empty for rating 1. Reply with JSON only:
{{"turns": [{{"turn_id": <int>, "language": "...", "transcript": "...", "explanation": "...",
"rating": 0|1, "failure_modes": [...]}}]}}
"""

USER_SPEECH = """You hear a simulated caller's audio and see the text it intended to say per
turn. Rate each turn: 3 = all words and entities present; 2 = entities right but some
unimportant words missing or stage directions spoken aloud; 1 = an entity wrong or a
major error. Reply with a JSON array:
[{{"turn_id": <int>, "explanation": "...", "rating": 1|2|3}}]
"""


def render(template: str) -> str:
    return template.format(tags=TAGS_NOTE)


def format_trace(trace: list[dict[str, Any]]) -> str:
    """`Turn N:` blocks with user:/assistant:/tool_call:/tool_response: lines."""
    lines: list[str] = []
    cur: int | None = None
    for e in trace:
        t = e.get("turn_id")
        if t != cur:
            lines.append(f"Turn {t}:")
            cur = t
        if e.get("type") == "tool_call":
            lines.append(
                f"  tool_call: {e['tool_name']}({json.dumps(e.get('parameters'), ensure_ascii=False)})"
            )
        elif e.get("type") == "tool_response":
            lines.append(
                f"  tool_response: {e['tool_name']}: {json.dumps(e.get('tool_response'), ensure_ascii=False)}"
            )
        else:
            lines.append(f"  {e['role']}: {e['content']}")
    return "\n".join(lines)


# --- JSON schemas for constrained decoding (llama.cpp / OpenAI `response_format`) ----------
# A grammar makes a tiny model's reply parseable; it does not make the rating right. Short
# string caps keep generation time bounded on CPU. Roots are objects (OpenAI requires it);
# the parsers accept a dict holding the per-turn list.

_EVIDENCE = {"type": "string", "maxLength": 200}


def _dims_schema(dims: tuple[str, ...]) -> dict[str, Any]:
    dim = {
        "type": "object",
        "properties": {
            "evidence": _EVIDENCE,
            "flagged": {"type": "boolean"},
            "rating": {"type": "integer", "enum": [1, 2, 3]},
        },
        "required": ["evidence", "flagged", "rating"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "dimensions": {
                "type": "object",
                "properties": {d: dim for d in dims},
                "required": list(dims),
                "additionalProperties": False,
            }
        },
        "required": ["dimensions"],
        "additionalProperties": False,
    }


def _turns_schema(item_props: dict[str, Any]) -> dict[str, Any]:
    item = {
        "type": "object",
        "properties": {"turn_id": {"type": "integer"}, **item_props},
        "required": ["turn_id", *item_props],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"turns": {"type": "array", "items": item, "minItems": 1}},
        "required": ["turns"],
        "additionalProperties": False,
    }


FAITH_DIMS = (
    "fabricating_tool_parameters",
    "misrepresenting_tool_result",
    "violating_policies",
    "failing_to_disambiguate",
    "hallucination",
)
PROG_DIMS = ("unnecessary_tool_calls", "information_loss", "redundant_statements", "question_quality")
CONCISE_MODES = (
    "verbosity_or_filler",
    "excess_information_density",
    "over_enumeration_or_list_exhaustion",
    "contextually_disproportionate_detail",
)
USER_BEHAVIOR_TYPES = (
    "extra_modifications",
    "premature_ending",
    "missing_information",
    "duplicate_modifications",
    "decision_tree_violation",
    "wrong_language",
)

_SCHEMAS: dict[str, dict[str, Any]] = {
    "FAITHFULNESS": _dims_schema(FAITH_DIMS),
    "PROGRESSION": _dims_schema(PROG_DIMS),
    "CONCISENESS": _turns_schema(
        {
            "explanation": _EVIDENCE,
            "failure_modes": {"type": "array", "items": {"type": "string", "enum": list(CONCISE_MODES)}},
            "rating": {"enum": [1, 2, 3, None]},
        }
    ),
    "SPEAKABILITY": _turns_schema({"explanation": _EVIDENCE, "rating": {"type": "integer", "enum": [0, 1]}}),
    "KEY_ENTITIES": _turns_schema(
        {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "maxLength": 40},
                        "value": {"type": "string", "maxLength": 80},
                        "transcribed_value": {"type": "string", "maxLength": 80},
                        "analysis": {"type": "string", "maxLength": 120},
                        "correct": {"type": "boolean"},
                        "skipped": {"type": "boolean"},
                    },
                    "required": ["type", "value", "transcribed_value", "analysis", "correct", "skipped"],
                    "additionalProperties": False,
                },
            },
            "summary": {"type": "string", "maxLength": 160},
        }
    ),
    "USER_BEHAVIOR": {
        "type": "object",
        "properties": {
            "corruptions": {
                "type": "object",
                "properties": {
                    t: {
                        "type": "object",
                        "properties": {"analysis": _EVIDENCE, "detected": {"type": "boolean"}},
                        "required": ["analysis", "detected"],
                        "additionalProperties": False,
                    }
                    for t in USER_BEHAVIOR_TYPES
                },
                "required": list(USER_BEHAVIOR_TYPES),
                "additionalProperties": False,
            },
            "rating": {"type": "integer", "enum": [0, 1]},
        },
        "required": ["corruptions", "rating"],
        "additionalProperties": False,
    },
}


def response_schema(system: str) -> tuple[str, dict[str, Any]] | None:
    """(name, JSON schema) of the reply a judge prompt asks for, recognised by its rendered
    system text; None for prompts without one (audio judges, foreign prompts)."""
    for name, schema in _SCHEMAS.items():
        template = globals()[name]
        if system in (template, render(template)):
            return name.lower(), schema
    return None
