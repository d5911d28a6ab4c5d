"""A labelled validation set for the validation gate (issue 36).

Generated, seeded, from any EVA-format dataset's reference conversations: per scenario a
clean record, records with one injected caller fault of each kind and records with one
injected agent fault of each kind, each labelled with who is at fault. `measure` scores
them with the gate's validators (recall per caller-fault kind, precision, false-invalid
rates on clean and on agent-fault records). See docs/judges.md, "The validation gate".
"""

from voxbench.eval.gateset.build import GateLabel, generate, read_labels
from voxbench.eval.gateset.faults import FAULTS

__all__ = ["FAULTS", "GateLabel", "generate", "read_labels"]
