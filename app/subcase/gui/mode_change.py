"""Changing the casing mode of the open file: re-cased in a task, the result one undoable step."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QStatusBar

from subcase.review.remode import ChangeMode

from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .review_commands import push
from .settings import Settings
from .tasks import Task, run_task
from .workers import EngineHolder, recase


class ModeChange:
    """Review › Casing Mode: for the next files and the open one (``review.remode``)."""

    def __init__(self, review: OpenReview, edit_log: EditLogRecovery, engines: EngineHolder, settings: Settings,
                 status_bar: QStatusBar):
        self.review = review
        self.edit_log = edit_log
        self.engines = engines
        self.settings = settings
        self.status_bar = status_bar

    def change_mode(self, mode: str) -> None:
        """The casing mode, for the next files and the open one: that is re-cased in a task, with
        progress and Cancel, and the result is one undoable step."""
        self.settings.mode = mode
        session = self.review.session
        if session is None or session.mode == mode:
            return
        if self.review.busy:
            self.review.touch(())  # the menu shows the open file's mode again
            self.status_bar.showMessage("Wait for the casing to end before changing the mode", 8000)
            return
        task: Task

        def cased(fresh) -> None:
            if not self.review.end_task(task):
                return
            if self.review.session is session:
                with self.review.one_change():
                    push(self.review, self.edit_log, ChangeMode(mode, session.mode, fresh))
                left = session.state.to_review()
                self.status_bar.showMessage(f"Mode {session.mode}: {left} to review (Ctrl+Z undoes the change)",
                                            10000)
            self.review.mode_changed.emit(mode)

        def ended(message: str) -> None:
            if not self.review.end_task(task):
                return
            self.review.touch(())  # the menu shows the open file's mode again
            self.status_bar.showMessage(message.splitlines()[-1] if message else "", 10000)
            self.review.mode_changed.emit(session.mode)

        task = run_task(partial(recase, self.engines, session.doc, session.state, mode, self.settings.house_styles()),
                        cased, lambda message: ended(f"Mode not changed: {message}"),
                        lambda done, total: self.review.report_progress(task, done, total),
                        lambda: ended("Mode change cancelled"))
        self.review.begin_task(task)
        self.status_bar.showMessage(f"Casing the file again in mode {mode}\u2026")
