"""Saving: Save and Save As, through the review session.

``ReviewSession.save`` does the work
(the document core's atomic save, the edit-log record, the hash crash
recovery checks); the controller asks for a file name, reports errors and
warnings, and marks the undo stack clean.

A save that fails (a read-only folder, a full disk, a name the file system
refuses) says why and offers Save As, so the edits can go somewhere that
works; until a save succeeds the autosave snapshot holds them (written at
once when the save fails, removed only by a save that succeeds).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.casing.gcpause import paused_gc
from subcase.errors import ReadOnlyError, SubcaseError
from subcase.subtitles import FORMATS, format_for, formats
from subcase.subtitles.losses import conversion_losses
from subcase.subtitles.saving import ReaderCheck

from .autosaving import Autosaving
from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .prompts import Prompts
from .settings import Settings
from .tasks import Task, run_task


def on_read_only_file_system(path: Path) -> bool:
    """True when the file system that holds ``path`` is mounted read-only (a CD, a read-only share)."""
    statvfs = getattr(os, "statvfs", None)  # not on Windows, where read-only media fail the write itself
    if statvfs is None:
        return False
    try:
        return bool(statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _read_back(check: ReaderCheck, _task: Task) -> list[str]:
    # The parser's objects are short-lived and many (a three-hour file): no collection walks them meanwhile.
    with paused_gc():
        return check.run()


class Saving:
    """Save (Ctrl+S) and Save As (Ctrl+Shift+S), which may change the format; whether to drop unsaved work."""

    def __init__(self, review: OpenReview, prompts: Prompts, settings: Settings, edit_log: EditLogRecovery,
                 autosaving: Autosaving):
        self.review = review
        self.prompts = prompts
        self.parent = prompts.parent  # the file dialog's parent
        self.settings = settings
        self.status_bar = prompts.status_bar
        self.edit_log = edit_log
        self.autosaving = autosaving
        # offer_save_as(text) -> True to choose another file; tests and scripts replace it
        self.offer_save_as: Callable[[str], bool] = self._save_as_box
        self.save_failed_box: QMessageBox | None = None  # while it is showing, for tests
        self.check_task: Task | None = None  # the last save's check against the format's reference parser

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        doc = self.review.doc
        if not self.review.is_modified() or doc is None:  # modified means a file is open
            return True
        buttons = QMessageBox.StandardButton
        answer = self.prompts.ask("Unsaved review", f"Save the changes to {doc.path.name if doc.path else 'the file'}?",
                                  buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
        if answer == buttons.Save:
            return self.save()
        if answer == buttons.Discard:
            self.autosaving.discard()
            return True
        return False

    def save(self) -> bool:
        session = self.review.session
        if session is None:
            return False
        if session.doc.path is None:
            return self.save_as_dialog()
        return self.save_to(session.doc.path)

    def save_as_dialog(self) -> bool:
        session = self.review.session
        if session is None:
            return False
        doc = session.doc
        start = str(doc.path) if doc.path else ""
        filters = {f.dialog_filter(): f for f in FORMATS.values()}
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
        session = self.review.session
        if session is None:
            return False
        target_format = format_for(session.doc, Path(path), fmt).name
        losses = conversion_losses(session.doc, target_format)
        try:
            try:
                saved = session.save(path, fmt, log=False, check_now=False)
            except ReadOnlyError as exc:
                if on_read_only_file_system(exc.path or Path(path)):
                    # nothing can be written there, whatever the user answers: no "save over it anyway?"
                    raise SubcaseError("cannot save: the file system is read-only", exc.path) from None
                # The core never replaces a read-only file on its own; the user decides.
                answer = self.prompts.ask("Read-only file",
                                         f"{exc.path} is read-only.\n\nSave over it anyway? "
                                         "It stays read-only afterwards.",
                                         QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                         QMessageBox.StandardButton.No)
                if answer != QMessageBox.StandardButton.Yes:
                    self.status_bar.showMessage(f"Not saved: {exc.path} is read-only", 8000)
                    return False
                saved = session.save(path, fmt, allow_read_only=True, log=False, check_now=False)
        except (SubcaseError, UnicodeError) as exc:
            return self._save_failed(str(exc))
        # The file is written; its record in the edit log must be too (or the user says otherwise).
        self.edit_log.run_logged(lambda: session.log_saved(saved), can_cancel=False)
        self.review.mark_saved(saved.path)
        self.autosaving.discard()
        self.settings.add_recent(saved.path)
        profile_note = self._update_profile()  # whatever the warnings, the profile learns from the save
        if saved.unchecked is not None:
            # Reading the file back as players' parsers do takes seconds on a long file: in the background.
            check = saved.unchecked
            self.check_task = run_task(partial(_read_back, check), partial(self._warn, saved.path),
                                       lambda _message: None)
        if losses:
            self.prompts.notify("Saved with losses",
                               f"Saved {saved.path}{profile_note}, but:\n" + "\n".join(losses))
        else:
            self.status_bar.showMessage(f"Saved {saved.path}" + profile_note, 5000)
        return True

    def _warn(self, path: Path, warnings: list[str]) -> None:
        """The reference parser's check of a saved file (``ReaderCheck``) found that players may misread it."""
        if warnings:
            self.prompts.notify("Saved, but players may misread the file", f"{path}:\n" + "\n".join(warnings),
                                error=True)

    def _save_failed(self, reason: str) -> bool:
        """Say why the save failed and offer Save As; True when the review got saved elsewhere."""
        self.autosaving.save_now()  # the edits are on disk in the snapshot until a save succeeds
        self.status_bar.showMessage(f"Not saved: {reason}", 8000)
        if self.offer_save_as(reason):
            return self.save_as_dialog()
        return False

    def _save_as_box(self, reason: str) -> bool:
        """The message box of a failed save: Save As… or Cancel."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Cannot save",
                          f"{reason}\n\nSave the subtitles under another name or in another folder? "
                          "Until a save succeeds, the edits are kept in the autosave.",
                          QMessageBox.StandardButton.NoButton, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names and error text are untrusted
        save_as = box.addButton("Save As…", QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save_as)
        box.setEscapeButton(cancel)
        self.save_failed_box = box
        try:
            box.exec()
        finally:
            self.save_failed_box = None
        return box.clickedButton() is save_as

    def _update_profile(self) -> str:
        """The open file's profile learns from this file's log (review/profiles/build.py, ``updated``)."""
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.profiles.build import updated

        app = self.review.profile_app
        session = self.review.session
        if app is None or session is None or session.log is None:
            return ""
        try:
            app.profile = updated(app.profile, session.log.path)
            profile_store.save(app.profile)
        except ProfileError as exc:
            return f"; profile not updated: {exc}"
        return f"; profile {app.profile.name} updated ({app.profile.size()} entries)"
