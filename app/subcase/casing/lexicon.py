"""The case-mask lexicon: the exact form of mixed-case words (Caseiro et al.).

Stored as a JSON object {"iphone": "iPhone", ...} next to the model.  Built by
the training pipeline from the training data and word lists.
"""

from __future__ import annotations

import json
from pathlib import Path


def load_lexicon(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a case-mask lexicon must be a JSON object")
    return {str(k): str(v) for k, v in data.items() if len(k) == len(v) and v.lower() == k}
