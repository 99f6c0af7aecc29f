"""Where per-user data lives: edit logs and autosave snapshots.

``SUBCASE_DATA_DIR`` overrides the platform default so tests (and portable
installs) never write into the real home directory.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import platformdirs

APP_NAME = "subcase"


def data_dir() -> Path:
    override = os.environ.get("SUBCASE_DATA_DIR")
    base = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return base


def file_key(source: Path) -> str:
    """A stable, readable file name for data about one subtitle file.

    ``<stem>.<first 12 hex digits of sha256(absolute path)>``: the stem keeps it
    findable by eye, the hash keeps two ``film.srt`` in different folders apart.
    """
    resolved = str(Path(source).resolve())
    digest = hashlib.sha256(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    stem = re.sub(r"[^\w.-]+", "_", Path(source).stem)[:60] or "untitled"
    return f"{stem}.{digest}"

