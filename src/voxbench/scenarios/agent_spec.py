"""Agent configuration: domain policy text and tool schemas (EVA's `<domain>_agent.yaml`).

The YAML is the tool spec: it feeds the LLM's function-calling schemas, the judges, and
the executor's generic parameter validation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from voxbench.scenarios.errors import ScenarioError

ParamType = Literal["string", "integer", "float", "number", "boolean", "array", "object"]
_JSON_TYPES = {"float": "number", "int": "integer", "str": "string", "bool": "boolean"}


class ToolParam(BaseModel):
    """One tool parameter as declared in the agent YAML."""

    model_config = ConfigDict(extra="allow")

    name: str
    type: ParamType
    description: str = ""
    enum: list[Any] | None = None
    items: dict[str, Any] | None = None

    def json_schema(self) -> dict[str, Any]:
        """This parameter as a JSON-schema property."""
        schema: dict[str, Any] = {"type": _JSON_TYPES.get(self.type, self.type)}
        if self.description:
            schema["description"] = self.description.strip()
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        if self.type == "array":
            items = dict(self.items or {"type": "string"})
            if "type" in items:
                items["type"] = _JSON_TYPES.get(items["type"], items["type"])
            schema["items"] = items
        return schema


class ToolSpec(BaseModel):
    """One tool: name, description, type (auth/read/write/system) and parameters."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    description: str = ""
    tool_type: Literal["auth", "read", "write", "system"] = "read"
    domain: str | None = None
    required_parameters: list[ToolParam] = Field(default_factory=list)
    optional_parameters: list[ToolParam] = Field(default_factory=list)

    @property
    def params(self) -> dict[str, ToolParam]:
        return {p.name: p for p in [*self.required_parameters, *self.optional_parameters]}

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema (`{"type": "function", "function": {...}}`)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description.strip(),
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.json_schema() for p in self.params.values()},
                    "required": [p.name for p in self.required_parameters],
                    "additionalProperties": False,
                },
            },
        }


class AgentSpec(BaseModel):
    """A domain agent: who it is, its policy, and its tools."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    description: str = ""
    role: str = ""
    instructions: str = ""
    tools: list[ToolSpec]

    @property
    def domain(self) -> str:
        return self.id.removeprefix("agent_")

    def tool(self, name: str) -> ToolSpec | None:
        return next((t for t in self.tools if t.name == name), None)

    def tool_names(self) -> list[str]:
        return [t.name for t in self.tools]

    def openai_tools(self) -> list[dict[str, Any]]:
        return [t.openai_schema() for t in self.tools]

    def system_prompt(self, current_date_time: str | None = None) -> str:
        """The policy as agent instructions: role, policy text and today's date."""
        parts = [self.role.strip(), self.instructions.strip()]
        if current_date_time:
            parts.append(f"The current date and time is {current_date_time}.")
        return "\n\n".join(p for p in parts if p)


def load_agent_spec(path: str | Path) -> AgentSpec:
    """Load an agent YAML, with a located error when it is malformed."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(str(path), f"cannot read agent config: {exc}") from exc
    if not isinstance(data, dict):
        raise ScenarioError(str(path), "agent config must be a mapping")
    try:
        return AgentSpec.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError.from_validation(str(path), data.get("id"), exc) from exc
