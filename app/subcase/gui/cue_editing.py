"""Editing a cue's text (F2): a plain-text box, the new words cased in a task, one undo step."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QStatusBar, QVBoxLayout

from subcase.casing import cue_context
from subcase.casing.auto import mode_of_cue
from subcase.review import EditText

from .cue_view import CueView
from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .review_commands import push
from .tasks import Task, run_task
from .workers import EngineHolder, case_cue

# Said in the box: Enter is a new line of the cue there, so how to confirm is not what a dialog usually does.
CONFIRM_HINT = "Enter starts a new line; Ctrl+Enter or OK confirms."


class CueEditing:
    """F2: the box, the casing of the new words, the edit."""

    def __init__(self, review: OpenReview, edit_log: EditLogRecovery, engines: EngineHolder, view: CueView,
                 status_bar: QStatusBar):
        self.review = review
        self.edit_log = edit_log
        self.engines = engines
        self.view = view
        self.status_bar = status_bar
        self.cue_edit_dialog: QDialog | None = None  # the F2 box while it is open
        self._cue_tasks: set[Task] = set()  # casings of F2-edited cues in flight (kept until they report)

    def edit_cue_text(self, cue_index: int, text: str, cased=None) -> None:
        """Replace a cue's text as one undoable step; ``cased``, the model's casing of the new text."""
        if self.review.session is None or self.review.session.doc.cues[cue_index].text == text:
            return
        push(self.review, self.edit_log, EditText(cue_index, text, cased))

    def edit_cue_text_cased(self, cue_index: int, text: str) -> None:
        """Replace a cue's text once the model has cased its new words, in a task; then
        ``cue_text_edited`` is emitted.  If the model fails, the words are kept as typed."""
        session = self.review.session
        if session is None or session.doc.cues[cue_index].text == text:
            return
        langs = session.cue_languages
        lang = langs[cue_index] if langs is not None and cue_index < len(langs) else "auto"
        mode = mode_of_cue(session.mode, session.state.passages, cue_index)
        task: Task

        def done(words, failed: str | None = None) -> None:
            self._cue_tasks.discard(task)
            if self.review.session is not session:
                return  # the file was closed meanwhile
            if failed is not None:
                self.status_bar.showMessage(f"The new words are kept as typed: {failed.splitlines()[-1]}", 10000)
            self.review.when_idle(partial(apply, words))  # after a save being written, say

        def apply(words) -> None:
            if self.review.session is not session:
                return
            with self.review.one_change():
                self.edit_cue_text(cue_index, text, words)
            self.review.cue_text_edited.emit(cue_index)

        task = run_task(partial(case_cue, self.engines, cue_context(session.doc, cue_index), cue_index, text, mode,
                                lang), done, lambda message: done(None, message))
        self._cue_tasks.add(task)
        self.status_bar.showMessage(f"Casing the new text of cue {cue_index + 1}\u2026")

    def edit_cue_text_dialog(self) -> None:
        """The F2 box: plain text (markup stays visible characters); OK or Ctrl+Enter confirms."""
        if self.review.session is None:
            return
        row = self.view.currentIndex().row()
        if row < 0:
            return
        dialog = QDialog(self.view.window())
        dialog.setWindowTitle(f"Edit cue {row + 1}")
        box = QVBoxLayout(dialog)
        edit = QPlainTextEdit(dialog)
        edit.setPlainText(self.review.session.doc.cues[row].text)
        box.addWidget(edit)
        hint = QLabel(CONFIRM_HINT, dialog)
        hint.setTextFormat(Qt.TextFormat.PlainText)
        box.addWidget(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        box.addWidget(buttons)
        # Enter starts a new line of the cue; Ctrl+Enter (either Enter key) confirms.
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), dialog, dialog.accept, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        dialog.accepted.connect(lambda: self.edit_cue_text_cased(row, edit.toPlainText()))
        dialog.finished.connect(lambda _r: setattr(self, "cue_edit_dialog", None))
        self.cue_edit_dialog = dialog
        edit.setFocus()
        dialog.open()  # window-modal, without a nested event loop
