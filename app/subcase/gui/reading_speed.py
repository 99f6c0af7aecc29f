"""Characters per line and reading speed of a cue, as subtitle editors show them (no Qt).

Counted on what a viewer reads: markup (``<i>``, ``{\\an8}``, ``<v Name>``) is
left out, entities count as the one character they show, spaces and
punctuation count, line breaks do not (Netflix's and the BBC's way).
Lines are the cue's lines as in the file, so the numbers sit next to the
lines they measure.  A pathological cue is not scanned: past ``HUGE``
characters its raw length stands in (an upper bound, already far past any
limit), so a 50 MB cue costs nothing to measure.
"""

from __future__ import annotations

from dataclasses import dataclass

from subcase.subtitles.markup import plain

from .cue_layout import MAX_LINES, line_spans

HUGE = 20_000


@dataclass(frozen=True, slots=True)
class CueReading:
    line_chars: tuple[int, ...]   # characters of each shown line
    chars: int                    # characters of the whole cue, line breaks excluded
    cps: float | None             # characters per second; None when the cue has no duration
    exact: bool = True            # False: raw lengths of a huge cue, markup not excluded

    @property
    def cpl(self) -> int:
        return max(self.line_chars, default=0)


def measure(text: str, start_ms: int, end_ms: int, max_lines: int = MAX_LINES, read_from: int = 0) -> CueReading:
    """``read_from``: where the text a viewer reads in this cue starts, for the reading speed (a rolling
    caption's lines shown again were read in the cue before); every line counts for the characters per line."""
    spans, _ = line_spans(text, max_lines)
    if len(text) > HUGE:
        chars = len(text) - text.count("\n")
        line_chars = tuple(b - a for a, b in spans)
        exact = False
    else:
        # "\N" in an ASS-style line is a break too: count the longest part
        line_chars = tuple(max(len(p) for p in plain(text[a:b]).split("\n")) for a, b in spans)
        chars = len(plain(text[read_from:]).replace("\n", ""))
        exact = True
    seconds = (end_ms - start_ms) / 1000
    cps = chars / seconds if seconds > 0 else None
    return CueReading(line_chars, chars, cps, exact)
