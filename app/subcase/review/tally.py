"""The review counts of an open file (words, flagged, to review, accepted, changed, edited), kept cue by cue.

The status bar shows them after every key.  Counted from scratch that is every word of the file on every
key, 300,000 of them in a three-hour rolling caption; a key changes a few cues.  The session tells its
``Tally`` the cues each step (and each undo) changed, and only those are counted again; the rule for one
cue is ``state.count_cue``, the same that ``ReviewState.counts`` adds up.
"""

from __future__ import annotations

from itertools import compress, count
from operator import is_not
from typing import Iterable

from .state import COUNT_NAMES, ReviewState, ReviewWord, count_cue


class Tally:
    """``counts()`` as ``ReviewState.counts`` gives them, with only the cues changed since counted again:
    those ``touch`` names and those whose list of words was replaced (a text edit, a save into another
    format).  A new threshold, or another number of cues, counts every cue again."""

    def __init__(self, state: ReviewState):
        self.state = state
        self._for: tuple[float, float, int] | None = None  # thresholds and cue count the counts are for
        self._lists: list[list[ReviewWord]] = []  # each cue's list of words when it was counted
        self._per_cue: list[tuple[int, ...]] = []
        self._total = [0] * len(COUNT_NAMES)
        self._touched: set[int] = set()
        self.recounted: set[int] | None = None  # the cues the last ``counts`` counted again (None: every cue)

    def touch(self, cues: Iterable[int]) -> None:
        """These cues' words changed (a step or an undo): count them again."""
        self._touched.update(cues)

    def counts(self) -> dict[str, int]:
        state = self.state
        t, mt, n = state.threshold, state.mark_threshold, len(state.cues)
        if self._for != (t, mt, n):
            self._per_cue = [count_cue(words, t, mt) for words in state.cues]
            self._total = [sum(col) for col in zip(*self._per_cue)] if self._per_cue else [0] * len(COUNT_NAMES)
            self.recounted = None
        else:
            stale = {c for c in self._touched if 0 <= c < n}
            if state.cues != self._lists:  # a list of words replaced (item by item, identity first)
                stale.update(compress(count(), map(is_not, state.cues, self._lists)))
            for c in stale:
                new = count_cue(state.cues[c], t, mt)
                for i, (a, b) in enumerate(zip(self._per_cue[c], new)):
                    self._total[i] += b - a
                self._per_cue[c] = new
            self.recounted = stale
        self._for, self._lists, self._touched = (t, mt, n), list(state.cues), set()
        return dict(zip(COUNT_NAMES, self._total))
