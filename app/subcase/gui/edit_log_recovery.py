"""When the edit log cannot be created or written: ask, never lose it silently.

The edit log is the record of every human decision
(docs/reference/edit-log.md), so a failure to write it is never swallowed:

- Opening a file whose log cannot be created (its folder is read-only, the
  disk is full) asks before the review starts: try again, choose another
  folder for the log, go on without a log, or cancel opening.
- A decision whose record cannot be written is not applied (the session
  rolls it back), and the same question is asked; "Cancel" drops that one
  decision, anything else retries it.  So a decision shows as made only once
  it is on disk, which is what an editor that promises a log should do.
- Undo and redo are asked the same way, without "Cancel", because the undo
  stack has already moved; the choices all end with the step logged or the
  log knowingly switched off.

The question is a real QMessageBox (``log_failure_box`` while it is open)
and the folder choice a real, non-native QFileDialog (``log_folder_dialog``),
so tests drive both offscreen exactly as a user would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QMessageBox, QStatusBar, QWidget

from subcase.review import EditLog
from subcase.review.editlog import EditLogError

from .open_review import OpenReview

RETRY, FOLDER, NO_LOG, CANCEL = "retry", "folder", "nolog", "cancel"


class EditLogRecovery:
    """Opens the edit log and runs the logged steps, asking the user whenever the log fails."""

    def __init__(self, parent: QWidget, review: OpenReview, status_bar: QStatusBar):
        self.parent = parent  # the dialogs' parent
        self.review = review
        self.status_bar = status_bar
        self.log_failure_box: QMessageBox | None = None
        self.log_folder_dialog: QFileDialog | None = None
        # Overridable for headless runs: ask(error, can_cancel, cancel_label) -> RETRY, FOLDER, NO_LOG or CANCEL
        self.ask_log_failure: Callable[[EditLogError, bool, str], str] = self.ask_in_dialog

    def ask_in_dialog(self, error: EditLogError, can_cancel: bool, cancel_label: str) -> str:
        """RETRY, FOLDER, NO_LOG or CANCEL, chosen by the user in a modal dialog."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Edit log not written",
                          f"{error}\n\nThe edit log keeps every decision you make. "
                          "Nothing you decide is lost without your say: choose what to do.",
                          QMessageBox.StandardButton.NoButton, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)
        retry = box.addButton("Try again", QMessageBox.ButtonRole.AcceptRole)
        buttons: dict[QAbstractButton, str] = {
            retry: RETRY,
            box.addButton("Choose another folder\u2026", QMessageBox.ButtonRole.ActionRole): FOLDER,
            box.addButton("Go on without a log", QMessageBox.ButtonRole.DestructiveRole): NO_LOG,
        }
        box.setDefaultButton(retry)
        if can_cancel:
            cancel = box.addButton(cancel_label, QMessageBox.ButtonRole.RejectRole)
            buttons[cancel] = CANCEL
            box.setEscapeButton(cancel)
        else:
            box.setEscapeButton(retry)
        self.log_failure_box = box
        try:
            box.exec()
        finally:
            self.log_failure_box = None
        return buttons.get(box.clickedButton(), CANCEL if can_cancel else RETRY)

    def choose_log_folder(self, start: Path) -> Path | None:
        dialog = QFileDialog(self.parent, "Folder for the edit log", str(start))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)  # the same dialog everywhere, and testable
        self.log_folder_dialog = dialog
        try:
            if not dialog.exec():
                return None
            files = dialog.selectedFiles()
        finally:
            self.log_folder_dialog = None
        return Path(files[0]) if files else None

    def _log_elsewhere(self, failed: Path) -> EditLog | None:
        """A log with the same file name in a folder the user picks; None if they give up."""
        folder = self.choose_log_folder(failed.parent)
        if folder is None:
            return None
        return EditLog(folder / failed.name)  # EditLogError goes back to the caller's loop

    def open_edit_log(self, path: Path) -> tuple[bool, EditLog | None]:
        """(go on, log): the log at path, or the user's choice if it cannot be created.

        (False, None) means the user cancelled; (True, None) means no log.
        """
        while True:
            try:
                return True, EditLog(path)
            except EditLogError as exc:
                choice = self.ask_log_failure(exc, True, "Cancel opening")
                if choice == CANCEL:
                    return False, None
                if choice == NO_LOG:
                    return True, None
                if choice == FOLDER:
                    try:
                        log = self._log_elsewhere(Path(path))
                    except EditLogError:
                        continue  # that folder failed too: ask again
                    if log is not None:
                        return True, log

    def run_logged(self, step: Callable[[], None], can_cancel: bool) -> bool:
        """Run a session step that writes the log; on failure ask and retry.

        True once the step has run (logged, or with the log switched off by
        the user); False if the user cancelled it (only when can_cancel).
        """
        while True:
            try:
                step()
                return True
            except EditLogError as exc:
                session = self.review.session
                if session is None:  # a step that writes the log runs only with a review open
                    raise
                choice = self.ask_log_failure(exc, can_cancel, "Cancel this decision")
                if choice == CANCEL:
                    self.status_bar.showMessage("Decision cancelled: the edit log could not be written", 8000)
                    return False
                if choice == NO_LOG:
                    session.replace_log(None)
                elif choice == FOLDER:
                    failed = exc.path or (session.log.path if session.log is not None else None)
                    if failed is None:
                        continue  # nothing to name the new log after: ask again
                    try:
                        log = self._log_elsewhere(Path(failed))
                    except EditLogError:
                        continue
                    if log is not None:
                        session.replace_log(log)
                self.review.touch(())  # the log was replaced or switched off: the views say so
