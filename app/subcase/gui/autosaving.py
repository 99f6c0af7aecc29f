"""Autosave: a snapshot of the unsaved review shortly after each change, dropped once it is saved.

``Autosaving`` is owned by MainWindow.  The session builds the snapshot; a
background writer (``review.autosave.AutosaveWriter``) puts it on disk, so
the GUI thread never waits for the disk.  Restoring a snapshot after a crash
is ``recovery``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QStatusBar

from subcase.media import MediaRef
from subcase.review import ReviewSession, autosave

AUTOSAVE_DELAY_MS = 1500


class AutosaveWindow(Protocol):
    """What autosaving reads of the window: the open review, whether it is modified, its title."""

    @property
    def session(self) -> ReviewSession | None: ...

    @property
    def restored_unsaved(self) -> bool: ...

    def is_modified(self) -> bool: ...

    def _set_title(self) -> None: ...


class Autosaving:
    """The delay timer and the writer: ``schedule`` after a change, ``save_now``, ``discard``, ``close``."""

    def __init__(self, window: AutosaveWindow, parent: QObject, status_bar: QStatusBar,
                 media_ref: Callable[[], MediaRef | None]):
        self.window = window
        self.status_bar = status_bar
        self.media_ref = media_ref  # the media file beside the review goes into the snapshot, to reopen with it
        self.timer = QTimer(parent)
        self.timer.setSingleShot(True)
        self.timer.setInterval(AUTOSAVE_DELAY_MS)
        self.timer.timeout.connect(self.save_now)
        self.writer = autosave.AutosaveWriter()

    def schedule(self) -> None:
        """A change: snapshot once the user pauses (the timer restarts on each change)."""
        self.timer.start()

    def on_clean_changed(self, clean: bool) -> None:
        self.window._set_title()
        if clean and not self.window.restored_unsaved:
            self.discard()

    def save_now(self, wait: bool = False) -> Path | None:
        """Snapshot the unsaved review; the writing happens on a background thread."""
        s = self.window.session
        if s is None or not self.window.is_modified():
            return None
        data = s.snapshot()
        media = self.media_ref()
        if media is not None:
            data["media"] = media.as_dict()
        self.writer.submit(data)
        if wait:
            self.writer.flush()
            if self.writer.last_error:
                self.status_bar.showMessage(f"Autosave failed: {self.writer.last_error}", 8000)
        return autosave.snapshot_path_for(s.source)

    def discard(self) -> None:
        self.timer.stop()
        session = self.window.session
        if session is not None:
            self.writer.discard(session.source)

    def close(self) -> None:
        self.writer.close()
