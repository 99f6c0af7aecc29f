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


def _tp_fp_fn(outcomes: Sequence[WordOutcome], intrinsic: bool) -> tuple[int, int, int]:
    c = counts(outcomes)[1 if intrinsic else 0]
    return c.tp, c.fp, c.fn


def _picks(files: int, resamples: int, seed: int) -> np.ndarray:
    """One row of file indices, drawn with replacement, per resample (seeded: a report is reproducible)."""
    return np.random.default_rng(seed).integers(0, files, size=(resamples, files))


def _central(values: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)


def _resampled_f1(per_file: Sequence[Sequence[WordOutcome]], picks: np.ndarray, intrinsic: bool) -> np.ndarray:
    """F1 of each resample: ``picks`` holds one row of file indices per resample."""
    per_file_counts = np.array([_tp_fp_fn(outcomes, intrinsic) for outcomes in per_file], dtype=np.float64)
    tp, fp, fn = per_file_counts[picks].sum(axis=1).T
    denominator = 2 * tp + fp + fn
    return np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)


def f1_interval(per_file: Sequence[Sequence[WordOutcome]], intrinsic: bool = False, level: float = LEVEL,
                resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of F1 over ``resamples`` resamples of the files; None for fewer
    than two files, where there is nothing to resample."""
    if len(per_file) < 2:
        return None
    return _central(_resampled_f1(per_file, _picks(len(per_file), resamples, seed), intrinsic), level)


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
    return _central(_resampled_f1(files_a, picks, intrinsic) - _resampled_f1(files_b, picks, intrinsic), level)


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float], level: float = LEVEL,
                   resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of sum(numerators) / sum(denominators) over resamples of the files
    (one value of each per file: e.g. the words a simulated editor visited, and the file's words)."""
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators for {len(denominators)} denominators")
    if len(numerators) < 2:
        return None
    picks = _picks(len(numerators), resamples, seed)
    top = np.asarray(numerators, dtype=np.float64)[picks].sum(axis=1)
    bottom = np.asarray(denominators, dtype=np.float64)[picks].sum(axis=1)
    return _central(np.divide(top, bottom, out=np.zeros_like(top), where=bottom > 0), level)
