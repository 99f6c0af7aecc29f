"""The subtitle formats subcase reads and writes: one registry, one entry per format.

Everything that depends on the format (the file suffixes, how the text is read,
how a file is recognised by its content, how another format's cues are turned
into this one's, what a conversion drops, which reference parser checks a
written file) is looked up here, by the reader, saving, batch conversion, the
CLI's ``--format`` and the GUI's file dialogs and drag-and-drop alike.  A new
format is one module and one ``Format(...)`` in ``FORMATS`` below; every field
after ``from_cues`` has a default.

Conversions go through one common form, SubRip-style cues: text with ``<i>``,
``<b>``, ``<u>`` (and ``<font>``) tags, ``{\\anN}`` positions and real line
breaks, no escapes, no cue settings.  ``common_cues`` turns a format's own cues
into that form (None: they are in it already, as SRT's are), and ``from_cues``
turns cues in that form into a new file of the format.  So each format converts
to and from every other without knowing them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from . import ass, compat, inplace, scc, srt, stl, ttml, vtt
from .document import Cue
from .errors import ParseWarning, SubtitleError

if TYPE_CHECKING:
    from .document import Document

Parser = Callable[[str], tuple[list[str | Cue], list[ParseWarning]]]


@dataclass(frozen=True)
class Format:
    name: str                      # "srt": what Document.format holds and --format takes
    suffixes: tuple[str, ...]      # (".srt",): the first is the one written; all are read
    label: str                     # for file dialogs, menus and the window title
    parse: Parser                  # text -> segments (cues and verbatim text), warnings
    from_cues: Callable[[Sequence[Cue], str], list[str | Cue]]  # SubRip-style cues, newline -> this format's
    encoding: str | None = None    # an encoding the format requires of new files, None to keep the source's
    reference_parser: str = ""     # the third-party parser that checks what we write ("" for none)
    reference_timings: Callable[[str], compat.Timings] | None = None
    # whether decoded text is this format by its content (a signature such as "WEBVTT" or "[Script Info]");
    # the content wins over the file name's suffix
    signature: Callable[[str], bool] | None = None
    # this format's cues as SubRip-style cues (module docstring); None: they are in that form already
    common_cues: Callable[[Sequence[Cue]], list[Cue]] | None = None
    # one line per kind of content a document of this format loses when written as the format named
    losses: Callable[[Document, str], list[str]] | None = None
    # one line per kind of content SubRip-style cues lose when written in this format
    cannot_hold: Callable[[Sequence[Cue]], list[str]] | None = None
    # for decoded text in which the reader found no cues: why it is refused ("no [Events] section"), None to
    # read it as an empty file.  Without it, a file with the signature is empty, any other is refused.
    no_cues: Callable[[str], str | None] | None = None
    # A format that decodes its own bytes (SCC, EBU STL): the file is read one byte per character (latin-1),
    # never guessed or re-encoded, so every byte the format module does not rewrite is written back as read.
    raw: bool = False
    byte_signature: Callable[[bytes], bool] | None = None  # a raw format's files by their first bytes
    # letters whose case the format cannot change in place (kept, whole word: Document.uncertain)
    fixed_letters: Callable[[Sequence[Cue]], frozenset[str]] | None = None
    # captions written in capitals by convention (broadcast SCC, STL): auto mode recases them as caps mode
    all_caps: bool = False

    @property
    def suffix(self) -> str:
        """The suffix a file written in this format gets."""
        return self.suffixes[0]

    def common(self, cues: Sequence[Cue]) -> list[Cue]:
        """This format's cues as SubRip-style cues (module docstring)."""
        return self.common_cues(cues) if self.common_cues is not None else list(cues)

    def convert_cues(self, source: str, cues: Sequence[Cue], newline: str) -> list[str | Cue]:
        """A new file of this format (its segments) holding the cues of a file in the format named ``source``."""
        return self.from_cues(get(source).common(cues), newline)

    def dialog_filter(self) -> str:
        """``SubRip (*.srt)``: this format in a file dialog's filter list."""
        return f"{self.label} ({' '.join('*' + s for s in self.suffixes)})"


SRT = Format("srt", (".srt",), "SubRip", srt.parse, srt.from_cues, reference_parser="pysrt",
             reference_timings=compat.pysrt_timings)
# The WebVTT standard requires UTF-8.
VTT = Format("vtt", (".vtt",), "WebVTT", vtt.parse, vtt.from_cues, encoding="utf-8", reference_parser="webvtt-py",
             reference_timings=compat.webvtt_timings, signature=vtt.has_signature, common_cues=vtt.common_cues)
ASS = Format("ass", (".ass", ".ssa"), "ASS/SSA", ass.parse, ass.from_cues,
             reference_parser="pysubs2", reference_timings=compat.pysubs2_timings, signature=ass.has_signature,
             common_cues=ass.common_cues, losses=ass.losses, cannot_hold=ass.cannot_hold, no_cues=ass.no_cues)

# TTML, DFXP, IMSC1 and EBU-TT-D: new files are written in UTF-8, as their XML declaration says.
# ".xml" files whose root element is <tt> are read as TTML too (see for_path).
TTML = Format("ttml", (".ttml", ".dfxp"), "TTML", ttml.parse, ttml.from_cues, encoding="utf-8",
              reference_parser="ttconv", reference_timings=compat.ttconv_timings, signature=ttml.is_ttml,
              common_cues=ttml.common_cues, losses=ttml.losses)
# CEA-608 captions; pycaption reads them in the tests (not at run time: it needs lxml and BeautifulSoup).
SCC = Format("scc", (".scc",), "Scenarist SCC", scc.parse, scc.from_cues, encoding="latin-1", raw=True,
             byte_signature=scc.signature, fixed_letters=inplace.kept_letters, all_caps=True)
# EBU Tech 3264 subtitles; ttconv reads them in the tests.
STL = Format("stl", (".stl",), "EBU STL", stl.parse, stl.from_cues, encoding="latin-1", raw=True,
             byte_signature=stl.signature, fixed_letters=inplace.kept_letters, all_caps=True)

FORMATS: dict[str, Format] = {f.name: f for f in (SRT, VTT, ASS, TTML, SCC, STL)}
NAMES: tuple[str, ...] = tuple(FORMATS)
SUFFIXES: tuple[str, ...] = tuple(s for f in FORMATS.values() for s in f.suffixes)


def get(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise SubtitleError(f"unknown subtitle format {name!r}; use {', '.join(map(repr, NAMES))}") from None


def for_path(path: Path | str) -> Format | None:
    """The format a file name's suffix stands for (any letter case), None if none does."""
    suffix = Path(path).suffix.lower()
    if suffix == ".xml" and ttml.is_ttml_file(path):  # a generic suffix: the root element says
        return TTML
    return next((f for f in FORMATS.values() if suffix in f.suffixes), None)


def by_content(text: str) -> Format | None:
    """The format whose signature the decoded text carries, None if none does."""
    return next((f for f in FORMATS.values() if f.signature is not None and f.signature(text)), None)


def is_subtitle_path(path: Path | str) -> bool:
    return for_path(path) is not None


def suffix_list() -> str:
    """".srt, .vtt, .ass, ... or .stl": the suffixes read, for messages."""
    *rest, last = SUFFIXES
    return f"{', '.join(rest)} or {last}" if rest else last
