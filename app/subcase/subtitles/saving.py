"""Saving a document: render, encode, write atomically, keep a backup, check the result.

The document model only renders text; this module turns that into a file.
A save in another format writes a converted document (``Document.convert``)
and returns it: nothing is ever re-read from the bytes just written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import atomic, compat, formats
from .document import Document
from .encoding import UNICODE_CODECS, encode, normalize
from .errors import SubtitleError


@dataclass
class Saved:
    path: Path
    document: Document   # what was written: the document itself, or its conversion to another format
    warnings: list[str] = field(default_factory=list)  # reasons players may misread the file
    backup: Path | None = None  # the backup this save made, if any
    # the check of ``warnings`` still to run, when the caller asked to run it itself (``save(check_now=False)``)
    unchecked: ReaderCheck | None = None


@dataclass(frozen=True)
class ReaderCheck:
    """Whether the format's reference parser reads the cues the written text has (``warnings``): what the
    check reads, taken when the file was written, so it can run later on another thread.  Reading a
    three-hour WebVTT file back with webvtt-py is nine tenths of its save (7 s at 150,000 words): the
    editor runs it in the background."""

    timings: list[tuple[int, int]]  # the document's cues' (start, end)
    text: str                       # as written
    fmt: formats.Format

    def run(self) -> list[str]:
        """Warnings when the format's reference parser reads other cues from the text than the document has."""
        fmt = self.fmt
        if fmt.reference_timings is None:
            return []
        try:
            theirs = fmt.reference_timings(self.text)
        except Exception as exc:  # a third-party parser's own failure: the file is written, so only warn
            return [f"{fmt.reference_parser} cannot read this file ({type(exc).__name__}: {exc}); "
                    "players built on it may not read it either"]
        problem = compat.mismatch(self.timings, theirs, fmt.reference_parser)
        return [problem] if problem else []


# Puts the bytes of a save on disk in place of ``atomic.write_atomic`` (which writes through links and
# keeps a backup); a batch passes one that never follows a link in its output folder.
Writer = Callable[[Path, bytes], None]


def save(doc: Document, path: Path | str | None = None, *, format: str | None = None,
         encoding: str | None = None, backup: bool = True, allow_read_only: bool = False,
         writer: Writer | None = None, check_now: bool = True) -> Saved:
    """Write atomically; SubtitleError if the file cannot be written.

    ``writer(path, data)``, when given, does the writing instead (no backup is made then).  With
    ``check_now`` False the reference parser's check is not run: ``Saved.unchecked`` is, for the caller.

    Without ``format``, the format is ``format_for``'s.  The first time this document is saved
    over an existing file, its old content is kept in a new backup, NAME.bak
    (or NAME.bak.2, .3, ... when that name is taken: a backup is never
    overwritten), unless ``backup`` is False; later saves of the same document
    add none.  A symlink is written through to its real file; a read-only file
    raises ReadOnlyError unless ``allow_read_only`` (see atomic.py).
    """
    if path is None and doc.path is None:
        raise SubtitleError("the document has no file name; give a path to save to")
    target = Path(path) if path is not None else doc.path
    assert target is not None
    fmt = format_for(doc, target, format)
    if fmt.raw and encoding is not None:
        raise SubtitleError(f"--encoding does not apply to {fmt.label} files: the format names its own "
                            "character set", target)
    try:
        written = doc if fmt.name == doc.format else doc.convert(fmt)
        if written is not doc and formats.get(doc.format).raw and not fmt.raw and fmt.encoding is None:
            written.encoding = "utf-8"  # latin-1 is how a raw format holds its bytes, not a text encoding
        text = written.render()
    except SubtitleError as exc:  # a format that cannot write an edit says which; the file is named here
        if exc.path is not None:
            raise
        raise SubtitleError(exc.reason, target) from None
    codec = encoding or written.encoding
    data = encode(text, codec, written.bom, str(target))
    key = target.resolve()
    want_backup = backup and target.exists() and key not in written.backed_up
    try:
        if writer is not None:
            writer(target, data)
            bak = None
        else:
            bak = atomic.write_atomic(target, data, want_backup, allow_read_only=allow_read_only)
    except OSError as exc:
        raise SubtitleError(f"cannot save: {exc.strerror or exc}", target) from None
    if bak is not None:
        written.backed_up.add(key)
    if encoding is not None:
        written.encoding, implied = normalize(encoding)
        if implied is not None:
            written.bom = implied
        elif written.encoding not in UNICODE_CODECS:
            written.bom = False
    written.path = target
    check = ReaderCheck([(c.start_ms, c.end_ms) for c in written.cues], text, fmt)
    if not check_now:
        return Saved(target, written, [], bak, check)
    return Saved(target, written, check.run(), bak)


def format_for(doc: Document, target: Path, format: str | None = None) -> formats.Format:
    """The format a save of ``doc`` to ``target`` writes: ``format`` if given; the document's own when
    ``target`` is the file it was read from (a WebVTT file named .srt is saved as what it holds, not
    converted by its name); otherwise the one ``target``'s suffix names, or the document's own."""
    if format:
        return formats.get(format)
    if doc.path is not None and doc.path.resolve() == target.resolve():  # as save() keys its backups
        return formats.get(doc.format)
    return formats.for_path(target) or formats.get(doc.format)


def check_readers(doc: Document, text: str, fmt: formats.Format) -> list[str]:
    """Warnings when the format's reference parser reads other cues from ``text`` than ``doc`` has."""
    return ReaderCheck([(c.start_ms, c.end_ms) for c in doc.cues], text, fmt).run()
