"""Saving: Save and Save As, through the review session.

``Saving`` is owned by MainWindow.  ``ReviewSession.save`` does the work
(the document core's atomic save, the edit-log record, the hash crash
recovery checks); the controller asks for a file name, reports errors and
warnings, and marks the undo stack clean.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar, QWidget

from subcase.errors import ReadOnlyError, SubcaseError
from subcase.review import ReviewSession
from subcase.subtitles import FORMATS, format_for, formats
from subcase.subtitles.losses import conversion_losses

from .autosaving import Autosaving
from .edit_log_recovery import EditLogRecovery
from .settings import Settings

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication


class SavingWindow(Protocol):
    """What saving reads and changes on the window: the open review and how it is shown."""

    @property
    def session(self) -> ReviewSession | None: ...

    @property
    def profile_app(self) -> ProfileApplication | None: ...

    restored_unsaved: bool
    # ask(title, text, buttons, default) -> button; tests and scripts replace it
    ask: Callable[[str, str, QMessageBox.StandardButton, QMessageBox.StandardButton], QMessageBox.StandardButton]

    def notify(self, title: str, text: str, error: bool = False) -> None: ...

    def _show_session(self) -> None: ...


class Saving:
    """Save (Ctrl+S) and Save As (Ctrl+Shift+S), which may change the format."""

    def __init__(self, window: SavingWindow, parent: QWidget, undo_stack: QUndoStack, settings: Settings,
                 status_bar: QStatusBar, edit_log: EditLogRecovery, autosaving: Autosaving):
        self.window = window
        self.parent = parent  # the file dialog's parent
        self.undo_stack = undo_stack
        self.settings = settings
        self.status_bar = status_bar
        self.edit_log = edit_log
        self.autosaving = autosaving

    def save(self) -> bool:
        session = self.window.session
        if session is None:
            return False
        if session.doc.path is None:
            return self.save_as_dialog()
        return self.save_to(session.doc.path)

    def save_as_dialog(self) -> bool:
        session = self.window.session
        if session is None:
            return False
        doc = session.doc
        start = str(doc.path) if doc.path else ""
        filters = {f"{f.label} (*{f.suffix})": f for f in FORMATS.values()}
        current = next(label for label, f in filters.items() if f.name == doc.format)
        path, chosen = QFileDialog.getSaveFileName(self.parent, "Save subtitles as", start, ";;".join(filters),
                                                   current)
        if not path:
            return False
        p = Path(path)
        if not formats.is_subtitle_path(p):
            p = p.with_suffix(filters.get(chosen, formats.get(doc.format)).suffix)
        return self.save_to(p)

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Save the review's document to ``path`` (in ``fmt``, or the format its suffix names)."""
        session = self.window.session
        if session is None:
            return False
        target_format = format_for(session.doc, Path(path), fmt).name
        losses = conversion_losses(session.doc, target_format)
        try:
            try:
                saved = session.save(path, fmt, log=False)
            except ReadOnlyError as exc:
                # The core never replaces a read-only file on its own; the user decides.
                answer = self.window.ask("Read-only file",
                                         f"{exc.path} is read-only.\n\nSave over it anyway? "
                                         "It stays read-only afterwards.",
                                         QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                         QMessageBox.StandardButton.No)
                if answer != QMessageBox.StandardButton.Yes:
                    self.status_bar.showMessage(f"Not saved: {exc.path} is read-only", 8000)
                    return False
                saved = session.save(path, fmt, allow_read_only=True, log=False)
        except (SubcaseError, UnicodeError) as exc:
            self.window.notify("Cannot save", str(exc), error=True)
            return False
        # The file is written; its record in the edit log must be too (or the user says otherwise).
        self.edit_log.run_logged(lambda: session.log_saved(saved), can_cancel=False)
        self.window.restored_unsaved = False
        self.undo_stack.setClean()
        self.autosaving.discard()
        self.settings.add_recent(saved.path)
        self.window._show_session()
        profile_note = self._update_profile()  # whatever the warnings, the profile learns from the save
        if saved.warnings:
            self.window.notify("Saved, but players may misread the file",
                               f"{saved.path}:\n" + "\n".join(saved.warnings), error=True)
        elif losses:
            self.window.notify("Saved with losses",
                               f"Saved {saved.path}{profile_note}, but:\n" + "\n".join(losses))
        else:
            self.status_bar.showMessage(f"Saved {saved.path}" + profile_note, 5000)
        return True

    def _update_profile(self) -> str:
        """The open file's profile learns from this file's log (review/profiles/build.py, ``updated``)."""
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.profiles.build import updated

        app = self.window.profile_app
        session = self.window.session
        if app is None or session is None or session.log is None:
            return ""
        try:
            app.profile = updated(app.profile, session.log.path)
            profile_store.save(app.profile)
        except ProfileError as exc:
            return f"; profile not updated: {exc}"
        return f"; profile {app.profile.name} updated ({app.profile.size()} entries)"
