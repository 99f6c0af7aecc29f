"""Would other players read what we wrote?  A check with pysrt, webvtt-py and pysubs2.

subcase's own scanner keeps what these parsers lose (stray text, blank lines
inside cues, loose timestamps), which is right for the editor, but a file is
written for players.  Many are built on the same simple parsers, so after a
save the written text is read back with pysrt (SRT), webvtt-py (WebVTT) or pysubs2 (ASS/SSA):
if they see a different number of cues or other timings than the document
has, the user is warned that players may misread the file.
"""

from __future__ import annotations

from typing import Sequence

Timings = list[tuple[int, int]]  # (start ms, end ms) of each cue, in order


def pysrt_timings(text: str) -> Timings:
    import pysrt

    # ERROR_PASS: pysrt skips, silently, an item it cannot parse; the count tells us.
    subs = pysrt.from_string(text, error_handling=pysrt.SubRipFile.ERROR_PASS)
    return [(item.start.ordinal, item.end.ordinal) for item in subs]


def webvtt_timings(text: str) -> Timings:
    import webvtt
    from webvtt.errors import MalformedFileError

    try:
        captions = webvtt.from_string(text)
    except MalformedFileError:
        return []
    return [(_ms(c.start), _ms(c.end)) for c in captions.captions]


def pysubs2_timings(text: str) -> Timings:
    import warnings

    import pysubs2

    with warnings.catch_warnings():  # pysubs2 warns of fields it reads as defaults (SSA's "Marked=0" layer)
        warnings.simplefilter("ignore")
        subs = pysubs2.SSAFile.from_string(text, format_="ass")
    return [(event.start, event.end) for event in subs.events if event.type == "Dialogue"]


def _ms(stamp: str) -> int:
    h, m, s = stamp.split(":")
    return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)


def mismatch(ours: Sequence[tuple[int, int]], theirs: Timings, parser: str) -> str | None:
    """A one-line reason when a reference parser reads other cues than we wrote, else None."""
    if len(theirs) != len(ours):
        return (f"{parser} reads {len(theirs)} cue(s) where the file has {len(ours)}; "
                "players built on it may misread this file")
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return (f"{parser} reads cue {k + 1} at {b[0]}-{b[1]} ms where the file has {a[0]}-{a[1]} ms; "
                    "players built on it may misread this file")
    return None
