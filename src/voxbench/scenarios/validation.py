"""Per-tool parameter validation the way EVA's tools do it (pydantic models, lax mode).

EVA's executor does not check a call against the agent YAML; each tool validates its
own parameters with a pydantic model (types, enums, regex formats, numeric bounds) and
turns the first error into `{status: error, error_type, message}` through the domain's
field -> error-type map. We build the same model per tool from the YAML schema plus the
domain's `ParamRules`, so the agent meets the same coercions (digit strings for ints,
`yes`/`no` for booleans, numbers refused for strings), ignored extra parameters and
error shapes as in EVA.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, create_model

from voxbench.scenarios.agent_spec import ToolParam, ToolSpec
from voxbench.scenarios.domains._common import error

Style = Literal["airline", "itsm", "medical_hr"]


class Rule(BaseModel):
    """What EVA's params model says about one field (beyond the YAML type and enum).

    `error_type` set means the field is in the domain's `FIELD_ERROR_TYPES` map.
    `enum` overrides the YAML enum (EVA's Literal can differ); `nullish` lists strings
    EVA treats as absent; `hint` is ITSM's extra sentence after the message.
    """

    model_config = ConfigDict(frozen=True)

    error_type: str | None = None
    pattern: str | None = None
    item_pattern: str | None = None
    str_or_list: bool = False
    description: str | None = None
    examples: tuple[str, ...] = ()
    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    enum: tuple[Any, ...] | None = None
    no_enum: bool = False
    nullish: tuple[str, ...] = ()
    hint: str | None = None


class ParamRules(BaseModel):
    """A domain's validation conventions: message style, per-field and per-tool rules."""

    style: Style
    fields: dict[str, Rule] = Field(default_factory=dict)
    tools: dict[str, dict[str, Rule]] = Field(default_factory=dict)
    # Cross-field checks (EVA's model validators): tool -> fn(params) -> error text or None.
    cross: dict[str, Callable[[dict[str, Any]], str | None]] = Field(default_factory=dict)

    def rule(self, tool: str, field: str) -> Rule:
        base = self.fields.get(field, Rule())
        over = self.tools.get(tool, {}).get(field)
        if over is None:
            return base
        merged = base.model_dump()
        merged.update(over.model_dump(exclude_unset=True))
        return Rule(**merged)


_PY_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "float": float,
    "number": float,
    "boolean": bool,
    "object": dict[str, Any],
}


def _annotation(p: ToolParam, rule: Rule) -> Any:
    enum = rule.enum if rule.enum is not None else (None if rule.no_enum else p.enum)
    if enum:
        return Literal[tuple(enum)]
    if rule.str_or_list:
        return str | list[str]
    if p.type == "array":
        item = (p.items or {}).get("type")
        if rule.item_pattern is not None:
            return list[Annotated[str, StringConstraints(pattern=rule.item_pattern)]]
        return list[_PY_TYPES.get(item, Any)] if item else list[Any]  # type: ignore[misc]
    return _PY_TYPES.get(p.type, Any)


def _field(rule: Rule, required: bool) -> Any:
    kw: dict[str, Any] = {}
    for name in ("pattern", "ge", "gt", "le", "min_length", "max_length"):
        v = getattr(rule, name)
        if v is not None:
            kw[name] = v
    return Field(... if required else None, **kw)


_MODELS: dict[tuple[int, str], type[BaseModel]] = {}


def _model(spec: ToolSpec, rules: ParamRules) -> type[BaseModel]:
    key = (id(rules), spec.model_dump_json())
    if key not in _MODELS:
        _MODELS[key] = _build_model(spec, rules)
    return _MODELS[key]


def _build_model(spec: ToolSpec, rules: ParamRules) -> type[BaseModel]:
    tool = spec.name
    fields: dict[str, Any] = {}
    for p in spec.required_parameters:
        r = rules.rule(tool, p.name)
        fields[p.name] = (_annotation(p, r), _field(r, True))
    for p in spec.optional_parameters:
        r = rules.rule(tool, p.name)
        fields[p.name] = (Optional[_annotation(p, r)], _field(r, False))  # noqa: UP045
    return create_model(f"{tool}_params", __config__=ConfigDict(extra="ignore"), **fields)


def validate_tool_params(
    spec: ToolSpec, params: dict[str, Any], rules: ParamRules
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """EVA's per-tool validation: cleaned params (absent optionals dropped) or its error."""
    raw = dict(params)
    for name in list(raw):
        nullish = rules.rule(spec.name, name).nullish
        if isinstance(raw[name], str) and raw[name].strip().lower() in nullish:
            raw[name] = None
    model = _model(spec, rules)
    try:
        obj = model.model_validate(raw)
    except ValidationError as exc:
        return {}, _error_response(exc, rules, spec.name, params)
    clean = {k: v for k, v in obj.model_dump().items() if v is not None}
    cross = rules.cross.get(spec.name)
    text = cross(clean) if cross else None
    if text is not None:
        return {}, _unmapped(rules, "parameter", f"Value error, {text}")
    return clean, None


def _error_response(
    exc: ValidationError, rules: ParamRules, tool: str, params: dict[str, Any]
) -> dict[str, Any]:
    errs = exc.errors()
    for e in errs:
        field = str(e["loc"][0]) if e["loc"] else "parameter"
        rule = rules.rule(tool, field)
        if rule.error_type:
            shown = params if e["type"] == "missing" else e["input"]
            msg = f"Invalid {field} '{shown}'"
            if rule.description:
                msg += f": must be {rule.description}"
                if rule.examples:
                    msg += f" (e.g. {', '.join(rule.examples)})"
            else:
                msg += f": {e['msg']}"
            if rules.style == "itsm" and rule.hint:
                msg += f". {rule.hint}"
            return error(rule.error_type, msg)
    e = errs[0]
    field = str(e["loc"][0]) if e["loc"] else "parameter"
    return _unmapped(rules, field, e["msg"], rules.rule(tool, field).hint)


def _unmapped(rules: ParamRules, field: str, msg: str, hint: str | None = None) -> dict[str, Any]:
    if rules.style == "itsm":
        text = f"Invalid '{field}': {msg}"
        if hint:
            text += f". {hint}"
        return error("invalid_parameter", text)
    return error("invalid_parameter", f"Invalid or missing parameter '{field}': {msg}")
