"""Opening a file: the dialog and recent files, casing it in a worker, taking the result.

A controller owned by MainWindow.  Loading and casing run in a
LoadAndCaseTask; the window only sees finished objects through its queued
signals, and ignores signals from a task it has since replaced or cancelled.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtCore import QThreadPool, SignalInstance
from PySide6.QtWidgets import QDoubleSpinBox, QFileDialog, QMessageBox, QProgressBar, QPushButton, QStatusBar, \
    QWidget

from subcase.subtitles.files import GB_PER_MB_WORST, MAX_SIZE_MB, FileTooLargeError, check_size, special_kind
from subcase.review import log_path_for
from subcase.subtitles import FORMATS, Document

from subcase.review import ReviewSession

from .autosaving import Autosaving
from .cue_view import CueView
from .edit_log_recovery import EditLogRecovery
from .saving import Saving
from .review_commands import ReviewCommands
from .settings import Settings
from .workers import CaseResult, EngineHolder, LoadAndCaseTask, ModeTask

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication


def open_filter() -> str:
    """File dialog filters: all subtitle formats, each format, anything."""
    every = " ".join(f"*{s}" for f in FORMATS.values() for s in f.suffixes)
    each = ";;".join(f.dialog_filter() for f in FORMATS.values())
    return f"Subtitles ({every});;{each};;All files (*)"


class OpeningWindow(Protocol):
    """What opening a file reads and changes on the window: the open review, the one background task,
    and how the window shows them."""

    session: ReviewSession | None
    profile_app: ProfileApplication | None
    task: LoadAndCaseTask | ModeTask | None
    # ask(title, text, buttons, default) -> button; tests and scripts replace it
    ask: Callable[[str, str, QMessageBox.StandardButton, QMessageBox.StandardButton], QMessageBox.StandardButton]

    @property
    def doc(self) -> Document | None: ...

    @property
    def casing_finished(self) -> SignalInstance: ...

    @property
    def casing_cancelled(self) -> SignalInstance: ...

    @property
    def casing_failed(self) -> SignalInstance: ...

    def is_modified(self) -> bool: ...
    def notify(self, title: str, text: str, error: bool = False) -> None: ...
    def setWindowTitle(self, title: str) -> None: ...
    def on_progress(self, task: LoadAndCaseTask | ModeTask, done: int, total: int) -> None: ...
    def end_task(self) -> None: ...
    def close_session(self) -> None: ...
    def _set_spin(self, value: float) -> None: ...
    def _show_session(self) -> None: ...
    def _update_actions(self) -> None: ...


class Opening:
    """Open dialog, recent files, the casing worker and what happens when it ends."""

    def __init__(self, window: OpeningWindow, parent: QWidget, engines: EngineHolder, settings: Settings,
                 view: CueView, progress: QProgressBar, cancel_button: QPushButton,
                 threshold_spin: QDoubleSpinBox, status_bar: QStatusBar, edit_log: EditLogRecovery,
                 saving: Saving, autosaving: Autosaving, commands: ReviewCommands):
        self.window = window
        self.commands = commands  # a new session's changes repaint through it; it moves to a word
        self.parent = parent  # the file dialog's parent
        self.engines = engines
        self.settings = settings
        self.view = view
        self.progress = progress
        self.cancel_button = cancel_button
        self.threshold_spin = threshold_spin
        self.status_bar = status_bar
        self.edit_log = edit_log
        self.saving = saving
        self.autosaving = autosaving
        # A crash-recovery snapshot whose origin was cased again goes back to recovery (gui/recovery.py),
        # which is made after this controller: MainWindow sets it.
        self.restore_origin: Callable[[dict, CaseResult], None] | None = None

    def open_dialog(self) -> None:
        start = str(Path(self.settings.recent_files[0]).parent) if self.settings.recent_files else ""
        path, _ = QFileDialog.getOpenFileName(self.parent, "Open subtitles", start, open_filter())
        if path:
            self.open_file(Path(path))

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        doc = self.window.doc
        if not self.window.is_modified() or doc is None:  # modified means a file is open
            return True
        answer = self.window.ask("Unsaved review", f"Save the changes to {doc.path.name if doc.path else 'the file'}?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.saving.save()
        if answer == QMessageBox.StandardButton.Discard:
            self.autosaving.discard()
            return True
        return False

    def size_accepted(self, path: Path) -> bool:
        """Whether to open ``path``: at once under the command line's default size limit; past it, only if the
        user says so, since casing's memory grows with a file's size (about 2.7 GB per MB of one long line;
        subtitles.files.MAX_SIZE_MB).  A refusal is said as ``convert`` says it."""
        try:
            check_size(path)
        except FileTooLargeError as exc:
            size = path.stat().st_size
            answer = self.window.ask(
                "Large file",
                f"{path.name} is {size / 1e6:.1f} MB, over the {MAX_SIZE_MB:g} MB the editor opens without asking. "
                f"Casing it may take minutes and up to {size / 1e6 * GB_PER_MB_WORST:.0f} GB of memory. Open it anyway?",
                QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
            if answer == QMessageBox.StandardButton.Open:
                return True
            self.window.casing_failed.emit(str(exc))
            return False
        return True

    def open_file(self, path: Path) -> bool:
        path = Path(path)
        kind = special_kind(path)
        if kind is not None:
            # Checked here, not only in the worker: reading a FIFO blocks until
            # someone writes to it, and no Cancel can interrupt that read.
            message = f"{path}: is {kind}, not a regular file; subcase only opens regular files"
            self.window.notify("Cannot open file", message, error=True)
            self.window.casing_failed.emit(message)
            return False
        if not self.size_accepted(path):
            return False
        if not self.confirm_discard():
            return False
        self.start_casing(LoadAndCaseTask(path, self.engines, self.settings.mode, self.settings.threshold,
                                          self.settings.house_styles(), profile=self.settings.profile,
                                          learning=self.settings.learning, punctuate=self.settings.punctuate))
        return True

    def start_casing(self, task: LoadAndCaseTask) -> None:
        """Run a loading and casing task in the background; its result opens a review."""
        path = task.path
        if self.window.task is not None:
            self.cancel_casing()
        s = task.signals
        s.loaded.connect(lambda doc, t=task: self._on_loaded(t, doc))
        s.progress.connect(lambda d, n, t=task: self.window.on_progress(t, d, n))
        s.cased.connect(lambda r, t=task: self._on_cased(t, r))
        s.cancelled.connect(lambda t=task: self._on_cancelled(t))
        s.failed.connect(lambda msg, t=task: self._on_failed(t, msg))
        self.window.task = task
        self.progress.setRange(0, 0)  # busy until the first progress report
        self.progress.show()
        self.cancel_button.show()
        self.status_bar.showMessage(f"Opening {path.name}\u2026")
        self.window._update_actions()
        QThreadPool.globalInstance().start(task)

    def cancel_casing(self) -> None:
        if self.window.task is not None:
            self.window.task.cancel()
            self.status_bar.showMessage("Cancelling\u2026")

    def _on_loaded(self, task: LoadAndCaseTask, doc: Document) -> None:
        if task is not self.window.task:
            return
        # Show the cues right away, uncased and read-only, while the model runs.
        self.view.set_document(doc, None)
        self.window.setWindowTitle(f"{Path(task.path).name} (casing\u2026) \u2014 subcase")
        self.window._update_actions()

    def _on_cancelled(self, task) -> None:
        if task is not self.window.task:
            return
        self.window.end_task()
        self.window._show_session()  # back to what was open before, if anything
        self.status_bar.showMessage("Casing cancelled", 5000)
        self.window.casing_cancelled.emit()

    def _on_failed(self, task: LoadAndCaseTask, message: str) -> None:
        if task is not self.window.task:
            return
        self.window.end_task()
        self.window._show_session()
        self.window.notify("Cannot open file", f"{task.path}:\n{message}", error=True)
        self.window.casing_failed.emit(message)

    def _on_cased(self, task: LoadAndCaseTask, result: CaseResult) -> None:
        if task is not self.window.task:
            return
        self.window.end_task()
        if task.restoring is not None:  # crash recovery: the origin cased again (gui/recovery.py)
            assert self.restore_origin is not None
            self.restore_origin(task.restoring, result)
            return
        # The log first: if the user cancels, what was open before stays open.
        go_on, log = self.edit_log.open_edit_log(log_path_for(result.path))
        if not go_on:
            self.window._show_session()
            self.status_bar.showMessage(f"Opening {result.path.name} cancelled: no edit log", 8000)
            self.window.casing_cancelled.emit()
            return
        self.window.close_session()
        session = result.session  # opened in the worker (review.open_review); the log is the GUI thread's
        if self.settings.threshold is None:
            self.window._set_spin(session.state.threshold)  # the model's calibrated default
        else:
            session.state.threshold = self.threshold_spin.value()
        session.replace_log(log)
        self.window.session = session
        self.window.profile_app = session.profile
        if result.profile_note:
            self.status_bar.showMessage(result.profile_note, 10000)
        self.window.session.listeners.append(self.commands.on_session_changed)
        self.settings.add_recent(result.path)
        self.window._show_session()
        self.window._update_actions()
        if self.view.cue_model.rowCount():
            self.view.selectRow(0)
        self.view.setFocus()
        left = session.state.to_review()
        app = self.window.profile_app
        from_profile = (f"; {len(app.by_pos)} from profile {app.profile.name}" if app is not None else "")
        words = sum(len(cue) for cue in session.state.cues)
        doubt = session.doc.encoding_doubt  # a code page guessed with low confidence (subtitles/encoding.py)
        self.status_bar.showMessage(f"Cased {words} words{from_profile}; {left} to review (press N). "
                                     f"Language: {session.casing_summary}"
                                     + (f". Warning: {doubt}" if doubt else ""), 15000)
        self.window.casing_finished.emit()
