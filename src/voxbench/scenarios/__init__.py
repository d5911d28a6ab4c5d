"""Scenarios, user goals, domain databases and the deterministic tool executor.

This package imports nothing else of the project and never imports pipecat, so a
scenario can be loaded, validated and replayed anywhere.
"""

from voxbench.scenarios.agent_spec import AgentSpec, ToolParam, ToolSpec, load_agent_spec
from voxbench.scenarios.errors import ScenarioError
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.hashing import db_diff, db_hash, normalize_for_comparison, session_auth_mismatches
from voxbench.scenarios.loader import Dataset, load_dataset
from voxbench.scenarios.models import (
    DecisionTree,
    ExpectedTrace,
    GroundTruth,
    Scenario,
    TraceEvent,
    UserConfig,
    UserGoal,
)
from voxbench.scenarios.task_completion import TaskCompletion, check_task_completion

__all__ = [
    "AgentSpec",
    "Dataset",
    "DecisionTree",
    "ExpectedTrace",
    "GroundTruth",
    "Scenario",
    "ScenarioError",
    "TaskCompletion",
    "ToolExecutor",
    "ToolParam",
    "ToolSpec",
    "TraceEvent",
    "UserConfig",
    "UserGoal",
    "check_task_completion",
    "db_diff",
    "db_hash",
    "load_agent_spec",
    "load_dataset",
    "normalize_for_comparison",
    "session_auth_mismatches",
]
