"""Would other players read what we wrote?  A check with pysrt, webvtt-py, pysubs2 and ttconv.

subcase's own scanner keeps what these parsers lose (stray text, blank lines
inside cues, loose timestamps), which is right for the editor, but a file is
written for players.  Many are built on the same simple parsers, so after a
save the written text is read back with pysrt (SRT), webvtt-py (WebVTT), pysubs2 (ASS/SSA) or ttconv (TTML):
if they see a different number of cues or other timings than the document
has, the user is warned that players may misread the file.
"""

from __future__ import annotations

import re
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


# DFXP's draft namespaces say what TTML's says; ttconv reads only the final one.
_TTAF_RE = re.compile(r"http://www\.w3\.org/2006/(?:04|10)/ttaf1")


def ttconv_timings(text: str) -> Timings:
    """The begin and end of every <p> as ttconv reads them (indefinite ends as the parent's, else
    as the begin).  ``text`` is a file subcase wrote, so it was checked for entity declarations."""
    import logging
    import xml.etree.ElementTree as ET
    from fractions import Fraction

    from ttconv import model
    from ttconv.imsc.reader import to_model

    log = logging.getLogger("ttconv")
    level, log.level = log.level, logging.CRITICAL + 1  # its complaints are not the user's business here
    try:
        doc = to_model(ET.ElementTree(ET.fromstring(_TTAF_RE.sub("http://www.w3.org/ns/ttml", text))))
    finally:
        log.setLevel(level)
    if doc is None or doc.get_body() is None:
        raise ValueError("no TTML body")
    out: Timings = []

    def walk(element: model.ContentElement, begin: Fraction, end: Fraction | None) -> None:
        begin += element.get_begin() or 0
        own = element.get_end()
        # ttconv 1.2.3 gives a <body> the end of its children without the body's own begin: not used
        if own is not None and not isinstance(element, model.Body):
            own += begin - (element.get_begin() or 0)
            end = own if end is None else min(end, own)
        if isinstance(element, model.P):
            out.append((round(begin * 1000), round((end if end is not None else begin) * 1000)))
            return
        for child in element:
            walk(child, begin, end)

    walk(doc.get_body(), Fraction(0), None)
    return out


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
