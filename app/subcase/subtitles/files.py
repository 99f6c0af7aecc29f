"""Which paths may be read at all: special files are refused unopened.

Opening a FIFO blocks until someone writes to it, and a device may never end;
neither is a subtitle file.  ``special_kind`` looks with stat (which follows
symlinks and never opens the file), so a link to a FIFO is caught too, and
the editor, ``load`` and batch conversion all refuse such a path before any
read that could block.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from subcase.errors import SpecialFileError


def special_kind(path: Path | str) -> str | None:
    """"a FIFO (named pipe)", "a device", "a socket" for special files; None otherwise."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def check_readable_file(path: Path | str) -> None:
    """SpecialFileError for a FIFO, device or socket; call before opening path."""
    kind = special_kind(path)
    if kind is not None:
        raise SpecialFileError(f"is {kind}, not a regular file; subcase only reads regular files", path)
