"""Opening a file: the dialog and recent files, casing it in a task, installing the result.

Loading and casing run in ``workers.load_and_case`` (``run_task``); the
result is installed in the ``OpenReview``, whose signals tell the views.
A result from a task that has since been replaced or cancelled is ignored.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Callable

from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.subtitles.files import GB_PER_MB_WORST, MAX_SIZE_MB, FileTooLargeError, check_size, special_kind
from subcase.review import log_path_for
from subcase.subtitles import FORMATS, Document

from .cue_view import CueView
from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .prompts import Prompts
from .settings import Settings
from .tasks import Task, run_task
from .workers import PREVIEW, CaseResult, EngineHolder, OpenWith, load_and_case


def open_filter() -> str:
    """File dialog filters: all subtitle formats, each format, anything."""
    every = " ".join(f"*{s}" for f in FORMATS.values() for s in f.suffixes)
    each = ";;".join(f.dialog_filter() for f in FORMATS.values())
    return f"Subtitles ({every});;{each};;All files (*)"


class Opening:
    """Open dialog, recent files, the casing task and what happens when it ends."""

    def __init__(self, review: OpenReview, prompts: Prompts, engines: EngineHolder, settings: Settings,
                 view: CueView, edit_log: EditLogRecovery, confirm_discard: Callable[[], bool]):
        self.review = review
        self.prompts = prompts
        self.parent = prompts.parent  # the file dialog's parent
        self.engines = engines
        self.settings = settings
        self.view = view
        self.status_bar = prompts.status_bar
        self.edit_log = edit_log
        self.confirm_discard = confirm_discard  # True when the open review may go (saved, or the user says so)

    def open_dialog(self) -> None:
        start = str(Path(self.settings.recent_files[0]).parent) if self.settings.recent_files else ""
        path, _ = QFileDialog.getOpenFileName(self.parent, "Open subtitles", start, open_filter())
        if path:
            self.open_file(Path(path))

    def size_accepted(self, path: Path) -> bool:
        """Whether to open ``path``: at once under the command line's default size limit; past it, only if the
        user says so, since casing's memory grows with a file's size (up to ``GB_PER_MB_WORST`` per MB;
        subtitles.files.MAX_SIZE_MB).  A refusal is said as ``convert`` says it."""
        try:
            check_size(path)
        except FileTooLargeError as exc:
            size = path.stat().st_size
            answer = self.prompts.ask(
                "Large file",
                f"{path.name} is {size / 1e6:.1f} MB, over the {MAX_SIZE_MB:g} MB the editor opens without asking. "
                f"Casing it may take minutes and up to {size / 1e6 * GB_PER_MB_WORST:.0f} GB of memory. Open it anyway?",
                QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
            if answer == QMessageBox.StandardButton.Open:
                return True
            self.review.casing_failed.emit(str(exc))
            return False
        return True

    def open_file(self, path: Path) -> bool:
        path = Path(path)
        kind = special_kind(path)
        if kind is not None:
            # Checked here, not only in the worker: reading a FIFO blocks until
            # someone writes to it, and no Cancel can interrupt that read.
            message = f"{path}: is {kind}, not a regular file; subcase only opens regular files"
            self.prompts.notify("Cannot open file", message, error=True)
            self.review.casing_failed.emit(message)
            return False
        if not self.size_accepted(path):
            return False
        if not self.confirm_discard():
            return False
        self.start_casing(path, OpenWith(self.settings.mode, self.settings.threshold, self.settings.house_styles(),
                                         profile=self.settings.profile, learning=self.settings.learning,
                                         punctuate=self.settings.punctuate), self._install)
        return True

    def start_casing(self, path: Path, options: OpenWith, on_cased: Callable[[CaseResult], None]) -> Task:
        """Load and case ``path`` in the background (the one task of the open review); ``on_cased`` takes
        the result."""
        task: Task

        def ended(then: Callable[..., None], *args) -> None:
            if self.review.end_task(task):
                then(*args)

        def report(*values) -> None:
            if values[0] == PREVIEW:
                if task is self.review.task:
                    self._show_preview(path, values[1])
            else:
                self.review.report_progress(task, *values)

        task = run_task(partial(load_and_case, path, self.engines, options), partial(ended, on_cased),
                        partial(ended, lambda message: self._on_failed(path, message)), report,
                        partial(ended, self._on_cancelled))
        self.review.begin_task(task)
        self.status_bar.showMessage(f"Opening {Path(path).name}\u2026")
        return task

    def cancel_casing(self) -> None:
        if self.review.cancel_task():
            self.status_bar.showMessage("Cancelling\u2026")

    def _show_preview(self, path: Path, doc: Document) -> None:
        # Show the cues right away, uncased and read-only, while the model runs.
        self.view.set_document(doc, None)
        self.parent.setWindowTitle(f"{Path(path).name} (casing\u2026) \u2014 subcase")

    def _on_cancelled(self) -> None:
        self.review.preview_ended.emit()  # back to what was open before, if anything
        self.status_bar.showMessage("Casing cancelled", 5000)
        self.review.casing_cancelled.emit()

    def _on_failed(self, path: Path, message: str) -> None:
        self.review.preview_ended.emit()
        self.prompts.notify("Cannot open file", self.failure_text(path, message), error=True)
        self.review.casing_failed.emit(message)

    @staticmethod
    def failure_text(path: Path, message: str) -> str:
        """The open-error dialog's text: the file named once, however the reason starts."""
        return message if message.startswith(str(path)) else f"{path}:\n{message}"

    def _install(self, result: CaseResult) -> None:
        # The log first: if the user cancels, what was open before stays open.
        go_on, log = self.edit_log.open_edit_log(log_path_for(result.path))
        if not go_on:
            self.review.preview_ended.emit()
            self.status_bar.showMessage(f"Opening {result.path.name} cancelled: no edit log", 8000)
            self.review.casing_cancelled.emit()
            return
        session = result.session  # opened in the worker (review.open_review); the log is the GUI thread's
        session.replace_log(log)
        self.review.install(session)
        if result.profile_note:
            self.status_bar.showMessage(result.profile_note, 10000)
        self.settings.add_recent(result.path)
        if self.view.cue_model.rowCount():
            self.view.selectRow(0)
        self.view.setFocus()
        left = session.counts()["to_review"]
        app = self.review.profile_app
        from_profile = (f"; {len(app.by_pos)} from profile {app.profile.name}" if app is not None else "")
        words = sum(len(cue) for cue in session.state.cues)
        doubt = session.doc.encoding_doubt  # a code page guessed with low confidence (subtitles/encoding.py)
        self.status_bar.showMessage(f"Cased {words} words{from_profile}; {left} to review (press N). "
                                    f"Language: {session.casing_summary}"
                                    + (f". Warning: {doubt}" if doubt else ""), 15000)
        self.finish_when_shown()

    def finish_when_shown(self) -> None:
        """``casing_finished`` once the views have laid out the opened review's rows (a slice per event-loop
        turn: ``CueView.set_document``); never if the file is closed or replaced first."""
        self.view.when_laid_out(self.review.casing_finished.emit)
