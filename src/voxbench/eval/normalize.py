"""voxbench's text normaliser for WER and entity matching: see `voxbench.eval.wer_norm`.

Kept as the stable import point (`normalize_text`, `NORMALIZER_ID`) for the metrics.
"""

from __future__ import annotations

from voxbench.eval.wer_norm import NORMALIZER_ID, normalize_text

__all__ = ["NORMALIZER_ID", "normalize_text"]
