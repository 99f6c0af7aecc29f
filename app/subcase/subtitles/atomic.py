"""Atomic file replacement: the target is always either the old or new file.

The new bytes go to a temporary file in the same directory (so the final
rename never crosses file systems), are flushed and fsynced, and only then
renamed over the target with os.replace, which is atomic on POSIX and
Windows.  The directory is fsynced afterwards so the rename itself survives
a power cut.  A crash at any point leaves at worst a stray ".NAME.*.tmp"
file, which never has the target's name.

What "the target" is, and what may be replaced (docs/guide/saving.md):

- A symbolic link is written through: the real file gets the new bytes and
  the link stays a link (the rename happens in the real file's folder).
- The real file's permission bits are kept.
- A file without write permission is not replaced unless the caller says
  so (``allow_read_only``): ``ReadOnlyError`` lets the editor ask first.
- A backup is created, never replaced: ``backup_path`` picks the first free
  name of NAME.bak, NAME.bak.2, NAME.bak.3, ... and the copy is linked into
  place with a call that fails if the name exists, so even a race cannot
  overwrite a backup (or a user's own NAME.bak).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import Callable

from subcase.errors import ReadOnlyError

# Test seam: called with the temporary file's path after it is fully
# written and before the rename, so a test can kill the process there.
BEFORE_REPLACE: Callable[[Path], None] | None = None

TEMP_SUFFIX = ".tmp"
_TOKEN_HEX = 8  # 4 random bytes


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def temp_name(path: Path) -> Path:
    """``.NAME.RANDOM.tmp`` beside path, with NAME cut short enough that the
    temporary name is never longer than the longest name the folder allows
    (so any name the file system accepts can be saved atomically)."""
    token = secrets.token_hex(_TOKEN_HEX // 2)
    budget = _name_max(path.parent) - len(f"..{token}{TEMP_SUFFIX}".encode())
    raw = os.fsencode(path.name)[:max(budget, 1)]
    # Cutting bytes may split a UTF-8 character: surrogateescape keeps the
    # half as raw bytes, which the file system takes as they are.
    short = os.fsdecode(raw)
    return path.with_name(f".{short}.{token}{TEMP_SUFFIX}")


def real_target(path: Path) -> Path:
    """The file a write to path should change: symlinks followed, so saving
    ``link.srt -> real.srt`` updates real.srt and leaves the link a link."""
    path = Path(path)
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def is_read_only(path: Path) -> bool:
    """True when path exists and its permissions do not let us write it.

    The permission bits are checked as well as access(2): root may write any
    file, but a file whose owner removed every write bit was protected on
    purpose and is treated as read-only for everyone.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    return not (st.st_mode & 0o222) or not os.access(path, os.W_OK)


def backup_path(path: Path) -> Path:
    """The first name among NAME.bak, NAME.bak.2, NAME.bak.3, ... that does not exist."""
    first = path.with_name(path.name + ".bak")
    if not os.path.lexists(first):
        return first
    n = 2
    while os.path.lexists(candidate := path.with_name(f"{path.name}.bak.{n}")):
        n += 1
    return candidate


def _fsync_dir(directory: Path) -> None:
    if os.name != "posix":  # directories cannot be opened for fsync on Windows
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, mode: int | None) -> Path:
    """A fsynced temporary copy of data beside path; ``mode`` None means a
    new file's default (0o666 less the umask), otherwise exactly these bits."""
    tmp = temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o666 if mode is None else mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # O_CREAT's mode passes through the umask; the copy must carry the
        # original's bits exactly.
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    return tmp


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def create_exclusive(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write a new file atomically; FileExistsError if path exists, even if
    another process creates it meanwhile (link(2) never replaces)."""
    path = Path(path)
    tmp = _write_temp(path, data, mode)
    try:
        try:
            os.link(tmp, path)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or os.path.lexists(path):
                raise
            # A file system without hard links (FAT, some network shares):
            # a rename after a check is the best that is left.
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
            os.rename(tmp, path)
            tmp = None  # type: ignore[assignment]
    finally:
        if tmp is not None:
            _unlink_quietly(tmp)
    _fsync_dir(path.parent)


def write_backup(path: Path) -> Path:
    """Copy path's current bytes to a fresh backup name; returns the backup."""
    data = Path(path).read_bytes()
    mode = os.stat(path).st_mode & 0o7777
    while True:
        bak = backup_path(path)
        try:
            create_exclusive(bak, data, mode)
            return bak
        except FileExistsError:
            continue  # someone took that name since we looked: take the next


def write_atomic(path: Path, data: bytes, backup: bool | Path | None = None,
                 allow_read_only: bool = False) -> Path | None:
    """Replace path's content with data; returns the backup written, if any.

    ``backup`` true (or, as before, a path: only whether it is given counts)
    keeps the old bytes in a new ``NAME.bak[.N]`` first.  Raises OSError, or
    ReadOnlyError for a read-only target unless ``allow_read_only``; the
    target is untouched if anything fails.
    """
    path = real_target(Path(path))
    if not allow_read_only and is_read_only(path):
        raise ReadOnlyError("the file is read-only; saving would replace it", path)
    try:
        mode: int | None = path.stat().st_mode & 0o7777  # keep the original's permissions
    except FileNotFoundError:
        mode = None  # a normal new file: 0o666 less the umask
    tmp = _write_temp(path, data, mode)
    written_backup = None
    try:
        if backup and path.exists():
            written_backup = write_backup(path)
        if BEFORE_REPLACE is not None:
            BEFORE_REPLACE(tmp)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(path.parent)
    return written_backup
