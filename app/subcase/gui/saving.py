"""Saving: Save and Save As, through the review session.

A mixin for MainWindow.  ``ReviewSession.save`` does the work (the document
core's atomic save, the edit-log record, the hash crash recovery checks);
the window asks for a file name, reports errors and warnings, and marks the
undo stack clean.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from subcase.subtitles import FORMATS, SubtitleError, formats


class SavingMixin:
    """Save (Ctrl+S) and Save As (Ctrl+Shift+S), which may change the format."""

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as_dialog()
        return self.save_to(self.doc.path)

    def save_as_dialog(self) -> bool:
        if self.doc is None:
            return False
        start = str(self.doc.path) if self.doc.path else ""
        filters = {f"{f.label} (*{f.suffix})": f for f in FORMATS.values()}
        current = next(label for label, f in filters.items() if f.name == self.doc.format)
        path, chosen = QFileDialog.getSaveFileName(self, "Save subtitles as", start, ";;".join(filters), current)
        if not path:
            return False
        p = Path(path)
        if not formats.is_subtitle_path(p):
            p = p.with_suffix(filters.get(chosen, formats.get(self.doc.format)).suffix)
        return self.save_to(p)

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Save the review's document to ``path`` (in ``fmt``, or the format its suffix names)."""
        session = self.session
        if session is None:
            return False
        try:
            saved = session.save(path, fmt)
        except SubtitleError as exc:
            self.notify("Cannot save", str(exc), error=True)
            return False
        self.restored_unsaved = False
        self.undo_stack.setClean()
        self.discard_autosave()
        self.settings.add_recent(saved.path)
        self._show_session()
        if saved.warnings:
            self.notify("Saved, but players may misread the file",
                        f"{saved.path}:\n" + "\n".join(saved.warnings), error=True)
        else:
            self.statusBar().showMessage(f"Saved {saved.path}" + self._update_profile(), 5000)
        return True

    def _update_profile(self) -> str:
        """The open file's profile learns from this file's log (review/profile.py, ``updated``)."""
        from subcase.review import profile_store
        from subcase.review.profile import ProfileError, updated

        app = getattr(self, "profile_app", None)
        if app is None or self.session is None or self.session.log is None:
            return ""
        try:
            app.profile = updated(app.profile, self.session.log.path)
            profile_store.save(app.profile)
        except ProfileError as exc:
            return f"; profile not updated: {exc}"
        return f"; profile {app.profile.name} updated ({app.profile.size()} entries)"
