"""Reading files: decode, decide the format, scan, refuse what is not subtitles."""

from __future__ import annotations

from pathlib import Path

from . import formats, ttml
from .document import Cue, Document
from .encoding import EncodingGuess, decode
from .errors import ParseWarning, SubtitleError
from .files import check_readable_file
from .lines import newline_in

def sniff(text: str, name: str) -> formats.Format:
    """The format by content first (a signature: WEBVTT, [Script Info], an XML root element <tt>), then by
    the name's suffix; SRT otherwise.  XML that is not TTML goes to the TTML reader, which says why."""
    if Path(name).suffix.lower() == ".xml" and not formats.by_content(text):
        return formats.TTML
    return formats.by_content(text) or formats.for_path(name) or formats.SRT


def loads(data: bytes, name: str = "x.srt", format: str | None = None, encoding: str | None = None) -> Document:
    """A Document from file bytes; SubtitleError if they are not subtitles.
    ``encoding`` overrides the detection of the text encoding (``--encoding``)."""
    if not data:
        raise SubtitleError("the file is empty", name)
    raw = formats.get(format) if format else sniff_bytes(data, name)
    if raw is not None and raw.raw:
        return _loads_raw(data, name, raw, format is not None, encoding)
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
        warnings.insert(0, ParseWarning(1, f"the file holds {fmt.label} though its name ends in {Path(name).suffix}; "
                                           f"read and kept as {fmt.label}"))
    if not any(isinstance(s, Cue) for s in segments):
        # a file with its format's signature and no cues is an empty file of that format (a WebVTT header
        # alone), unless the format's ``no_cues`` says what is missing (ASS without [Events])
        if fmt.no_cues is not None:
            reason = fmt.no_cues(decoded.text)
        elif fmt.signature is not None and fmt.signature(decoded.text):
            reason = None
        else:
            reason = "no subtitle cues found (no 'start --> end' timing line); this is not an SRT or WebVTT file"
        if reason is not None:
            raise SubtitleError(reason, name)
    newline = newline_in(decoded.text)
    return Document(fmt.name, decoded.encoding, decoded.bom, newline, segments, warnings, guess=decoded.guess)


def sniff_bytes(data: bytes, name: str) -> formats.Format | None:
    """A format that reads its own bytes, by its signature first, then by the name's suffix; else None."""
    for fmt in formats.FORMATS.values():
        if fmt.byte_signature is not None and fmt.byte_signature(data):
            return fmt
    named = formats.for_path(name)
    return named if named is not None and named.raw else None


def _loads_raw(data: bytes, name: str, fmt: formats.Format, given: bool, encoding: str | None) -> Document:
    """A file of a format that decodes its own bytes (SCC, EBU STL): one character per byte, kept as read."""
    if encoding is not None:
        raise SubtitleError(f"--encoding does not apply to {fmt.label} files: the format names its own "
                            "character set", name)
    text = data.decode("latin-1")  # one character per byte, so every byte renders back as read
    try:
        segments, warnings = fmt.parse(text)
    except SubtitleError as exc:
        raise SubtitleError(exc.reason, name) from None
    named = formats.for_path(name)
    if not given and named is not None and named is not fmt:
        warnings.insert(0, ParseWarning(1, f"the file holds {fmt.label} though its name ends in {named.suffix}; "
                                           f"read and kept as {fmt.label}"))
    cues = [s for s in segments if isinstance(s, Cue)]
    if not cues:
        raise SubtitleError(f"no captions found in this {fmt.label} file", name)
    fixed = fmt.fixed_letters(cues) if fmt.fixed_letters is not None else frozenset()
    if fixed:
        warnings.append(ParseWarning(1, f"{fmt.label} cannot write the other case of {''.join(sorted(fixed))} "
                                        "in place; words holding them keep their case"))
    return Document(fmt.name, "latin-1", False, newline_in(text), segments, warnings, guess=EncodingGuess(uncertain=fixed))


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
