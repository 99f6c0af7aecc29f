"""Text for a terminal: file names and file contents are untrusted.

A file name may hold escape sequences (ESC [ 2 J clears the screen, OSC 52
writes the clipboard, others retitle the window or fake earlier output).
Everything the CLI prints that came from outside goes through ``safe``,
which shows control characters as visible escapes instead of sending them.
"""

from __future__ import annotations

import re

# C0 controls except tab, DEL, C1 controls, and the bidi overrides/isolates that
# can make a name read backwards (U+202A-202E, U+2066-2069).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def safe(text: object) -> str:
    """str(text) with control characters shown as \\xNN / \\uNNNN.

    Undecodable bytes of a file name (surrogate escapes) are shown as \\xNN too,
    so printing never raises UnicodeEncodeError.
    """
    s = _CONTROL_RE.sub(_escape, str(text))
    if any("\udc80" <= ch <= "\udcff" for ch in s):
        s = "".join(f"\\x{ord(ch) - 0xdc00:02x}" if "\udc80" <= ch <= "\udcff" else ch for ch in s)
    return s
