"""Overlapping windows over a stream of tokens that crosses cue boundaries.

The tokens of consecutive cues form one stream.  Windows of at most
``budget`` sub-tokens start every ``step`` sub-tokens (aligned to token
starts), so each token appears in one or more windows; a token takes its
prediction from the window in which it sits most centrally, where it has the
most context on both sides.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Window:
    first: int  # index of the first token in the window
    last: int   # index one past the last token

    def __len__(self) -> int:
        return self.last - self.first


def capped_offsets(lengths: list[int], budget: int) -> list[int]:
    """Where each token starts in sub-tokens (and, last, where the stream ends), a token of more than
    ``budget`` sub-tokens counting as ``budget``."""
    offsets = [0] * (len(lengths) + 1)
    for i, k in enumerate(lengths):
        offsets[i + 1] = offsets[i] + min(k, budget)
    return offsets


def plan_windows(lengths: list[int], budget: int, step: int) -> list[Window]:
    """Cover tokens whose sub-token counts are ``lengths`` with overlapping windows."""
    n = len(lengths)
    if n == 0:
        return []
    offsets = capped_offsets(lengths, budget)
    windows: list[Window] = []
    first = 0
    while True:
        # the most tokens from ``first`` that fit the budget (offsets never decrease), at least one
        last = max(bisect_right(offsets, offsets[first] + budget, first) - 1, first + 1)
        windows.append(Window(first, last))
        if last >= n:
            break
        # next window starts about ``step`` sub-tokens later, but always moves on
        first = bisect_left(offsets, offsets[first] + step, first + 1, last)
    return windows


def assign_tokens(lengths: list[int], windows: list[Window]) -> list[int]:
    """For every token, the index of the window where it is most central."""
    n = len(lengths)
    size = np.asarray(lengths, dtype=np.float64)
    starts = np.concatenate(([0.0], np.cumsum(size)))
    best = np.full(n, -1, dtype=np.int64)
    best_score = np.full(n, np.inf)
    for w_index, w in enumerate(windows):
        sl = slice(w.first, w.last)
        centre = starts[sl] - starts[w.first] + size[sl] / 2
        total = starts[w.last] - starts[w.first]
        score = np.abs(centre - total / 2)
        # a window at either end of the stream has no context to lose on that side
        if w.first == 0:
            score[centre < total / 2] = 0.0
        if w.last == n:
            score[centre > total / 2] = 0.0
        better = score < best_score[sl]
        best_score[sl] = np.where(better, score, best_score[sl])
        best[sl] = np.where(better, w_index, best[sl])
    return best.tolist()
