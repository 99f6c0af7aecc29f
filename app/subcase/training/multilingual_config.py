"""What the multilingual model is, for its training and its card: the languages it cases, the held-out
documents per language, and its window budget in sub-tokens (the English model's)."""

from __future__ import annotations

LANGS = ("es", "fr", "de", "pt")
VAL_DOCS = 150
BUDGET = 62
