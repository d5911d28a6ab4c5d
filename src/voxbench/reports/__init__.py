"""Reports people look at: a static HTML report with a conversation viewer, and summaries.

Reads run folders (records plus the metrics eval wrote) and nothing live: imports only
`voxbench.records`, `voxbench.scenarios`, `voxbench.eval`, the standard library and numpy.
"""

from voxbench.reports.build import Report, build_report, load_runs
from voxbench.reports.model import Conversation, MetricView, RunData, load_run

__all__ = ["Conversation", "MetricView", "Report", "RunData", "build_report", "load_run", "load_runs"]
