"""Autosave: a snapshot of the unsaved review shortly after each change, dropped once it is saved.

The session builds the snapshot; a
background writer (``review.autosave.AutosaveWriter``) puts it on disk, so
the GUI thread never waits for the disk.  Restoring a snapshot after a crash
is ``recovery``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QStatusBar

from subcase.media import MediaRef
from subcase.review import autosave

from .open_review import OpenReview

AUTOSAVE_DELAY_MS = 1500


class Autosaving:
    """The delay timer and the writer: ``schedule`` after a change, ``save_now``, ``discard``, ``close``."""

    def __init__(self, review: OpenReview, status_bar: QStatusBar, media_ref: Callable[[], MediaRef | None]):
        self.review = review
        self.status_bar = status_bar
        self.media_ref = media_ref  # the media file beside the review goes into the snapshot, to reopen with it
        self.timer = QTimer(review)
        self.timer.setSingleShot(True)
        self.timer.setInterval(AUTOSAVE_DELAY_MS)
        self.timer.timeout.connect(self.save_now)
        self.writer = autosave.AutosaveWriter()
        review.undo_stack.cleanChanged.connect(self.on_clean_changed)
        review.undo_stack.indexChanged.connect(lambda _i: self.schedule())  # an edit, an undo or a redo
        review.closed.connect(self.timer.stop)

    def schedule(self) -> None:
        """A change: snapshot once the user pauses (the timer restarts on each change)."""
        self.timer.start()

    def on_clean_changed(self, clean: bool) -> None:
        if clean and not self.review.restored_unsaved:
            self.discard()

    def save_now(self, wait: bool = False) -> Path | None:
        """Snapshot the unsaved review; the writing happens on a background thread."""
        s = self.review.session
        if s is None or not self.review.is_modified():
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
        session = self.review.session
        if session is not None:
            self.writer.discard(session.source)

    def close(self) -> None:
        self.writer.close()
