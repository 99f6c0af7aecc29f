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

from . import compat, inplace, scc, srt, stl, vtt
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
    reference_timings: Callable[[str], compat.Timings] | None  # None: no parser is run on saving
    # A format that decodes its own bytes (SCC, EBU STL): the file is read one byte per character (latin-1),
    # never guessed or re-encoded, so every byte the format module does not rewrite is written back as read.
    raw: bool = False
    signature: Callable[[bytes], bool] | None = None  # recognises the format's files by their first bytes
    # letters whose case the format cannot change in place (kept, whole word: Document.uncertain)
    fixed_letters: Callable[[Sequence[Cue]], frozenset[str]] | None = None


SRT = Format("srt", ".srt", "SubRip", srt.parse, srt.from_cues, None, "pysrt", compat.pysrt_timings)
# The WebVTT standard requires UTF-8.
VTT = Format("vtt", ".vtt", "WebVTT", vtt.parse, vtt.from_cues, "utf-8", "webvtt-py", compat.webvtt_timings)

# CEA-608 captions; pycaption reads them in the tests (not at run time: it needs lxml and BeautifulSoup).
SCC = Format("scc", ".scc", "Scenarist SCC", scc.parse, scc.from_cues, "latin-1", "", None, raw=True,
             signature=scc.signature, fixed_letters=inplace.kept_letters)

# EBU Tech 3264 subtitles; ttconv reads them in the tests.
STL = Format("stl", ".stl", "EBU STL", stl.parse, stl.from_cues, "latin-1", "", None, raw=True,
             signature=stl.signature, fixed_letters=inplace.kept_letters)

FORMATS: dict[str, Format] = {f.name: f for f in (SRT, VTT, SCC, STL)}
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
    return next((f for f in FORMATS.values() if f.suffix == suffix), None)


def is_subtitle_path(path: Path | str) -> bool:
    return for_path(path) is not None
