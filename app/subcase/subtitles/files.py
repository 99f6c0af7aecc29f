"""Which paths may be read at all: special files are refused unopened, files over the size limit unread.

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

from subcase.errors import SpecialFileError, SubcaseError

# The largest file read by default, in MB (10^6 bytes): a three-hour live stream in YouTube's rolling word-level
# layout is 7.5 MB.  Casing costs time and memory linear in a file's words, and the model's outputs are held a
# chunk at a time, so a file costs about 1 kB a word besides the model (a three-hour stream: 520 MB rolling,
# 330 MB plain).  The densest shape measured, one-letter words on one line, takes 1.2 GB per MB, so the worst
# file under the limit stays near 12 GB, within 24 GB (docs/research/2026-11-29-long-files-memory.md).  Before
# the hidden states were streamed it was 8.6 GB per MB, and the limit 1 MB.
MAX_SIZE_MB = 10.0
GB_PER_MB_WORST = 1.2  # peak memory per MB of the densest shape measured (one-letter words), for warnings


class FileTooLargeError(SubcaseError):
    """A file over the size limit: refused unread, before any work on it starts."""


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


def check_size(path: Path | str, max_mb: float | None = MAX_SIZE_MB) -> None:
    """FileTooLargeError when ``path`` is over ``max_mb`` megabytes (None or 0: no limit); looks with stat,
    so a refused file is never read."""
    if not max_mb:
        return
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # the read that follows says what is wrong with the path
    if size > max_mb * 1e6:
        raise FileTooLargeError(f"is {size:,} bytes, over the limit of {max_mb:g} MB; nothing was read "
                                f"(--max-size MB raises the limit)", path)
