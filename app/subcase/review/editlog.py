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

from .storage import data_dir, file_key

EDITLOG_SCHEMA = 2  # 2: action "learned" with "caused_by" (the seq of the human decision)


def log_dir() -> Path:
    return data_dir() / "edit-logs"


def log_path_for(source: Path) -> Path:
    return log_dir() / f"{file_key(source)}.jsonl"


class EditLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Binary append: one write() per batch, no newline translation.
        self._f = open(self.path, "ab", buffering=0)

    def append(self, records: Iterable[dict]) -> None:
        data = b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
                        for r in records)
        if not data:
            return
        self._f.write(data)
        os.fsync(self._f.fileno())

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
