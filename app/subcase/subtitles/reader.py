"""Reading files: decode, decide the format, scan, refuse what is not subtitles."""

from __future__ import annotations

import re
from pathlib import Path

from . import formats, ttml
from .document import Cue, Document
from .encoding import decode
from .errors import ParseWarning, SubtitleError
from .files import check_readable_file
from .lines import newline_in

_SIGNATURE_RE = re.compile(r"WEBVTT(?:[ \t\r\n]|$)")


def sniff(text: str, name: str) -> formats.Format:
    """The format by content first (a WEBVTT signature, an XML root element <tt>), then by the name's
    suffix; SRT otherwise."""
    if _SIGNATURE_RE.match(text):
        return formats.VTT
    if ttml.is_ttml(text) or Path(name).suffix.lower() in ttml.SUFFIXES:  # XML that is not TTML: says why
        return formats.TTML
    return formats.for_path(name) or formats.SRT


def loads(data: bytes, name: str = "x.srt", format: str | None = None, encoding: str | None = None) -> Document:
    """A Document from file bytes; SubtitleError if they are not subtitles.
    ``encoding`` overrides the detection of the text encoding (``--encoding``)."""
    if not data:
        raise SubtitleError("the file is empty", name)
    decoded = decode(data, name, encoding or ttml.declared_encoding(data))
    fmt = formats.get(format) if format else sniff(decoded.text, name)
    try:
        segments, warnings = fmt.parse(decoded.text)
    except SubtitleError as exc:
        if exc.path is not None:
            raise
        raise type(exc)(exc.reason, name) from None
    named = formats.for_path(name)
    if format is None and named is not None and named is not fmt:
        warnings.insert(0, ParseWarning(1, f"the file holds {fmt.label} though its name ends in {named.suffix}; "
                                           f"read and kept as {fmt.label}"))
    has_cues = any(isinstance(s, Cue) for s in segments)
    # A WebVTT header or a TTML body with no cues yet is a file, empty.
    if not has_cues and not (fmt is formats.VTT and _SIGNATURE_RE.match(decoded.text)) and fmt is not formats.TTML:
        raise SubtitleError(
            "no subtitle cues found (no 'start --> end' timing line); "
            "this is not an SRT or WebVTT file", name)
    newline = newline_in(decoded.text)
    return Document(fmt.name, decoded.encoding, decoded.bom, newline, segments, warnings,
                    uncertain=decoded.uncertain, encoding_doubt=decoded.doubt, page_guessed=decoded.guessed)


def load(path: Path | str, encoding: str | None = None) -> Document:
    path = Path(path)
    check_readable_file(path)  # a FIFO or device would block the read forever
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SubtitleError(f"cannot read the file: {exc.strerror or exc}", path) from None
    doc = loads(data, str(path), encoding=encoding)
    doc.path = path
    return doc


__all__ = ["load", "loads", "sniff"]
