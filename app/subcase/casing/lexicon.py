"""The word lists beside a model: the case-mask lexicon and the capitalised-only words.

The case-mask lexicon, the exact form of mixed-case words (Caseiro et al.), is
a JSON object {"iphone": "iPhone", ...}; the words each language writes only
capitalised (casing/capitalised.py) are {"de": ["aachen", ...], ...}, gzipped.
Both are built by the training pipeline from the training data and word lists.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

CAPITALISED_FILE = "capitalised.json.gz"


def load_lexicon(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a case-mask lexicon must be a JSON object")
    return {str(k): str(v) for k, v in data.items() if len(k) == len(v) and v.lower() == k}


def load_capitalised(path: Path) -> dict[str, frozenset[str]]:
    """{language: the lower-case words its word list writes only capitalised} from ``path``."""
    try:
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a gzipped JSON object of word lists: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the capitalised words must be a JSON object")
    return {str(lang): frozenset(str(w) for w in words) for lang, words in data.items()}
