"""Temperature scaling: the one definition, used at run time and when the model is exported.

The model's softmax is overconfident; dividing its log-probabilities by a
temperature fitted on held-out data (stored in model.json) makes a word's
probability mean what it says.
"""

from __future__ import annotations

import numpy as np


def apply_temperature(probs: np.ndarray, temperature: float) -> np.ndarray:
    """Temperature-scaled probabilities, rows summing to 1 (float64)."""
    p = probs.astype(np.float64)
    if temperature != 1.0:
        logp = np.log(np.clip(p, 1e-12, 1.0)) / temperature
        logp -= logp.max(axis=1, keepdims=True)
        p = np.exp(logp)
    return p / p.sum(axis=1, keepdims=True)
