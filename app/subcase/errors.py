"""The one exception type for user mistakes and unusable files.

Anything a user can cause (a wrong path, a file that is not subtitles, an
output that would replace an input, a folder that cannot be written, a model
that is missing) raises a ``SubcaseError`` or one of its subclasses.  Its
message is one line that names the file and says what is wrong, so the CLI
prints it as is and exits with status 1, and the GUI shows it in a dialog;
neither ever shows a traceback for it.  Programming errors stay ordinary
exceptions so that they do show one.
"""

from __future__ import annotations

from pathlib import Path


class SubcaseError(Exception):
    """A user-facing failure: ``path`` (may be None) and ``reason``.

    ``str(exc)`` is ``"PATH: REASON"``, and the CLI prints ``subcase: PATH: REASON``.  A failure
    that concerns a file passes the file as ``path`` and leaves it out of ``reason``; a reason
    that names a file in the middle of its sentence ("the folder X does not exist") keeps it there
    and passes the path it is about, or none.
    """

    def __init__(self, reason: str, path: Path | str | None = None):
        self.reason = reason
        self.path = Path(path) if path is not None else None
        super().__init__(f"{path}: {reason}" if path is not None else reason)


class OutputConflictError(SubcaseError):
    """An output of a run would replace one of its inputs or another of its outputs."""


class SpecialFileError(SubcaseError):
    """A FIFO, device or socket: reading it could block forever, so it is refused unread."""


class ReadOnlyError(SubcaseError):
    """Saving would replace a file that has no write permission; the caller must ask first."""


def describe_oserror(exc: OSError, path: Path | str | None = None) -> str:
    """``PATH: reason`` for an OSError, without Python's ``[Errno N]`` noise."""
    where = exc.filename if exc.filename is not None else path
    reason = exc.strerror or str(exc)
    return f"{where}: {reason}" if where is not None else reason
