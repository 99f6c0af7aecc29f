"""Opening a file: the dialog and recent files, casing it in a worker, taking the result.

A mixin for MainWindow.  Loading and casing run in a LoadAndCaseTask; the
window only sees finished objects through its queued signals, and ignores
signals from a task it has since replaced or cancelled.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.subtitles.files import special_kind
from subcase.review import log_path_for
from subcase.subtitles import FORMATS, Document

from .workers import CaseResult, LoadAndCaseTask

if TYPE_CHECKING:
    from .window_parts import WindowParts as _Window
else:
    _Window = object


def open_filter() -> str:
    """File dialog filters: all subtitle formats, each format, anything."""
    every = " ".join(f"*{f.suffix}" for f in FORMATS.values())
    each = ";;".join(f"{f.label} (*{f.suffix})" for f in FORMATS.values())
    return f"Subtitles ({every});;{each};;All files (*)"


class OpeningMixin(_Window):
    """Open dialog, recent files, the casing worker and what happens when it ends."""

    def open_dialog(self) -> None:
        start = str(Path(self.settings.recent_files[0]).parent) if self.settings.recent_files else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open subtitles", start, open_filter())
        if path:
            self.open_file(Path(path))

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        doc = self.doc
        if not self.is_modified() or doc is None:  # modified means a file is open
            return True
        answer = self.ask("Unsaved review", f"Save the changes to {doc.path.name if doc.path else 'the file'}?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.saving.save()
        if answer == QMessageBox.StandardButton.Discard:
            self.autosaving.discard()
            return True
        return False

    def open_file(self, path: Path) -> bool:
        path = Path(path)
        kind = special_kind(path)
        if kind is not None:
            # Checked here, not only in the worker: reading a FIFO blocks until
            # someone writes to it, and no Cancel can interrupt that read.
            message = f"{path}: is {kind}, not a regular file; subcase only opens regular files"
            self.notify("Cannot open file", message, error=True)
            self.casing_failed.emit(message)
            return False
        if not self.confirm_discard():
            return False
        self.start_casing(LoadAndCaseTask(path, self.engines, self.settings.mode, self.settings.threshold,
                                          self.settings.house_styles(), profile=self.settings.profile,
                                          learning=self.settings.learning))
        return True

    def start_casing(self, task: LoadAndCaseTask) -> None:
        """Run a loading and casing task in the background; its result opens a review."""
        path = task.path
        if self.task is not None:
            self.cancel_casing()
        s = task.signals
        s.loaded.connect(lambda doc, t=task: self._on_loaded(t, doc))
        s.progress.connect(lambda d, n, t=task: self._on_progress(t, d, n))
        s.cased.connect(lambda r, t=task: self._on_cased(t, r))
        s.cancelled.connect(lambda t=task: self._on_cancelled(t))
        s.failed.connect(lambda msg, t=task: self._on_failed(t, msg))
        self.task = task
        self.progress.setRange(0, 0)  # busy until the first progress report
        self.progress.show()
        self.cancel_button.show()
        self.statusBar().showMessage(f"Opening {path.name}\u2026")
        self._update_actions()
        QThreadPool.globalInstance().start(task)

    def cancel_casing(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.statusBar().showMessage("Cancelling\u2026")

    def _on_loaded(self, task: LoadAndCaseTask, doc: Document) -> None:
        if task is not self.task:
            return
        # Show the cues right away, uncased and read-only, while the model runs.
        self.view.set_document(doc, None)
        self.setWindowTitle(f"{Path(task.path).name} (casing\u2026) \u2014 subcase")
        self._update_actions()

    def _on_progress(self, task, done: int, total: int) -> None:
        if task is not self.task:
            return
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def _end_task(self) -> None:
        self.task = None
        self.progress.hide()
        self.cancel_button.hide()
        self._update_actions()

    def _on_cancelled(self, task) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()  # back to what was open before, if anything
        self.statusBar().showMessage("Casing cancelled", 5000)
        self.casing_cancelled.emit()

    def _on_failed(self, task: LoadAndCaseTask, message: str) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()
        self.notify("Cannot open file", f"{task.path}:\n{message}", error=True)
        self.casing_failed.emit(message)

    def _on_cased(self, task: LoadAndCaseTask, result: CaseResult) -> None:
        if task is not self.task:
            return
        self._end_task()
        if task.restoring is not None:  # crash recovery: the origin cased again (gui/recovery.py)
            self.finish_restore(task.restoring, result)
            return
        # The log first: if the user cancels, what was open before stays open.
        go_on, log = self.edit_log.open_edit_log(log_path_for(result.path))
        if not go_on:
            self._show_session()
            self.statusBar().showMessage(f"Opening {result.path.name} cancelled: no edit log", 8000)
            self.casing_cancelled.emit()
            return
        self._close_session()
        session = result.session  # opened in the worker (review.open_review); the log is the GUI thread's
        if self.settings.threshold is None:
            self._set_spin(session.state.threshold)  # the model's calibrated default
        else:
            session.state.threshold = self.threshold_spin.value()
        session.replace_log(log)
        self.session = session
        self.profile_app = session.profile
        if result.profile_note:
            self.statusBar().showMessage(result.profile_note, 10000)
        self.session.listeners.append(self._on_session_changed)
        self.settings.add_recent(result.path)
        self._show_session()
        self._update_actions()
        if self.view.cue_model.rowCount():
            self.view.selectRow(0)
        self.view.setFocus()
        left = session.state.to_review()
        app = self.profile_app
        from_profile = (f"; {len(app.by_pos)} from profile {app.profile.name}" if app is not None else "")
        words = sum(len(cue) for cue in session.state.cues)
        self.statusBar().showMessage(f"Cased {words} words{from_profile}; {left} to review (press N). "
                                     f"Language: {session.casing_summary}", 15000)
        self.casing_finished.emit()

    def _close_session(self) -> None:
        self.undo_stack.clear()
        self.restored_unsaved = False
        self.autosaving.timer.stop()
        if self.session is not None:
            self.session.close()
        self.session = None
