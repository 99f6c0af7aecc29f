"""The subtitle formats subcase reads and writes: one registry, one entry per format.

Everything that depends on the format (the file suffix, the scanner rules,
how another format's cues are turned into this one's, which reference parser
checks a written file) is looked up here, by the reader, saving, batch
conversion and the GUI alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from . import compat, srt, ttml, vtt
from .document import Cue
from .errors import ParseWarning, SubtitleError

Parser = Callable[[str], tuple[list[str | Cue], list[ParseWarning]]]


@dataclass(frozen=True)
class Format:
    name: str                      # "srt": what Document.format holds and --format takes
    suffix: str                    # ".srt"
    label: str                     # for file dialogs and menus
    parse: Parser                  # text -> segments (cues and verbatim text), warnings
    from_cues: Callable[[Sequence[Cue], str], list[str | Cue]]  # another format's cues -> this format's
    encoding: str | None           # an encoding the format requires of new files, None to keep the source's
    reference_parser: str          # the third-party parser that checks what we write
    reference_timings: Callable[[str], compat.Timings]


SRT = Format("srt", ".srt", "SubRip", srt.parse, srt.from_cues, None, "pysrt", compat.pysrt_timings)
# The WebVTT standard requires UTF-8.
VTT = Format("vtt", ".vtt", "WebVTT", vtt.parse, vtt.from_cues, "utf-8", "webvtt-py", compat.webvtt_timings)

# TTML, DFXP, IMSC1 and EBU-TT-D: new files are written in UTF-8, as their XML declaration says.
# ".dfxp" files, and ".xml" files whose root element is <tt>, are read as TTML too (see for_path).
TTML = Format("ttml", ".ttml", "TTML", ttml.parse, ttml.from_cues, "utf-8", "ttconv", compat.ttconv_timings)

FORMATS: dict[str, Format] = {f.name: f for f in (SRT, VTT, TTML)}
NAMES: tuple[str, ...] = tuple(FORMATS)
SUFFIXES: tuple[str, ...] = tuple(f.suffix for f in FORMATS.values())


def get(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise SubtitleError(f"unknown subtitle format {name!r}; use {' or '.join(map(repr, NAMES))}") from None


def for_path(path: Path | str) -> Format | None:
    """The format a file name's suffix stands for (any letter case), None if none does."""
    suffix = Path(path).suffix.lower()
    if suffix == ".dfxp" or (suffix == ".xml" and ttml.is_ttml_file(path)):
        return TTML
    return next((f for f in FORMATS.values() if f.suffix == suffix), None)


def is_subtitle_path(path: Path | str) -> bool:
    return for_path(path) is not None
