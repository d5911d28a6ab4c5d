"""The one seed derivation of voxbench: conversation, attempt and perturbation seeds.

A seed is SHA-256 of a length-prefixed encoding of its parts, so ("a", 1, "bc") and
("ab", 1, "c") differ, Python's salted ``hash()`` is never involved, and the same parts
give the same 63-bit seed on every machine, in every process and after a resume. The
first part names what the seed is for (a namespace), so a conversation seed never equals
a perturbation seed by construction.
"""

from __future__ import annotations

import hashlib

CONVERSATION = "voxbench.conversation.v1"
ATTEMPT = "voxbench.attempt.v1"
PERTURBATION = "voxbench.perturbations.v1"


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from printable parts (ints and strings; bools are not expected)."""
    blob = b"".join(len(b := str(p).encode()).to_bytes(4, "big") + b for p in parts)
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def conversation_seed(run_seed: int, domain: str, scenario_id: str, trial: int, condition: str) -> int:
    """The seed of one planned conversation (attempt 0 uses it as is)."""
    return derive_seed(CONVERSATION, int(run_seed), domain, scenario_id, int(trial), condition)


def attempt_seed(conversation: int, attempt: int) -> int:
    """Attempt 0 keeps the conversation seed; a regeneration must differ or it repeats the failure."""
    return conversation if attempt == 0 else derive_seed(ATTEMPT, int(conversation), int(attempt))


def perturbation_seed(scenario_id: str, trial: int, condition: str, attempt_seed: int | None = None) -> int:
    """A condition's noise/loss seed: from (scenario, trial, condition), so every agent under
    test meets the same perturbation; a regeneration mixes in its attempt seed so it does not
    replay the same noise."""
    base = derive_seed(PERTURBATION, scenario_id, int(trial), condition)
    return base if attempt_seed is None else derive_seed(PERTURBATION, base, int(attempt_seed))
