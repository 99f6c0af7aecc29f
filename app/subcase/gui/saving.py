"""Saving: Save and Save As, through the review session.

A mixin for MainWindow.  ``ReviewSession.save`` does the work (the document
core's atomic save, the edit-log record, the hash crash recovery checks);
the window asks for a file name, reports errors and warnings, and marks the
undo stack clean.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.errors import ReadOnlyError, SubcaseError
from subcase.subtitles import FORMATS, format_for, formats
from subcase.subtitles.losses import conversion_losses


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
        target_format = format_for(session.doc, Path(path), fmt).name
        losses = conversion_losses(session.doc, target_format)
        try:
            try:
                saved = session.save(path, fmt, log=False)
            except ReadOnlyError as exc:
                # The core never replaces a read-only file on its own; the user decides.
                answer = self.ask("Read-only file",
                                  f"{exc.path} is read-only.\n\nSave over it anyway? "
                                  "It stays read-only afterwards.",
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
                if answer != QMessageBox.StandardButton.Yes:
                    self.statusBar().showMessage(f"Not saved: {exc.path} is read-only", 8000)
                    return False
                saved = session.save(path, fmt, allow_read_only=True, log=False)
        except (SubcaseError, UnicodeError) as exc:
            self.notify("Cannot save", str(exc), error=True)
            return False
        # The file is written; its record in the edit log must be too (or the user says otherwise).
        self.edit_log.run_logged(lambda: session.log_saved(saved), can_cancel=False)
        self.restored_unsaved = False
        self.undo_stack.setClean()
        self.discard_autosave()
        self.settings.add_recent(saved.path)
        self._show_session()
        profile_note = self._update_profile()  # whatever the warnings, the profile learns from the save
        if saved.warnings:
            self.notify("Saved, but players may misread the file",
                        f"{saved.path}:\n" + "\n".join(saved.warnings), error=True)
        elif losses:
            self.notify("Saved with losses", f"Saved {saved.path}{profile_note}, but:\n" + "\n".join(losses))
        else:
            self.statusBar().showMessage(f"Saved {saved.path}" + profile_note, 5000)
        return True

    def _update_profile(self) -> str:
        """The open file's profile learns from this file's log (review/profile_build.py, ``updated``)."""
        from subcase.review import profile_store
        from subcase.review.profile import ProfileError
        from subcase.review.profile_build import updated

        app = getattr(self, "profile_app", None)
        if app is None or self.session is None or self.session.log is None:
            return ""
        try:
            app.profile = updated(app.profile, self.session.log.path)
            profile_store.save(app.profile)
        except ProfileError as exc:
            return f"; profile not updated: {exc}"
        return f"; profile {app.profile.name} updated ({app.profile.size()} entries)"
