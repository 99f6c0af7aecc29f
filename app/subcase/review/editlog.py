"""The edit log: one JSON Lines record per human decision, never lost.

Every record is written, flushed and fsynced before the action returns, so a
crash (or a power cut) loses at most the decision being made.  Records are
only ever appended.  A reader skips a torn last line.

File naming (documented in the README): ``<data dir>/edit-logs/<key>.jsonl``
where ``<key>`` is ``<subtitle file stem>.<first 12 hex digits of the sha256
of its absolute path>`` (see ``storage.file_key``), one log per opened file,
appended to across sessions; each record names its session.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from subcase.errors import SubcaseError

from .storage import data_dir, file_key

EDITLOG_SCHEMA = 3  # 2: action "learned" with "caused_by" (the seq of the human decision)
# 3: word records carry "context" (neighbours in the cue, sentence start, sound cue or label), for profiles


def log_dir() -> Path:
    return data_dir() / "edit-logs"


def log_path_for(source: Path) -> Path:
    return log_dir() / f"{file_key(source)}.jsonl"


class EditLogError(SubcaseError):
    """The edit log cannot be created or written; ``path`` is the log file.

    Never swallowed: the session rolls back the decision it could not log and
    the editor asks the user what to do (README, "Edit log").
    """


class EditLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Binary append: one write() per batch, no newline translation.
            self._f = open(self.path, "ab", buffering=0)
        except OSError as exc:
            raise EditLogError(f"cannot create the edit log: {exc.strerror or exc}", self.path) from None

    def append(self, records: Iterable[dict]) -> None:
        """Write records and fsync; EditLogError if they are not all on disk.

        On failure the file is cut back to where it was, so a half-written
        record (a full disk accepts part of a write) cannot fuse with the next
        one into an unreadable line.
        """
        data = b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
                        for r in records)
        if not data:
            return
        fd = self._f.fileno()
        try:
            start = os.fstat(fd).st_size
        except OSError as exc:
            raise EditLogError(f"cannot write the edit log: {exc.strerror or exc}", self.path) from None
        try:
            view = memoryview(data)
            while view:  # an unbuffered write may be partial
                n = self._f.write(view)
                if not n:
                    raise OSError(28, os.strerror(28))
                view = view[n:]
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass  # the reader still skips a torn line; the caller is told either way
            raise EditLogError(f"cannot write the edit log: {exc.strerror or exc}", self.path) from None

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()

    def __enter__(self) -> EditLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_records(path: Path) -> list[dict]:
    """All complete records of a log; a torn last line (crash mid-write) is skipped."""
    out = []
    with open(path, "rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out
