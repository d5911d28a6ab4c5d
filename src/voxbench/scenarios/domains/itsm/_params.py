"""EVA's ITSM parameter models: formats, bounds and the field -> error-type map.

Patterns are matched on the raw input (EVA does not normalise). The descriptions are
ours: EVA's exact description strings are not in the reference.
"""

from __future__ import annotations

from voxbench.scenarios.validation import ParamRules, Rule

NULLISH = ("", ".", "none", "null", "n/a", "na")

PARAM_RULES = ParamRules(
    style="itsm",
    fields={
        # EVA accepts 30/60/90 as int or string; 0, "" and null-like strings mean permanent.
        "duration_days": Rule(
            error_type="invalid_duration",
            enum=("30", "60", "90", 30, 60, 90, 0, "0"),
            nullish=NULLISH,
            hint="Omit duration_days for a permanent license",
        ),
    },
)
