"""Multi-language text normalisation for WER and entity matching (EVA's rules, our code).

`normalize_text(text, language)` picks the table by the conversation's language: EVA's
tables for en, de, es, fr, fr-CA and hi (data/, MIT, see data/NOTICE.md); other languages
get the basic normaliser, with CJK numerals read as digits for ja, zh and ko.
"""

from voxbench.eval.wer_norm.text import normalize_text, set_cache_size

NORMALIZER_ID = "vb-eva-3"

__all__ = ["NORMALIZER_ID", "normalize_text", "set_cache_size"]
