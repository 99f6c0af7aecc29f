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

An output folder of a batch is written differently (``write_in_folder``):
no symbolic link below the folder is ever followed, a name that is taken is
replaced only when the caller says so, and the link itself is what gets
replaced, never the file it points to.

Stray temporaries: a writer holds an exclusive ``flock`` on its temporary
file from creating it until the rename.  Every save sweeps its folder for
``.NAME.XXXXXXXX.tmp`` files of exactly this module's pattern that are older
than ``STALE_AFTER_S`` and that no process holds (``remove_stale_temps``), so
what a kill -9 left behind goes away with the next save, while a concurrent
writer's file, however slow its disk, is left alone.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path
from typing import Callable

from subcase.errors import ReadOnlyError, SubcaseError

try:
    import fcntl
except ImportError:  # Windows: an open file cannot be deleted there, which protects a writer's temporary
    fcntl = None  # type: ignore[assignment]

# Test seam: called with the temporary file's path after it is fully
# written and before the rename, so a test can kill the process there.
BEFORE_REPLACE: Callable[[Path], None] | None = None

TEMP_SUFFIX = ".tmp"
_TOKEN_HEX = 8  # 4 random bytes
# ".NAME.RANDOM.tmp" as temp_name makes it, and nothing else: another program's
# temporaries in the same folder are none of our business.
TEMP_PATTERN = re.compile(r"\..+\.[0-9a-f]{%d}%s" % (_TOKEN_HEX, re.escape(TEMP_SUFFIX)), re.DOTALL)
# A temporary is written, fsynced and renamed within seconds, and a live subcase
# writer holds its lock throughout; the age only guards writers that take no lock
# (an older subcase, a file system without flock) between their last write and
# their rename.
STALE_AFTER_S = 60.0
_DIR_FD = os.open in os.supports_dir_fd and os.scandir in os.supports_fd and os.rename in os.supports_dir_fd


class OutputLinkError(SubcaseError):
    """A symbolic link stands where an output or one of its folders would go in the output folder."""


class OutputExistsError(SubcaseError):
    """The output's name is taken and the caller did not ask to replace it."""


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


class _Temp:
    """A fsynced temporary copy beside its target, locked (``flock``) until ``close``, so that
    ``remove_stale_temps`` in another process never takes it for a leftover."""

    def __init__(self, path: Path, data: bytes, mode: int | None, dir_fd: int | None = None):
        self.path = temp_name(path)
        self.name: Path | str = self.path.name if dir_fd is not None else self.path  # what dir_fd calls take
        self.dir_fd = dir_fd
        self.fd: int | None = os.open(self.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
                                      | getattr(os, "O_NOFOLLOW", 0), 0o666 if mode is None else mode & 0o777,
                                      dir_fd=dir_fd)
        try:
            if fcntl is not None:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            os.fsync(self.fd)
            # O_CREAT's mode passes through the umask; the copy must carry the
            # original's bits exactly.
            if mode is not None:
                os.chmod(self.name, mode, dir_fd=dir_fd)
            if fcntl is None:  # Windows cannot rename a file that is open
                self.close()
        except BaseException:
            self.discard()
            raise

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None

    def discard(self) -> None:
        """Remove the temporary (if it is still there) and let go of it."""
        try:
            os.unlink(self.name, dir_fd=self.dir_fd)
        except OSError:
            pass
        self.close()


def _write_temp(path: Path, data: bytes, mode: int | None) -> _Temp:
    """A fsynced temporary copy of data beside path; ``mode`` None means a
    new file's default (0o666 less the umask), otherwise exactly these bits."""
    return _Temp(path, data, mode)


def _held_by_a_writer(name: str, dir_fd: int | None) -> bool:
    """True when a live process holds the temporary's lock (it is between writing and renaming it)."""
    if fcntl is None:
        return False  # Windows: unlinking a file another process has open fails, which is as good
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return True  # cannot look: leave it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def remove_stale_temps(directory: Path | None = None, dir_fd: int | None = None) -> list[str]:
    """Delete the temporaries in ``directory`` (or the folder open as ``dir_fd``) that a writer
    killed before its rename left behind: only names of ``TEMP_PATTERN``, only regular files, only
    those older than ``STALE_AFTER_S`` that no live process holds.  Returns the names removed;
    never raises (a sweep must not make a save fail)."""
    removed: list[str] = []
    try:
        if dir_fd is None and _DIR_FD and directory is not None:
            fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                return remove_stale_temps(dir_fd=fd)
            finally:
                os.close(fd)
        where: int | Path = dir_fd if dir_fd is not None else Path(directory or ".")
        with os.scandir(where) as entries:
            names = [e.name for e in entries if TEMP_PATTERN.fullmatch(e.name)]
        now = time.time()
        for name in names:
            # by name within the open folder, or by path where there is no dir_fd (Windows)
            at: str = name if dir_fd is not None else os.path.join(where, name)  # type: ignore[arg-type]
            try:
                st = os.stat(at, dir_fd=dir_fd, follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_AFTER_S:
                    continue
                if _held_by_a_writer(at, dir_fd):
                    continue
                os.unlink(at, dir_fd=dir_fd)
                removed.append(name)
            except OSError:
                continue
    except OSError:
        pass
    return removed


def create_exclusive(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write a new file atomically; FileExistsError if path exists, even if
    another process creates it meanwhile (link(2) never replaces)."""
    path = Path(path)
    tmp = _write_temp(path, data, mode)
    try:
        _link_without_replacing(tmp, path.name if tmp.dir_fd is not None else path)
    finally:
        tmp.discard()  # the new name is a hard link (or the rename moved it): the temporary name goes
    _fsync_dir(path.parent)


def _link_without_replacing(tmp: _Temp, target: Path | str) -> None:
    """Give the temporary's file the name ``target`` (in the same folder); FileExistsError if the
    name is taken, even when another process takes it meanwhile (link(2) never replaces)."""
    fd = tmp.dir_fd
    try:
        os.link(tmp.name, target, src_dir_fd=fd, dst_dir_fd=fd)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or _lexists(target, fd):
            raise
        # A file system without hard links (FAT, some network shares):
        # a rename after a check is the best that is left.
        if _lexists(target, fd):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.rename(tmp.name, target, src_dir_fd=fd, dst_dir_fd=fd)


def _lexists(name: Path | str, dir_fd: int | None) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False


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
    remove_stale_temps(path.parent)
    tmp = _write_temp(path, data, mode)
    written_backup = None
    try:
        if backup and path.exists():
            written_backup = write_backup(path)
        if BEFORE_REPLACE is not None:
            BEFORE_REPLACE(tmp.path)
        os.replace(tmp.path, path)
    except BaseException:
        tmp.discard()
        raise
    tmp.close()  # after the rename: until then the lock tells a sweep in another process to keep it
    _fsync_dir(path.parent)
    return written_backup


def _open_subfolder(parent_fd: int, name: str, shown: Path, create: bool) -> int:
    """The folder ``name`` inside the open folder ``parent_fd``, made if missing, never through a link."""
    if create:
        try:
            os.mkdir(name, dir_fd=parent_fd)
        except FileExistsError:
            pass
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(shown):
            raise OutputLinkError("is a symbolic link; subcase never writes through a link in the output folder",
                                  shown) from None
        if exc.errno == errno.ENOTDIR:
            raise SubcaseError("is a file, not a folder; the output cannot go inside it", shown) from None
        raise


def write_in_folder(folder: Path, relative: Path, data: bytes, replace: bool = False) -> Path:
    """Write ``folder/relative`` atomically, making the folders on the way, and return its path.

    Nothing below ``folder`` is followed: a symbolic link where a subfolder
    would be raises ``OutputLinkError``, and one at the output's own name is
    taken for a file that is there (the rename replaces the link itself; the
    file it points to is never written).  A taken name raises
    ``OutputExistsError`` unless ``replace`` -- checked by the final link(2),
    so a file that appears meanwhile is not replaced either.  An existing
    regular file that is replaced keeps its permission bits, and a read-only
    one is refused (``ReadOnlyError``).  ``folder`` itself may be a link: the
    user named it.
    """
    relative = Path(relative)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise ValueError(f"not a path inside the output folder: {relative}")
    if not _DIR_FD:
        return _write_in_folder_by_path(folder, relative, data, replace)
    Path(folder).mkdir(parents=True, exist_ok=True)
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        shown = Path(folder)
        for part in relative.parts[:-1]:
            shown = shown / part
            sub = _open_subfolder(dir_fd, part, shown, create=True)
            os.close(dir_fd)
            dir_fd = sub
        target = Path(folder) / relative
        name = relative.name
        remove_stale_temps(dir_fd=dir_fd)
        mode = _mode_to_keep(target, name, dir_fd, replace)
        tmp = _Temp(target, data, mode, dir_fd=dir_fd)
        if BEFORE_REPLACE is not None:
            try:
                BEFORE_REPLACE(tmp.path)
            except BaseException:
                tmp.discard()
                raise
        _put_in_place(tmp, name, target, replace)
        os.fsync(dir_fd)
        return target
    finally:
        os.close(dir_fd)


def _mode_to_keep(target: Path, name: str, dir_fd: int | None, replace: bool) -> int | None:
    """The permission bits the new file takes: an existing regular file's (when it is replaced),
    else a new file's default.  A read-only file is not replaced."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not replace:
        raise OutputExistsError("exists already (it appeared while the run went on); not replaced", target)
    if stat.S_ISDIR(st.st_mode):
        raise SubcaseError("is a folder; an output cannot replace it", target)
    if not stat.S_ISREG(st.st_mode):
        return None  # a symbolic link (replaced itself, its target untouched) or a special file
    if not (st.st_mode & 0o222):
        raise ReadOnlyError("the file is read-only; it is not replaced", target)
    return st.st_mode & 0o7777


def _write_in_folder_by_path(folder: Path, relative: Path, data: bytes, replace: bool) -> Path:
    """``write_in_folder`` where the OS has no ``dir_fd`` calls (Windows): each folder on the way is
    checked for a link before it is used, and the final rename replaces a link itself there too."""
    here = Path(folder)
    here.mkdir(parents=True, exist_ok=True)
    for part in relative.parts[:-1]:
        here = here / part
        if here.is_symlink():
            raise OutputLinkError("is a symbolic link; subcase never writes through a link in the output folder",
                                  here)
        here.mkdir(exist_ok=True)
    target = here / relative.name
    remove_stale_temps(here)
    mode = _mode_to_keep(target, str(target), None, replace)
    _put_in_place(_write_temp(target, data, mode), target, target, replace)
    return target


def _put_in_place(tmp: _Temp, name: Path | str, target: Path, replace: bool) -> None:
    """Give the fsynced temporary its name (``name``, relative to ``tmp.dir_fd`` when it has one):
    replacing what stands there, or only while the name is still free (``OutputExistsError``
    otherwise, even when another process takes it meanwhile).  The temporary is let go of either way."""
    try:
        if replace:
            os.replace(tmp.name, name, src_dir_fd=tmp.dir_fd, dst_dir_fd=tmp.dir_fd)
        else:
            try:
                _link_without_replacing(tmp, name)
            except FileExistsError:
                raise OutputExistsError("exists already (it appeared while the run went on); not replaced",
                                        target) from None
            tmp.discard()  # the new name holds the file: the temporary name goes
    except BaseException:
        tmp.discard()
        raise
    tmp.close()
