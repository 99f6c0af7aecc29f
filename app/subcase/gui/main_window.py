"""The main window: open, review by keyboard or mouse, save, batch.

A thin layer over ``subcase.review``: every edit is a review Action run by
the ReviewSession (which writes the edit log) and wrapped in a QUndoCommand.
Loading and casing run in a worker; the window only ever sees finished
objects through queued signals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QItemSelectionModel, QThreadPool, QTimer, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QHBoxLayout,
                               QLabel, QLineEdit, QMainWindow, QMenu, QMessageBox, QPlainTextEdit, QProgressBar,
                               QPushButton, QToolBar, QVBoxLayout, QWidget)

import subcase
from subcase.casing import TAG_NAMES, Tag, apply_tag
from subcase.paths import resource_path
from subcase.review import Accept, AcceptCue, EditLog, EditText, ReviewSession, SetTag, log_path_for
from subcase.review import autosave
from subcase.review.actions import Action, cycle_tag, realign
from subcase.subtitles import Document, SubtitleError

from . import theme
from .batch_dialog import BatchDialog
from .cue_view import COL_TEXT, CueView
from .help import ShortcutsDialog
from .settings import MODES, Settings
from .workers import CaseResult, EngineHolder, LoadAndCaseTask, WarmUpTask

SUBTITLE_SUFFIXES = (".srt", ".vtt")
FILE_FILTER = "Subtitles (*.srt *.vtt);;SubRip (*.srt);;WebVTT (*.vtt);;All files (*)"
AUTOSAVE_DELAY_MS = 1500


class ReviewCommand(QUndoCommand):
    """A review Action on the Qt undo stack; the first redo() does it."""

    def __init__(self, window: MainWindow, action: Action):
        super().__init__(action.label)
        self.window, self.action = window, action

    def redo(self) -> None:
        self.window.session.perform(self.action)

    def undo(self) -> None:
        self.window.session.revert(self.action)


class MainWindow(QMainWindow):
    casing_finished = Signal()       # a file is open and cased, ready to review
    casing_cancelled = Signal()
    casing_failed = Signal(str)
    batch_opened = Signal(object)    # the BatchDialog

    def __init__(self, engines: EngineHolder | None = None, settings: Settings | None = None):
        super().__init__()
        self.engines = engines or EngineHolder()
        self.settings = settings or Settings()
        self.session: ReviewSession | None = None
        self.task: LoadAndCaseTask | None = None
        self.base_sha256 = ""
        self.restored_unsaved = False
        self.last_error = ""
        self.batch_dialogs: list[BatchDialog] = []
        self.alternatives_menu: QMenu | None = None
        # Overridable for tests and scripting: ask(title, text, buttons, default) -> button
        self.ask: Callable[[str, str, QMessageBox.StandardButtons, QMessageBox.StandardButton],
                           QMessageBox.StandardButton] = self._ask_dialog

        self.setWindowTitle("subcase")
        icon = resource_path("icons/subcase.png")
        if icon.is_file():
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

        self.view = CueView(self)
        self.view.word_clicked.connect(self.show_alternatives)
        self.view.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.find_bar = self._make_find_bar()
        central = QWidget(self)
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.view)
        box.addWidget(self.find_bar)
        self.setCentralWidget(central)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.setSingleShot(True)
        self.autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self.autosave_timer.timeout.connect(self.autosave_now)
        self.autosaver = autosave.AutosaveWriter()

        self._make_status_bar()
        self._make_actions()
        self._make_menus()
        self._make_toolbar()
        self.apply_font_size(self.settings.font_size)
        self._restore_layout()
        self._update_actions()
        self._update_status()

        self._warmup = WarmUpTask(self.engines)
        self._warmup.signals.ready.connect(lambda _e: self._update_status())
        QThreadPool.globalInstance().start(self._warmup)

    # ------------------------------------------------------------------ building
    def _make_find_bar(self) -> QWidget:
        bar = QWidget(self)
        row = QHBoxLayout(bar)
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(QLabel("Find:"))
        self.find_edit = QLineEdit(bar)
        self.find_edit.setPlaceholderText("text in cues (Enter: next, Shift+Enter: previous, Esc: close)")
        self.find_edit.returnPressed.connect(lambda: self.find_next())
        row.addWidget(self.find_edit, 1)
        close = QPushButton("Close", bar)
        close.clicked.connect(self.hide_find)
        row.addWidget(close)
        bar.hide()
        return bar

    def _make_status_bar(self) -> None:
        sb = self.statusBar()
        self.word_label = QLabel("")
        self.word_label.setTextFormat(Qt.PlainText)  # it shows subtitle words
        self.count_label = QLabel("")
        self.count_label.setTextFormat(Qt.PlainText)
        self.count_label.setMinimumWidth(self.count_label.fontMetrics().horizontalAdvance(
            "9999 to review \u00b7 999 changed \u00b7 9999 accepted \u00b7 99999 words") + 12)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_casing)
        self.cancel_button.hide()
        sb.addWidget(self.word_label, 1)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)
        sb.addPermanentWidget(self.count_label)

    def _action(self, text: str, slot, shortcuts=(), review: bool = False, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcuts:
            a.setShortcuts([QKeySequence(s) for s in shortcuts])
        if review:
            # Single-key review shortcuts live on the cue view only, so typing
            # in the find bar or a dialog never triggers them.
            a.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            self.view.addAction(a)
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(lambda _checked=False: slot())
        return a

    def _make_actions(self) -> None:
        A = self._action
        self.act_open = A("&Open\u2026", self.open_dialog, [QKeySequence.Open])
        self.act_save = A("&Save", self.save, [QKeySequence.Save])
        self.act_save_as = A("Save &As\u2026", self.save_as_dialog, ["Ctrl+Shift+S"])
        self.act_batch = A("&Batch Convert\u2026", self.batch_dialog_from_picker, ["Ctrl+B"])
        self.act_cancel = A("&Cancel Casing", self.cancel_casing, ["Esc"])
        self.act_quit = A("&Quit", self.close, ["Ctrl+Q"])
        self.act_undo = self.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts([QKeySequence.Undo])
        self.act_redo = self.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_find = A("&Find\u2026", self.show_find, [QKeySequence.Find])
        self.act_find_next = A("Find &Next", lambda: self.find_next(), ["F3"])
        self.act_find_prev = A("Find &Previous", lambda: self.find_next(backwards=True), ["Shift+F3"])
        self.act_edit_text = A("&Edit Cue Text\u2026", self.edit_cue_text_dialog, ["F2"], review=True)

        self.act_next = A("&Next Word to Review", self.next_to_review, ["N", "Ctrl+Down"], review=True)
        self.act_prev = A("&Previous Word to Review", self.prev_to_review, ["P", "Ctrl+Up"], review=True)
        self.act_next_word = A("Next &Word", lambda: self.step_word(1), ["Right"], review=True)
        self.act_prev_word = A("Previous W&ord", lambda: self.step_word(-1), ["Left"], review=True)
        self.act_tag = {}
        for tag, key in ((Tag.L, "L"), (Tag.T, "T"), (Tag.U, "U"), (Tag.M, "M")):
            self.act_tag[tag] = A(f"Set {TAG_NAMES[tag]}", lambda t=tag: self.set_tag(t), [key], review=True)
        self.act_cycle = A("&Cycle Tag", self.cycle_tag, ["Space"], review=True)
        self.act_accept = A("&Accept Word", self.accept_word, ["Return", "Enter"], review=True)
        self.act_accept_cue = A("Accept &Rest of Cue", self.accept_cue, ["Ctrl+Return", "Ctrl+Enter"], review=True)
        self.act_alternatives = A("Show &Alternatives", self.show_alternatives_for_current, ["A"], review=True)
        self.act_threshold_down = A("Lower Threshold", lambda: self.nudge_threshold(-0.05), ["["])
        self.act_threshold_up = A("Raise Threshold", lambda: self.nudge_threshold(0.05), ["]"])
        self.act_threshold_reset = A("Model's Default Threshold", self.reset_threshold, [])

        self.mode_group = QActionGroup(self)
        self.act_modes = {}
        for m in MODES:
            a = QAction(m.capitalize(), self, checkable=True)
            a.setChecked(m == self.settings.mode)
            a.triggered.connect(lambda _c=False, m=m: setattr(self.settings, "mode", m))
            self.mode_group.addAction(a)
            self.act_modes[m] = a

        self.act_bigger = A("&Larger Text", lambda: self.apply_font_size(self.settings.font_size + 1, save=True),
                            [QKeySequence.ZoomIn, "Ctrl+="])
        self.act_smaller = A("&Smaller Text", lambda: self.apply_font_size(self.settings.font_size - 1, save=True),
                             [QKeySequence.ZoomOut])
        self.theme_group = QActionGroup(self)
        self.act_themes = {}
        for t in ("system", "light", "dark"):
            a = QAction(t.capitalize(), self, checkable=True)
            a.setChecked(t == self.settings.theme)
            a.triggered.connect(lambda _c=False, t=t: self.set_theme(t))
            self.theme_group.addAction(a)
            self.act_themes[t] = a

        self.act_help = A("&Keyboard Shortcuts", self.show_shortcuts, ["F1"])
        self.act_about = A("&About subcase", self.show_about)
        for a in (self.act_undo, self.act_redo):
            self.addAction(a)

    def _make_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        m.addSeparator()
        m.addAction(self.act_batch)
        m.addAction(self.act_cancel)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Edit")
        for a in (self.act_undo, self.act_redo):
            m.addAction(a)
        m.addSeparator()
        for a in (self.act_find, self.act_find_next, self.act_find_prev):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_edit_text)
        m = mb.addMenu("&Review")
        for a in (self.act_next, self.act_prev, self.act_next_word, self.act_prev_word):
            m.addAction(a)
        m.addSeparator()
        for a in self.act_tag.values():
            m.addAction(a)
        m.addAction(self.act_cycle)
        m.addAction(self.act_alternatives)
        m.addSeparator()
        m.addAction(self.act_accept)
        m.addAction(self.act_accept_cue)
        m.addSeparator()
        for a in (self.act_threshold_down, self.act_threshold_up, self.act_threshold_reset):
            m.addAction(a)
        mode_menu = m.addMenu("Casing &Mode (next file opened)")
        for a in self.act_modes.values():
            mode_menu.addAction(a)
        m = mb.addMenu("&View")
        m.addAction(self.act_bigger)
        m.addAction(self.act_smaller)
        theme_menu = m.addMenu("&Theme")
        for a in self.act_themes.values():
            theme_menu.addAction(a)
        m = mb.addMenu("&Help")
        m.addAction(self.act_help)
        m.addAction(self.act_about)

    def _make_toolbar(self) -> None:
        tb = QToolBar("Review", self)
        tb.setObjectName("review-toolbar")
        for a, short in ((self.act_open, "Open"), (self.act_save, "Save"), (None, ""), (self.act_prev, "\u25c0 Prev"),
                         (self.act_next, "Next \u25b6"), (self.act_accept, "Accept"),
                         (self.act_accept_cue, "Accept cue")):
            if a is None:
                tb.addSeparator()
                continue
            a.setIconText(short)
            tb.addAction(a)
        tb.addSeparator()
        tb.addWidget(QLabel(" Review below: "))
        self.threshold_spin = QDoubleSpinBox(tb)
        self.threshold_spin.setRange(0.0, 1.0)
        self.threshold_spin.setSingleStep(0.05)
        self.threshold_spin.setDecimals(3)
        self.threshold_spin.setToolTip("Words whose confidence is under this threshold are highlighted for review")
        self.threshold_spin.setValue(self.settings.threshold if self.settings.threshold is not None else 0.9)
        self.threshold_spin.valueChanged.connect(self._on_threshold_changed)
        tb.addWidget(self.threshold_spin)
        self.addToolBar(tb)

    def _restore_layout(self) -> None:
        geometry, state, header = self.settings.layout()
        if geometry:
            self.restoreGeometry(geometry)
        else:
            self.resize(1000, 680)
        if state:
            self.restoreState(state)
        if header:
            self.view.horizontalHeader().restoreState(header)

    # ------------------------------------------------------------------ helpers
    @property
    def doc(self) -> Document | None:
        return self.session.doc if self.session else None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def is_modified(self) -> bool:
        return self.session is not None and (not self.undo_stack.isClean() or self.restored_unsaved)

    def _ask_dialog(self, title, text, buttons, default):
        box = QMessageBox(QMessageBox.Question, title, text, buttons, self)
        box.setTextFormat(Qt.PlainText)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def notify(self, title: str, text: str, error: bool = False) -> None:
        """A non-blocking plain-text message (file names and errors are untrusted text)."""
        if error:
            self.last_error = text
        box = QMessageBox(QMessageBox.Warning if error else QMessageBox.Information, title, text,
                          QMessageBox.Ok, self)
        box.setTextFormat(Qt.PlainText)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.statusBar().showMessage(text.splitlines()[0] if text else title, 8000)

    def _form(self, word: str, tag: Tag) -> str:
        engine = self.engines.loaded
        return engine.form(word, tag) if engine is not None else apply_tag(word, tag)

    def _update_actions(self) -> None:
        has_doc = self.session is not None and not self.busy
        for a in (self.act_save, self.act_save_as, self.act_edit_text, self.act_next, self.act_prev,
                  self.act_next_word, self.act_prev_word, self.act_cycle, self.act_accept, self.act_accept_cue,
                  self.act_alternatives, *self.act_tag.values()):
            a.setEnabled(has_doc)
        self.act_cancel.setEnabled(self.busy)
        self.find_edit.setEnabled(self.view.cue_model.doc is not None)

    def _update_status(self) -> None:
        if self.session is None:
            self.count_label.setText("No file" if not self.busy else "")
            self.word_label.setText("")
            return
        c = self.session.state.counts()
        self.count_label.setText(f"{c['to_review']} to review \u00b7 {c['changed']} changed \u00b7 "
                                 f"{c['accepted']} accepted \u00b7 {c['words']} words")
        pos = self.session.state.current
        if pos is None:
            self.word_label.setText("")
            return
        w = self.session.state.word(pos)
        if w.probs is None:
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d (typed by hand)")
        else:
            alts = ", ".join(f"{t.value} {p:.0%}" for t, p in w.alternatives())
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d ({w.status.value}) \u2014 "
                                    f"model {w.model_tag.value} {w.confidence:.0%} [{alts}]")

    def _set_title(self) -> None:
        if self.doc is None or self.doc.path is None:
            self.setWindowTitle("subcase")
            return
        self.setWindowTitle(f"{'*' if self.is_modified() else ''}{self.doc.path.name} \u2014 subcase")

    # ------------------------------------------------------------------ opening
    def open_dialog(self) -> None:
        start = str(Path(self.settings.recent_files[0]).parent) if self.settings.recent_files else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open subtitles", start, FILE_FILTER)
        if path:
            self.open_file(Path(path))

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.recent_files:
            a = self.recent_menu.addAction(p.replace("&", "&&"))
            a.triggered.connect(lambda _c=False, p=p: self.open_file(Path(p)))
        self.recent_menu.setEnabled(bool(self.settings.recent_files))

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        if not self.is_modified():
            return True
        answer = self.ask("Unsaved review", f"Save the changes to {self.doc.path.name if self.doc.path else 'the file'}?",
                          QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        if answer == QMessageBox.Discard:
            self.discard_autosave()
            return True
        return False

    def open_file(self, path: Path) -> bool:
        path = Path(path)
        if not self.confirm_discard():
            return False
        if self.task is not None:
            self.cancel_casing()
        threshold = self.settings.threshold
        task = LoadAndCaseTask(path, self.engines, self.settings.mode, threshold)
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
        return True

    def cancel_casing(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.statusBar().showMessage("Cancelling\u2026")

    def _on_loaded(self, task, doc: Document) -> None:
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

    def _show_session(self) -> None:
        if self.session is None:
            self.view.set_document(None, None)
        else:
            self.view.set_document(self.session.doc, self.session.state)
        self._set_title()
        self._update_status()

    def _on_cancelled(self, task) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()  # back to what was open before, if anything
        self.statusBar().showMessage("Casing cancelled", 5000)
        self.casing_cancelled.emit()

    def _on_failed(self, task, message: str) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()
        self.notify("Cannot open file", f"{task.path}:\n{message}", error=True)
        self.casing_failed.emit(message)

    def _on_cased(self, task, result: CaseResult) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._close_session()
        if self.settings.threshold is None:
            self._set_spin(result.state.threshold)  # the model's calibrated default
        else:
            result.state.threshold = self.threshold_spin.value()
        self.base_sha256 = autosave.file_sha256(result.path)
        log = EditLog(log_path_for(result.path))
        self.session = ReviewSession(result.doc, result.state, result.path, model_version=result.model_version,
                                     model_sha256=result.model_sha256, mode=result.mode, log=log)
        self.session.listeners.append(self._on_session_changed)
        self.settings.add_recent(result.path)
        self._show_session()
        self._update_actions()
        if self.view.cue_model.rowCount():
            self.view.selectRow(0)
        self.view.setFocus()
        left = result.state.to_review()
        self.statusBar().showMessage(f"Cased {result.words} words; {left} to review (press N)", 8000)
        self.casing_finished.emit()

    def _close_session(self) -> None:
        self.undo_stack.clear()
        self.restored_unsaved = False
        self.autosave_timer.stop()
        if self.session is not None:
            self.session.close()
        self.session = None

    # ------------------------------------------------------------------ review
    def _push(self, action: Action) -> None:
        if self.session is None or self.busy:
            return
        self.undo_stack.push(ReviewCommand(self, action))

    def _on_session_changed(self, cues: tuple[int, ...]) -> None:
        self.view.refresh(cues)
        self.goto(self.session.state.current)
        self._update_status()
        self._set_title()
        self.autosave_timer.start()

    def goto(self, pos) -> None:
        """Make ``pos`` the current word, select its cue and scroll to it."""
        if self.session is None:
            return
        state = self.session.state
        old = state.current
        state.current = pos
        if pos is not None:
            index = self.view.cue_model.index(pos[0], COL_TEXT)
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
            self.view.scrollTo(index)
        self.view.refresh({c for c in (old[0] if old else None, pos[0] if pos else None) if c is not None})
        self._update_status()

    def _on_row_changed(self, current, _previous) -> None:
        # Moving to another cue (arrow keys, click, find) puts the cursor just
        # before that cue's first word: N then finds that word too.
        if self.session is None or not current.isValid():
            return
        state = self.session.state
        if state.current is not None and state.current[0] == current.row():
            return
        old = state.current
        state.current = None
        if old is not None:
            self.view.refresh([old[0]])
        self._update_status()

    def _anchor(self):
        """Where navigation starts: the current word, else just before the selected cue."""
        state = self.session.state
        if state.current is not None:
            return state.current
        row = self.view.currentIndex().row()
        return (row, -1) if row >= 0 else None

    def current_pos(self):
        """The current word, or else the first word of the selected cue."""
        if self.session is None:
            return None
        state = self.session.state
        if state.current is not None:
            return state.current
        idx = self.view.currentIndex()
        if idx.isValid() and state.cues[idx.row()]:
            return (idx.row(), 0)
        return None

    def next_to_review(self) -> None:
        if self.session is None:
            return
        pos = self.session.state.next_to_review(self._anchor())
        if pos is None:
            self.statusBar().showMessage("No words left to review", 5000)
            return
        self.goto(pos)

    def prev_to_review(self) -> None:
        if self.session is None:
            return
        pos = self.session.state.next_to_review(self._anchor(), backwards=True)
        if pos is None:
            self.statusBar().showMessage("No words left to review", 5000)
            return
        self.goto(pos)

    def step_word(self, delta: int) -> None:
        if self.session is None:
            return
        state = self.session.state
        if state.current is None and delta > 0 and self.current_pos() is not None:
            self.goto(self.current_pos())
        else:
            self.goto(state.step(self.current_pos(), delta))

    def _advance(self, after) -> None:
        pos = self.session.state.next_to_review(after)
        if pos is not None:
            self.goto(pos)

    def set_tag(self, tag: Tag, advance: bool = True) -> None:
        pos = self.current_pos()
        if pos is None or self.session is None:
            return
        self._push(SetTag(pos, tag, self._form))
        if advance:
            self._advance(pos)

    def cycle_tag(self) -> None:
        pos = self.current_pos()
        if pos is None or self.session is None:
            return
        w = self.session.state.word(pos)
        tag = w.tag
        for _ in range(4):  # skip tags that would write the same form (M without a lexicon entry)
            tag = cycle_tag(tag)
            if self._form(w.form, tag) != w.form:
                break
        self._push(SetTag(pos, tag, self._form))

    def accept_word(self) -> None:
        pos = self.current_pos()
        if pos is None or self.session is None:
            return
        if not self.session.state.word(pos).decided:
            self._push(Accept(pos))
        self._advance(pos)

    def accept_cue(self) -> None:
        if self.session is None:
            return
        pos = self.current_pos()
        row = pos[0] if pos is not None else self.view.currentIndex().row()
        if row < 0:
            return
        state = self.session.state
        if any(w.needs_review(state.threshold) for w in state.cues[row]):
            self._push(AcceptCue(row, state.threshold))
        last = (row, max(0, len(state.cues[row]) - 1))
        nxt = state.next_to_review(last)
        if nxt is not None:
            self.goto(nxt)

    def edit_cue_text(self, cue_index: int, text: str) -> None:
        if self.session is None or self.session.doc.cues[cue_index].text == text:
            return
        self._push(EditText(cue_index, text))

    def edit_cue_text_dialog(self) -> None:
        if self.session is None:
            return
        row = self.view.currentIndex().row()
        if row < 0:
            return
        dialog = QDialog(self)
        dialog.setWindowTitle(f"Edit cue {row + 1}")
        box = QVBoxLayout(dialog)
        edit = QPlainTextEdit(dialog)  # plain text editing: markup stays visible characters
        edit.setPlainText(self.session.doc.cues[row].text)
        box.addWidget(edit)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        box.addWidget(buttons)
        if dialog.exec() == QDialog.Accepted:
            self.edit_cue_text(row, edit.toPlainText())

    def show_alternatives_for_current(self) -> None:
        pos = self.current_pos()
        if pos is None:
            return
        rect = self.view.word_rect(*pos)
        at = self.view.viewport().mapToGlobal(rect.bottomLeft()) if rect is not None else self.mapToGlobal(
            self.rect().center())
        self.show_alternatives(pos[0], pos[1], at)

    def show_alternatives(self, cue: int, slot: int, global_pos) -> None:
        """Clicking a word: its tags ranked by probability, pick one to set it."""
        if self.session is None or self.busy:
            return
        self.goto((cue, slot))
        w = self.session.state.word((cue, slot))
        menu = QMenu(self)
        menu.setAttribute(Qt.WA_DeleteOnClose)
        for tag, p in w.alternatives():
            form = self._form(w.form, tag)
            label = f"{TAG_NAMES[tag]}: {form}" + (f"  ({p:.0%})" if w.probs is not None else "")
            a = menu.addAction(label.replace("&", "&&"))
            a.setData(tag.value)
            a.setCheckable(True)
            a.setChecked(form == w.form)
            a.triggered.connect(lambda _c=False, t=tag: self.set_tag(t, advance=False))
        menu.addSeparator()
        acc = menu.addAction("Accept as it is")
        acc.triggered.connect(self.accept_word)
        self.alternatives_menu = menu
        menu.popup(global_pos)

    # ------------------------------------------------------------------ threshold
    def _set_spin(self, value: float) -> None:
        self.threshold_spin.blockSignals(True)
        self.threshold_spin.setValue(value)
        self.threshold_spin.blockSignals(False)

    def _on_threshold_changed(self, value: float) -> None:
        self.settings.threshold = value
        if self.session is not None:
            self.session.state.threshold = value
            self.view.viewport().update()
            self._update_status()

    def nudge_threshold(self, delta: float) -> None:
        self.threshold_spin.setValue(round(self.threshold_spin.value() + delta, 2))

    def reset_threshold(self) -> None:
        engine = self.engines.loaded
        self.settings.threshold = None
        if engine is not None:
            self._set_spin(engine.info.review_threshold)
            if self.session is not None:
                self.session.state.threshold = engine.info.review_threshold
                self.view.viewport().update()
                self._update_status()

    # ------------------------------------------------------------------ find
    def show_find(self) -> None:
        self.find_bar.show()
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def hide_find(self) -> None:
        self.find_bar.hide()
        self.view.setFocus()

    def find_next(self, text: str | None = None, backwards: bool = False) -> int | None:
        doc = self.view.cue_model.doc
        if text is None:
            text = self.find_edit.text()
            if QApplication.keyboardModifiers() & Qt.ShiftModifier:
                backwards = True
        if doc is None or not text:
            return None
        needle = text.casefold()
        n = len(doc.cues)
        start = self.view.currentIndex().row()
        for k in range(1, n + 1):
            r = (start + (-k if backwards else k)) % n
            if needle in doc.cues[r].plain_text().casefold() or needle in doc.cues[r].text.casefold():
                self.view.selectRow(r)
                self.view.scrollTo(self.view.cue_model.index(r, COL_TEXT))
                self.statusBar().showMessage(f"Found in cue {r + 1}", 3000)
                return r
        self.statusBar().showMessage(f"Not found: {text}", 5000)
        return None

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape and self.find_bar.isVisible():
            self.hide_find()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ saving
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
        path, chosen = QFileDialog.getSaveFileName(self, "Save subtitles as", start,
                                                   "SubRip (*.srt);;WebVTT (*.vtt)",
                                                   "WebVTT (*.vtt)" if self.doc.format == "vtt" else "SubRip (*.srt)")
        if not path:
            return False
        p = Path(path)
        if p.suffix.lower() not in SUBTITLE_SUFFIXES:
            p = p.with_suffix(".vtt" if "vtt" in chosen else ".srt")
        return self.save_to(p)

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Save through the document core (atomic, format and encoding kept unless converting)."""
        session = self.session
        if session is None:
            return False
        doc = session.doc
        texts_before = [c.text for c in doc.cues]
        try:
            written = doc.save(path, format=fmt)
        except (SubtitleError, UnicodeError) as exc:
            self.notify("Cannot save", str(exc), error=True)
            return False
        # A format change re-reads the document; realign words whose cue text moved.
        for c, cue in enumerate(doc.cues):
            if c < len(texts_before) and cue.text != texts_before[c]:
                session.state.cues[c] = realign(session.state.cues[c], cue.words(), c)
        session.log_saved(written, doc.format)
        self.base_sha256 = autosave.file_sha256(written)
        self.restored_unsaved = False
        self.undo_stack.setClean()
        self.discard_autosave()
        self.settings.add_recent(written)
        self._show_session()
        self.statusBar().showMessage(f"Saved {written}", 5000)
        return True

    # ------------------------------------------------------------------ autosave / recovery
    def _on_clean_changed(self, clean: bool) -> None:
        self._set_title()
        if clean and not self.restored_unsaved:
            self.discard_autosave()

    def autosave_now(self, wait: bool = False) -> Path | None:
        """Snapshot the unsaved review; the writing happens on a background thread."""
        s = self.session
        if s is None or not self.is_modified():
            return None
        data = autosave.snapshot(s.doc, s.state, s.source, s.doc.path or s.source, self.base_sha256, mode=s.mode,
                                 model_version=s.model_version, model_sha256=s.model_sha256,
                                 session_id=s.session_id, log_path=s.log.path if s.log else None)
        self.autosaver.submit(data)
        if wait:
            self.autosaver.flush()
            if self.autosaver.last_error:
                self.statusBar().showMessage(f"Autosave failed: {self.autosaver.last_error}", 8000)
        return autosave.snapshot_path_for(s.source)

    def discard_autosave(self) -> None:
        self.autosave_timer.stop()
        if self.session is not None:
            self.autosaver.discard(self.session.source)

    def check_recovery(self) -> bool:
        """Offer to restore a review the app lost in a crash; True if one was restored."""
        for rec in autosave.find_recoverable():
            answer = self.ask("Restore unsaved review",
                              f"subcase closed unexpectedly while you were reviewing\n{rec.source}\n"
                              f"(autosaved {rec.time}).\n\nRestore that review?",
                              QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
            if answer != QMessageBox.Yes:
                rec.path.unlink(missing_ok=True)
                continue
            try:
                self.restore_snapshot(rec.data)
            except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
                self.notify("Cannot restore", f"{rec.source}: {exc}", error=True)
                continue
            return True
        return False

    def restore_snapshot(self, data: dict) -> None:
        doc, state = autosave.restore(data)
        self._close_session()
        log = EditLog(Path(data["log"])) if data.get("log") else EditLog(log_path_for(Path(data["source"])))
        self.session = ReviewSession(doc, state, Path(data["source"]), model_version=data["model_version"],
                                     model_sha256=data["model_sha256"], mode=data["mode"], log=log)
        self.session.listeners.append(self._on_session_changed)
        self.base_sha256 = data["base_sha256"]
        self.restored_unsaved = True
        self._set_spin(state.threshold)
        self._show_session()
        self._update_actions()
        if state.current is not None:
            self.goto(state.current)
        self.autosave_now()  # the snapshot now belongs to this process
        self.statusBar().showMessage("Restored the unsaved review", 8000)

    # ------------------------------------------------------------------ batch, drops
    def batch_dialog_from_picker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder to convert")
        if folder:
            self.open_batch([Path(folder)])

    def open_batch(self, paths: list[Path]) -> BatchDialog:
        dialog = BatchDialog(paths, self.engines, self.settings, self)
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        self.batch_dialogs.append(dialog)
        dialog.destroyed.connect(lambda _o=None, d=dialog: self.batch_dialogs.remove(d)
                                 if d in self.batch_dialogs else None)
        dialog.show()
        self.batch_opened.emit(dialog)
        return dialog

    @staticmethod
    def _dropped_paths(event) -> list[Path]:
        md = event.mimeData()
        if md is None or not md.hasUrls():
            return []
        return [Path(u.toLocalFile()) for u in md.urls() if u.isLocalFile()]

    def dragEnterEvent(self, event) -> None:
        if self._dropped_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = self._dropped_paths(event)
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.handle_paths(paths)

    def handle_paths(self, paths: list[Path]) -> None:
        """One subtitle file opens for review; anything more (or a folder) is a batch."""
        if len(paths) == 1 and paths[0].is_file() and paths[0].suffix.lower() in SUBTITLE_SUFFIXES:
            self.open_file(paths[0])
        else:
            self.open_batch(paths)

    # ------------------------------------------------------------------ view, help
    def apply_font_size(self, size: int, save: bool = False) -> None:
        size = max(6, min(48, size))
        if save:
            self.settings.font_size = size
        font = self.view.font()
        font.setPointSize(size)
        self.view.setFont(font)
        self.view.apply_font_metrics()

    def set_theme(self, name: str) -> None:
        self.settings.theme = name
        theme.apply_theme(QApplication.instance(), name)
        self.view.viewport().update()

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self.menuBar(), self)
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def about_text(self) -> str:
        engine = self.engines.loaded
        if engine is not None:
            model = f"Model {engine.info.version}\nsha256 {engine.info.sha256}\n" \
                    f"Default review threshold {engine.info.review_threshold:.2f}"
        elif self.session is not None:
            model = f"Model {self.session.model_version}\nsha256 {self.session.model_sha256}"
        else:
            model = "Model not loaded yet"
        return f"subcase {subcase.__version__}\nA truecasing editor for subtitles.\n\n{model}"

    def show_about(self) -> QMessageBox:
        box = QMessageBox(QMessageBox.Information, "About subcase", self.about_text(), QMessageBox.Ok, self)
        box.setTextFormat(Qt.PlainText)
        box.setTextInteractionFlags(Qt.TextSelectableByMouse)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        return box

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.confirm_discard():
            event.ignore()
            return
        if self.task is not None:
            self.task.cancel()
        for d in list(self.batch_dialogs):
            d.close()
        self.settings.save_layout(self.saveGeometry(), self.saveState(), self.view.horizontalHeader().saveState())
        self.settings.sync()
        if self.session is not None:
            self.discard_autosave()
        self._close_session()
        self.autosaver.close()
        QThreadPool.globalInstance().waitForDone(10000)
        event.accept()

