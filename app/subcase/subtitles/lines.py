"""Lines and line endings: the one definition of a newline in subtitle text.

A file may mix CRLF, CR and LF; every line keeps its own ending so that an
unedited file is written back byte for byte.
"""

from __future__ import annotations

import re
from collections import Counter

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


def newline_of(lines: list[Line]) -> str:
    """The file's usual line ending (the most common one), LF if it has none."""
    counts = Counter(end for _, end in lines if end)
    return counts.most_common(1)[0][0] if counts else "\n"


def normalize_newlines(text: str) -> str:
    """Every CRLF or CR as LF: cue text is held with LF, the file's own endings apart."""
    return "\n".join(NEWLINE_RE.split(text))
