"""Temperature scaling: the one definition, used at run time and when the model is exported.

The model's softmax is overconfident; dividing its log-probabilities by a
temperature fitted on held-out data (stored in model.json) makes a word's
probability mean what it says.  The tags' temperature is fitted when the model is
exported (training/export.py), the marks' by ``subcase.evaluation.mark_calibration``
(model.json ``punctuation.temperature``), both with ``fit_temperature``.
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


def fit_temperature(probs: np.ndarray, gold: np.ndarray) -> float:
    """Temperature that minimises held-out negative log-likelihood (grid search)."""
    best_t, best_nll = 1.0, float("inf")
    rows = np.arange(len(gold))
    for t in np.arange(0.5, 3.01, 0.05):
        nll = -np.log(np.clip(apply_temperature(probs, float(t))[rows, gold], 1e-300, 1.0)).mean()
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return round(best_t, 2)
