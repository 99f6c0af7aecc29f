"""How far an F1 figure on a few files can be trusted: a bootstrap interval over files.

The dev sets are small (22 English files, 3-18 per other language), and a file
is one talk or one film with its own names and its own house style, so the
words of a file are not independent evidence: "Web" written with a capital
throughout one W3C talk is one convention, not 48 errors.  Resampling *files*
with replacement (not words) and re-scoring each resample gives the spread a
different draw of files of the same kinds would show, as on files kept apart.
It is not a test between two models scored on the same files: that question is
paired (``f1_difference_interval``: both models' F1 on the same resample), and
its answer is narrower, since a hard file is hard for both.

F1 is recomputed from the summed counts of each resample (micro-averaged, as
``metrics.score``, whose counts these are): F1 = 2 TP / (2 TP + FP + FN).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .metrics import WordOutcome, counts

LEVEL = 0.90
RESAMPLES = 1000


def _f1_parts(per_file: Sequence[Sequence[WordOutcome]], intrinsic: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per file, the numerator and denominator of F1 = 2 TP / (2 TP + FP + FN): summed over a resample,
    they give that resample's F1, so F1 is a ratio of sums like any other."""
    rows = [counts(outcomes)[1 if intrinsic else 0] for outcomes in per_file]
    top = np.array([2 * c.tp for c in rows], dtype=np.float64)
    return top, top + np.array([c.fp + c.fn for c in rows], dtype=np.float64)


def _picks(files: int, resamples: int, seed: int) -> np.ndarray:
    """One row of file indices, drawn with replacement, per resample (seeded: a report is reproducible)."""
    return np.random.default_rng(seed).integers(0, files, size=(resamples, files))


def _resampled_ratio(top: np.ndarray, bottom: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """sum(top) / sum(bottom) over the files of each resample (0 where the bottom sums to 0)."""
    tops, bottoms = top[picks].sum(axis=1), bottom[picks].sum(axis=1)
    return np.divide(tops, bottoms, out=np.zeros_like(tops), where=bottoms > 0)


def _central(values: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)


def f1_interval(per_file: Sequence[Sequence[WordOutcome]], intrinsic: bool = False, level: float = LEVEL,
                resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of F1 over ``resamples`` resamples of the files; None for fewer
    than two files, where there is nothing to resample."""
    if len(per_file) < 2:
        return None
    return _central(_resampled_ratio(*_f1_parts(per_file, intrinsic), _picks(len(per_file), resamples, seed)), level)


def f1_difference_interval(files_a: Sequence[Sequence[WordOutcome]], files_b: Sequence[Sequence[WordOutcome]],
                           intrinsic: bool = False, level: float = LEVEL, resamples: int = RESAMPLES,
                           seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of F1(a) - F1(b), two systems' outcomes on the same files in the same
    order, both scored on each resample of the files; None for fewer than two files."""
    if len(files_a) != len(files_b):
        raise ValueError(f"the two systems were scored on {len(files_a)} and {len(files_b)} files")
    if len(files_a) < 2:
        return None
    picks = _picks(len(files_a), resamples, seed)  # the same resamples for both: a paired comparison
    return _central(_resampled_ratio(*_f1_parts(files_a, intrinsic), picks)
                    - _resampled_ratio(*_f1_parts(files_b, intrinsic), picks), level)


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float], level: float = LEVEL,
                   resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of sum(numerators) / sum(denominators) over resamples of the files
    (one value of each per file: e.g. the words a simulated editor visited, and the file's words)."""
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators for {len(denominators)} denominators")
    if len(numerators) < 2:
        return None
    return _central(_resampled_ratio(np.asarray(numerators, dtype=np.float64), np.asarray(denominators, dtype=np.float64),
                                     _picks(len(numerators), resamples, seed)), level)
