"""A cue's stretch of the programme and the cue at a playing position (milliseconds)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Sequence

DEFAULT_LEAD_MS = 300


@dataclass(frozen=True)
class PlaySpan:
    start_ms: int
    end_ms: int
    # The media ends before the cue does (a programme shorter than its subtitles): playing stops at its end.
    clipped: bool = False

    @property
    def empty(self) -> bool:
        return self.end_ms <= self.start_ms


def play_span(start_ms: int, end_ms: int, lead_in_ms: int = DEFAULT_LEAD_MS, lead_out_ms: int = DEFAULT_LEAD_MS,
              duration_ms: int | None = None) -> PlaySpan:
    """Where playing a cue starts and stops: the cue widened by the lead-in and lead-out,
    never before 0 nor past the media's end (``duration_ms``, when known)."""
    start = max(0, start_ms - max(0, lead_in_ms))
    end = max(start, end_ms + max(0, lead_out_ms))
    clipped = False
    if duration_ms is not None and duration_ms > 0:
        clipped = end > duration_ms
        end = min(end, duration_ms)
        start = min(start, end)
    return PlaySpan(start, end, clipped)


def cue_at(starts_ms: Sequence[int], ends_ms: Sequence[int], position_ms: int) -> int | None:
    """The index of the cue shown at ``position_ms``; None between cues.

    Cues are in time order (starts ascending) as a subtitle file keeps them; of
    overlapping cues the one that started last wins, as the viewer would read it."""
    i = bisect.bisect_right(starts_ms, position_ms) - 1
    # overlapping cues: walk back over a few that started earlier but are still on
    for j in range(i, max(-1, i - 8), -1):
        if starts_ms[j] <= position_ms < ends_ms[j]:
            return j
    return None
