"""Reading files: decode, decide the format, scan, refuse what is not subtitles."""

from __future__ import annotations

import re
from pathlib import Path

from . import srt, vtt
from .encoding import decode
from .errors import SubtitleError
from .model import Cue, Document
from .scan import newline_of, split_lines
from .timecode import TIMING_RE

FORMATS = ("srt", "vtt")
_PARSERS = {"srt": srt.parse, "vtt": vtt.parse}
_SIGNATURE_RE = re.compile(r"WEBVTT(?:[ \t\r\n]|$)")


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise SubtitleError(f"unknown subtitle format {fmt!r}; use 'srt' or 'vtt'")
    return fmt


def sniff(text: str, name: str) -> str:
    """The format by content first (a WEBVTT signature), then by extension."""
    if _SIGNATURE_RE.match(text):
        return "vtt"
    return "vtt" if Path(name).suffix.lower() == ".vtt" else "srt"


def loads(data: bytes, name: str = "x.srt", format: str | None = None) -> Document:
    """A Document from file bytes; SubtitleError if they are not subtitles."""
    if not data:
        raise SubtitleError(f"{name}: the file is empty")
    decoded = decode(data, name)
    fmt = check_format(format) if format else sniff(decoded.text, name)
    segments, warnings = _PARSERS[fmt](decoded.text)
    has_cues = any(isinstance(s, Cue) for s in segments)
    if not has_cues and not (fmt == "vtt" and _SIGNATURE_RE.match(decoded.text)):
        raise SubtitleError(
            f"{name}: no subtitle cues found (no 'start --> end' timing line); "
            "this is not an SRT or WebVTT file")
    newline = newline_of(split_lines(decoded.text))
    return Document(fmt, decoded.encoding, decoded.bom, newline, segments, warnings)


def load(path: Path | str) -> Document:
    from subcase.outputs import check_readable_file

    path = Path(path)
    check_readable_file(path)  # a FIFO or device would block the read forever
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SubtitleError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    doc = loads(data, str(path))
    doc.path = path
    return doc


__all__ = ["load", "loads", "sniff", "check_format", "FORMATS", "TIMING_RE"]
