"""Pydantic models of an EVA-format scenario (evaluation record).

Field names follow EVA's dataset so its files load as they are. Unknown extra keys are
kept (two ITSM records carry stray decision-tree keys) but every documented field is
type-checked, so a typo in a known field fails loudly instead of half-loading.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from voxbench.spoken.moment import call_date

_DATE_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}( [A-Za-z]+)?$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=False)


class DecisionTree(_Model):
    """How the simulated caller should steer, negotiate and end the call."""

    must_have_criteria: list[str] = Field(default_factory=list)
    nice_to_have_criteria: list[str] = Field(default_factory=list)
    negotiation_behavior: list[str] = Field(default_factory=list)
    resolution_condition: str = ""
    failure_condition: str = ""
    escalation_behavior: str = ""
    edge_cases: list[str] = Field(default_factory=list)


class UserGoal(_Model):
    """What the caller wants, and the facts they may give when asked."""

    high_level_user_goal: str
    decision_tree: DecisionTree
    information_required: dict[str, Any] = Field(default_factory=dict)
    starting_utterance: str | None = None


class UserConfig(_Model):
    """Caller identity and persona (voice choice derives from gender / persona id)."""

    name: str
    gender: Literal["woman", "man"] | str = "woman"
    user_persona_id: int = 1
    user_persona: str = ""


class TraceEvent(_Model):
    """One event of a reference solution: an utterance, a tool call or a tool response."""

    event_type: Literal["user_utterance", "agent_utterance", "tool_call", "tool_response"]
    utterance: str | None = None
    tool_name: str | None = None
    params: dict[str, Any] | None = None
    status: str | None = None
    response: dict[str, Any] | None = None


class ExpectedTrace(_Model):
    """A reference conversation; used by replay conformance and the trace-replay simulator."""

    trace: list[TraceEvent] = Field(default_factory=list)
    conversation_ended: bool | None = None
    end_reason: str | None = None
    total_events: int | None = None
    total_turns: int | None = None


class GroundTruth(_Model):
    """What a correct conversation leaves behind."""

    expected_scenario_db: dict[str, Any]
    expected_trace: ExpectedTrace | None = None


class CultureNames(_Model):
    """Per-language names substituted for placeholders."""

    first_name: str
    last_name: str
    phone: str | None = None
    companion: dict[str, Any] | None = None


class Scenario(_Model):
    """One evaluation record: user goal, persona, context, and expected end state.

    The initial database lives in a separate file; see `voxbench.scenarios.loader`.
    """

    id: str
    current_date_time: str
    user_goal: UserGoal
    user_config: UserConfig
    scenario_context: dict[str, Any] = Field(default_factory=dict)
    ground_truth: GroundTruth
    starting_utterances: dict[str, str] = Field(default_factory=dict)
    culture_overrides: dict[str, CultureNames] = Field(default_factory=dict)
    romanized_culture_overrides: dict[str, CultureNames] = Field(default_factory=dict)
    expected_flow: str | None = None
    seed_data: dict[str, Any] | None = None
    subflow_in_depth: dict[str, Any] | None = None
    agent_override: Any = None
    category: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_str(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) else v

    @field_validator("current_date_time")
    @classmethod
    def _check_date_time(cls, v: str) -> str:
        if not _DATE_TIME_RE.match(v):
            raise ValueError(f"expected 'YYYY-MM-DD HH:MM TZ', got {v!r}")
        return v

    @property
    def current_date(self) -> str:
        """The date part, which tools see as `db['_current_date']`."""
        return call_date(self.current_date_time)

    def starting_utterance(self, lang: str = "en") -> str:
        """The caller's first line in `lang`, falling back to English."""
        if self.user_goal.starting_utterance:
            return self.user_goal.starting_utterance
        return self.starting_utterances.get(lang) or self.starting_utterances.get("en", "")
