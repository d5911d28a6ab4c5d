"""LLM judges behind one small protocol; metrics receive them injected."""

from voxbench.eval.judges.base import Judge, JudgeReply, parse_json_list, parse_json_object

__all__ = ["Judge", "JudgeReply", "parse_json_list", "parse_json_object"]
