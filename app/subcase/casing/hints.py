"""What is known of each cue besides its tokens: one value that travels with the cues.

The stream casing (casing/stream.py) weighs a cue's words by its lines, the pause before it, the
words its language writes capitalised or in lower case, whether it rolls on from the cue before,
auto mode's passage and whether marks may be restored in it.  Routing (casing/routing.py) cases a
file in runs of cues, one run per model, and each run takes the same facts for its own cues:
``CueHints.slice`` cuts them all at once, so no per-cue list can be cut at another place than the
others, or forgotten.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, AbstractSet, Sequence, TypeVar

if TYPE_CHECKING:
    from .auto import Passage

_T = TypeVar("_T")


@dataclass(frozen=True)
class CueHints:
    """Per-cue facts, each a sequence with one entry per cue, or None when not known (then nothing is weighed)."""

    lines: Sequence[Sequence[int]] | None = None  # lines[c][k]: the line of token k of cue c (caps mode)
    # a silence before cue c, in a file that marks no sentence ends (``pauses.for_unpunctuated``)
    pauses: Sequence[bool] | None = None
    capitalised: Sequence[AbstractSet[str]] | None = None  # the words cue c's language writes only capitalised
    lower_case: Sequence[AbstractSet[str]] | None = None   # ... in lower case wherever no sentence starts
    rolled: Sequence[bool] | None = None      # cue c goes on with the cue before (casing/rolling.py)
    passages: Sequence[Passage] | None = None  # auto mode's decision (casing/auto.py); None: decided from the cues
    restore: Sequence[bool] | None = None     # marks may be added after cue c's words (casing/restoring.py)
    file_start: bool = False  # the first cue opens the file (casing/file_start.py), not a run from its middle
    file_end: bool = False    # the last cue ends the file: a restored passage there ends a sentence

    def slice(self, start: int, stop: int) -> CueHints:
        """The hints of cues ``start`` to ``stop`` (exclusive); the run opens the file only if it starts it,
        and ends it only if it ends it."""
        n = len(next((v for v in (getattr(self, f.name) for f in fields(self)) if isinstance(v, Sequence)), ()))
        cut = {f.name: _cut(getattr(self, f.name), start, stop) for f in fields(self)
               if f.name not in ("file_start", "file_end")}
        return replace(self, **cut, file_start=self.file_start and start == 0,
                       file_end=self.file_end and (stop >= n > 0))


NO_HINTS = CueHints()


def _cut(values: Sequence[_T] | None, start: int, stop: int) -> Sequence[_T] | None:
    return values[start:stop] if values is not None else None


__all__ = ["NO_HINTS", "CueHints"]
