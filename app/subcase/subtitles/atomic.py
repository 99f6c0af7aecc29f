"""Atomic file replacement: the target is always either the old or new file.

The new bytes go to a temporary file in the same directory (so the final
rename never crosses file systems), are flushed and fsynced, and only then
renamed over the target with os.replace, which is atomic on POSIX and
Windows.  The directory is fsynced afterwards so the rename itself survives
a power cut.  A crash at any point leaves at worst a stray ".NAME.*.tmp"
file, which never has the target's name.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Callable

# Test seam: called with the temporary file's path after it is fully
# written and before the rename, so a test can kill the process there.
BEFORE_REPLACE: Callable[[Path], None] | None = None

TEMP_SUFFIX = ".tmp"


def temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def _fsync_dir(directory: Path) -> None:
    if os.name != "posix":  # directories cannot be opened for fsync on Windows
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, backup: Path | None = None) -> None:
    """Replace path's content with data; copy the old file to backup first.

    Raises OSError; the target is untouched if anything fails.
    """
    path = Path(path)
    try:
        mode = path.stat().st_mode & 0o7777  # keep the original's permissions
    except FileNotFoundError:
        mode = 0o666  # os.open applies the umask, like a normal new file
    tmp = temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if backup is not None and path.exists():
            write_atomic(backup, path.read_bytes())
        if BEFORE_REPLACE is not None:
            BEFORE_REPLACE(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)
