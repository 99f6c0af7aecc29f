"""How far an F1 figure on a few files can be trusted: a bootstrap interval over files.

The dev sets are small (22 English files, 3-18 per other language), and a file
is one talk or one film with its own names and its own house style, so the
words of a file are not independent evidence: "Web" written with a capital
throughout one W3C talk is one convention, not 48 errors.  Resampling *files*
with replacement (not words) and re-scoring each resample gives the spread a
different draw of files of the same kinds would show.  Two checkpoints 1 point
apart inside an interval 8 points wide were not told apart by these files.

F1 is recomputed from the summed counts of each resample (micro-averaged, as
``metrics.score``): F1 = 2 TP / (2 TP + FP + FN).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from subcase.casing.tags import Tag, tag_of

from .metrics import WordOutcome

LEVEL = 0.90
RESAMPLES = 1000


def _counts(outcomes: Sequence[WordOutcome], intrinsic: bool) -> tuple[int, int, int]:
    tp = fp = fn = 0
    for o in outcomes:
        if intrinsic and o.sentence_initial and tag_of(o.ref) is Tag.T:
            continue
        right = o.ref == o.hyp
        ref_cased, hyp_cased = tag_of(o.ref) is not Tag.L, tag_of(o.hyp) is not Tag.L
        tp += right and ref_cased
        fp += not right and hyp_cased
        fn += not right and ref_cased
    return tp, fp, fn


def f1_interval(per_file: Sequence[Sequence[WordOutcome]], intrinsic: bool = False, level: float = LEVEL,
                resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float] | None:
    """The central ``level`` interval of F1 over ``resamples`` resamples of the files (seeded, so a
    report is reproducible); None for fewer than two files, where there is nothing to resample."""
    if len(per_file) < 2:
        return None
    counts = np.array([_counts(outcomes, intrinsic) for outcomes in per_file], dtype=np.float64)
    picks = np.random.default_rng(seed).integers(0, len(per_file), size=(resamples, len(per_file)))
    tp, fp, fn = counts[picks].sum(axis=1).T
    denominator = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)
    tail = (1.0 - level) / 2
    low, high = np.quantile(f1, [tail, 1.0 - tail])
    return float(low), float(high)
