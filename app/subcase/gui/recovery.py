"""Autosave and crash recovery: snapshots of an unsaved review, offered back after a crash.

A mixin for MainWindow.  The session builds the snapshot; a background
writer (``review.autosave.AutosaveWriter``) puts it on disk.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from subcase.review import ReviewSession, autosave, log_path_for
from subcase.subtitles import SubtitleError


class RecoveryMixin:
    """Autosave after each change, discard on save or close, restore after a crash."""

    def _on_clean_changed(self, clean: bool) -> None:
        self._set_title()
        if clean and not self.restored_unsaved:
            self.discard_autosave()

    def autosave_now(self, wait: bool = False) -> Path | None:
        """Snapshot the unsaved review; the writing happens on a background thread."""
        s = self.session
        if s is None or not self.is_modified():
            return None
        data = s.snapshot()
        if getattr(self, "media_ref", None) is not None:  # the media file beside the review, to reopen with it
            data["media"] = self.media_ref.as_dict()
        self.autosaver.submit(data)
        if wait:
            self.autosaver.flush()
            if self.autosaver.last_error:
                self.statusBar().showMessage(f"Autosave failed: {self.autosaver.last_error}", 8000)
        return autosave.snapshot_path_for(s.source)

    def discard_autosave(self) -> None:
        self.autosave_timer.stop()
        if self.session is not None:
            self.autosaver.discard(self.session.source)

    def check_recovery(self) -> bool:
        """Offer to restore a review the app lost in a crash; True if one was restored."""
        for rec in autosave.find_recoverable():
            answer = self.ask("Restore unsaved review",
                              f"subcase closed unexpectedly while you were reviewing\n{rec.source}\n"
                              f"(autosaved {rec.time}).\n\nRestore that review?",
                              QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
            if answer != QMessageBox.Yes:
                rec.path.unlink(missing_ok=True)
                continue
            try:
                self.restore_snapshot(rec.data)
            except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
                self.notify("Cannot restore", f"{rec.source}: {exc}", error=True)
                continue
            return True
        return False

    def restore_snapshot(self, data: dict) -> None:
        doc, state = autosave.restore(data)
        go_on, log = self.open_edit_log(Path(data["log"]) if data.get("log")
                                        else log_path_for(Path(data["source"])))
        if not go_on:
            raise autosave.RestoreError("restoring was cancelled: the edit log could not be opened")
        self._close_session()
        self.session = ReviewSession(doc, state, Path(data["source"]), model_version=data["model_version"],
                                     model_sha256=data["model_sha256"], mode=data["mode"], log=log,
                                     base_sha256=data["base_sha256"])
        self._attach_learner()
        if self.session.learner is not None:  # go on learning from the decisions already made
            self.session.learner.learn_from_reviewed(doc, state)
        self.session.listeners.append(self._on_session_changed)
        self.restored_unsaved = True
        self._set_spin(state.threshold)
        self._show_session()
        self._update_actions()
        if state.current is not None:
            self.goto(state.current)
        self.autosave_now()  # the snapshot now belongs to this process
        from subcase.media import MediaRef
        self.open_media(remembered=MediaRef.from_dict(data.get("media")) or self.settings.media_for(self.session.source))
        self.statusBar().showMessage("Restored the unsaved review", 8000)
