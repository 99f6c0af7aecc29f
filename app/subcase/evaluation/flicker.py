"""Flicker in rolling captions: repeated lines that read differently after casing.

A rolling layout (YouTube's automatic captions, roll-up captions) shows each line again in the next cue.  A line
of a cue that reads exactly like a line of the cue before in the input (tags left out) must read like it in the
output too, or the viewer sees its casing or its commas change as it scrolls.  ``bench/rolling_repeats.py``
reports the count over files; the tests hold it at 0.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles import Document, markup


def cue_lines(doc: Document) -> list[list[str]]:
    """Each cue's visible lines, stripped, without the blank ones."""
    return [[ln.strip() for ln in markup.plain(cue.text).split("\n") if ln.strip()] for cue in doc.cues]


def count_flicker(before: Sequence[Sequence[str]], after: Sequence[Sequence[str]]) -> tuple[int, int]:
    """(repeated lines, repeated lines that read differently in ``after``), from ``cue_lines`` of a file before and
    after casing.  A line of cue c repeats the first line of cue c-1 that reads the same in ``before``."""
    repeats = differ = 0
    for c in range(1, min(len(before), len(after))):
        prev_in, cur_in, prev_out, cur_out = before[c - 1], before[c], after[c - 1], after[c]
        if len(prev_in) != len(prev_out) or len(cur_in) != len(cur_out):
            continue  # a cue whose lines changed in number is no longer comparable line by line
        first: dict[str, int] = {}
        for j, line in enumerate(prev_in):
            first.setdefault(line, j)
        for i, line in enumerate(cur_in):
            if line in first:
                repeats += 1
                differ += cur_out[i] != prev_out[first[line]]
    return repeats, differ


__all__ = ["count_flicker", "cue_lines"]
