"""Lines and line endings: the one definition of a newline in subtitle text.

A file may mix CRLF, CR and LF; every line keeps its own ending so that an
unedited file is written back byte for byte.
"""

from __future__ import annotations

import re

NEWLINE_RE = re.compile(r"\r\n|\r|\n")
Line = tuple[str, str]  # content, line ending ("" for an unterminated last line)


def split_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    pos = 0
    for m in NEWLINE_RE.finditer(text):
        lines.append((text[pos:m.start()], m.group()))
        pos = m.end()
    if pos < len(text):
        lines.append((text[pos:], ""))
    return lines


def newline_in(text: str) -> str:
    """The file's usual line ending: the most common one, a tie going to the one seen first; LF if it has
    none.  Counted with ``str.count``: splitting a film into lines for this alone cost a fifth of reading it."""
    crlf = text.count("\r\n")
    counts = {"\r\n": crlf, "\r": text.count("\r") - crlf, "\n": text.count("\n") - crlf}
    most = max(counts.values())
    if most == 0:
        return "\n"
    tied = [end for end, k in counts.items() if k == most]
    if len(tied) == 1:
        return tied[0]
    return next(m.group() for m in NEWLINE_RE.finditer(text) if m.group() in tied)


def normalize_newlines(text: str) -> str:
    """Every CRLF or CR as LF: cue text is held with LF, the file's own endings apart."""
    return "\n".join(NEWLINE_RE.split(text))
