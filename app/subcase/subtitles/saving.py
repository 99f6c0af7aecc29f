"""Saving a document: render, encode, write atomically, keep a backup, check the result.

The document model only renders text; this module turns that into a file.
A save in another format writes a converted document (``Document.convert``)
and returns it: nothing is ever re-read from the bytes just written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import atomic, compat, formats
from .document import Document
from .encoding import UNICODE_CODECS, encode, normalize
from .errors import SubtitleError


@dataclass
class Saved:
    path: Path
    document: Document   # what was written: the document itself, or its conversion to another format
    warnings: list[str] = field(default_factory=list)  # reasons players may misread the file


def save(doc: Document, path: Path | str | None = None, *, format: str | None = None,
         encoding: str | None = None, backup: bool = True) -> Saved:
    """Write atomically; SubtitleError if the file cannot be written.

    Without ``format``, a path whose suffix names a format picks it, otherwise
    the document's own format is kept.  The first time a save overwrites an
    existing file, its old content is kept as NAME.bak (unless ``backup`` is
    False); later saves leave that backup alone so it still holds the original.
    """
    if path is None and doc.path is None:
        raise SubtitleError("the document has no file name; give a path to save to")
    target = Path(path) if path is not None else doc.path
    assert target is not None
    fmt = formats.get(format) if format else (formats.for_path(target) or formats.get(doc.format))
    written = doc if fmt.name == doc.format else doc.convert(fmt)
    text = written.render()
    codec = encoding or written.encoding
    data = encode(text, codec, written.bom, str(target))
    key = target.resolve()
    bak = None
    if backup and target.exists() and key not in written.backed_up:
        bak = target.with_name(target.name + ".bak")
    try:
        atomic.write_atomic(target, data, bak)
    except OSError as exc:
        raise SubtitleError(f"{target}: cannot save: {exc.strerror or exc}") from None
    if bak is not None:
        written.backed_up.add(key)
    if encoding is not None:
        written.encoding, implied = normalize(encoding)
        if implied is not None:
            written.bom = implied
        elif written.encoding not in UNICODE_CODECS:
            written.bom = False
    written.path = target
    return Saved(target, written, check_readers(written, text, fmt))


def check_readers(doc: Document, text: str, fmt: formats.Format) -> list[str]:
    """Warnings when the format's reference parser reads other cues from ``text`` than ``doc`` has."""
    ours = [(c.start_ms, c.end_ms) for c in doc.cues]
    try:
        theirs = fmt.reference_timings(text)
    except Exception as exc:  # a third-party parser's own failure: the file is written, so only warn
        return [f"{fmt.reference_parser} cannot read this file ({type(exc).__name__}: {exc}); "
                "players built on it may not read it either"]
    problem = compat.mismatch(ours, theirs, fmt.reference_parser)
    return [problem] if problem else []
