"""Benches of the live half's parts, outside the runtime package: nothing in ``pipelines`` imports this.

``caller_check``: the simulated caller against the scenarios' reference conversations, graded
with the bench's own matcher (``matcher``, ``reference``), in-sample and cross-validated (``folds``,
``cv``), for the goal caller and the LLM caller (``callers``, ``llm_caller``).
"""
