"""The main window: open, review by keyboard or mouse, save, batch.

A thin layer over ``subcase.review``: every edit is a review Action run by
the ReviewSession (which writes the edit log) and wrapped in a QUndoCommand.
Loading and casing run in a worker; the window only ever sees finished
objects through queued signals.

MainWindow owns the parts, each a controller in its own module that is
given what it uses (explicit objects, and the window as a narrow typed
protocol where it reads the window's changing state): the actions, menus
and toolbar (``menus.Menus``), the review commands on the undo stack
(``review_commands.ReviewCommands``), saving (``saving.Saving``), autosave
(``autosaving.Autosaving``), edit-log failures
(``edit_log_recovery.EditLogRecovery``), drops and the batch dialog
(``drops.Drops``), the media beside the review (``media_window.WindowMedia``),
opening and casing a file (``opening.Opening``), restoring after a crash
(``recovery.Recovery``) and the find bar (``find_bar``).  What stays here is
the window's own state (the session, the one background task and its
progress), its status bar, the threshold, view settings, help and closing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QThreadPool, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QGuiApplication, QIcon, \
    QUndoStack
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QLabel, QMainWindow, QMessageBox, QProgressBar, \
    QPushButton, QVBoxLayout, QWidget

import subcase
from subcase.paths import resource_path
from subcase.review import ReviewSession
from subcase.subtitles import Document, formats

from . import theme
from .autosaving import Autosaving
from .cue_view import CueView
from .details_panel import WordDetailsDock
from .drops import Drops
from .edit_log_recovery import EditLogRecovery
from .find_bar import FindBar
from .help import ShortcutsDialog
from .limits_dialog import ReadingLimitsDialog
from .media_window import WindowMedia
from .menus import Menus
from .opening import Opening
from .recovery import Recovery
from .review_commands import ReviewCommands
from .saving import Saving
from .settings import MAX_FONT_SIZE, MIN_FONT_SIZE, Settings
from .workers import EngineHolder, LoadAndCaseTask, ModeTask, WarmUpTask

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication

# A first start (no saved geometry) takes this share of the screen's
# available area: room for 20+ cues and the details panel on 1600x1000.
SCREEN_SHARE = 0.9


class MainWindow(QMainWindow):
    casing_finished = Signal()       # a file is open and cased, ready to review
    casing_cancelled = Signal()
    casing_failed = Signal(str)
    cue_text_edited = Signal(int)    # a cue's new text (F2) is in the document, its new words cased
    mode_changed = Signal(str)       # the open file was re-cased in this mode (or the change ended otherwise)
    batch_opened = Signal(object)    # the BatchDialog
    media_opened = Signal(str)       # the media file's name, once the player has it loaded
    media_failed = Signal(str)       # the one message shown for media that cannot be played

    def __init__(self, engines: EngineHolder | None = None, settings: Settings | None = None):
        super().__init__()
        self.engines = engines or EngineHolder()
        self.settings = settings or Settings()
        self.settings.check()  # every stored value in range before any is used; the bad ones reset
        self.session: ReviewSession | None = None
        self.profile_app: ProfileApplication | None = None  # the open file's profile, as applied (review/profiles/apply.py)
        self.task: LoadAndCaseTask | ModeTask | None = None
        self.restored_unsaved = False
        self.last_error = ""
        # Overridable for tests and scripting: ask(title, text, buttons, default) -> button
        self.ask: Callable[[str, str, QMessageBox.StandardButton, QMessageBox.StandardButton],
                           QMessageBox.StandardButton] = self._ask_dialog

        self.setWindowTitle("subcase")
        icon = resource_path("icons/subcase.png")
        if icon.is_file():
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self.edit_log = EditLogRecovery(self, self, self.statusBar(), self._update_status)
        self.drops = Drops(self, self.engines, self.settings, lambda path: self.opening.open_file(path),
                           self.batch_opened.emit)
        self.undo_stack = QUndoStack(self)
        self.autosaving = Autosaving(self, self, self.statusBar(), lambda: self.playback.media_ref)
        self.undo_stack.cleanChanged.connect(self.autosaving.on_clean_changed)
        self.saving = Saving(self, self, self.undo_stack, self.settings, self.statusBar(), self.edit_log,
                             self.autosaving)

        self.view = CueView(self)
        self.commands = ReviewCommands(self, self, self.engines, self.settings, self.view, self.undo_stack,
                                       self.statusBar(), self.edit_log, self.autosaving)
        self.view.word_clicked.connect(self.commands.show_alternatives)
        self.view.selectionModel().currentRowChanged.connect(self.commands.on_row_changed)
        self.find_bar = FindBar(self.view, lambda text, ms: self.statusBar().showMessage(text, ms), self)
        central = QWidget(self)
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.view)
        box.addWidget(self.find_bar)
        self.setCentralWidget(central)
        self.details = WordDetailsDock(self)
        self.details.tag_chosen.connect(lambda tag: self.commands.set_tag(tag, advance=False))
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.details)
        self.playback = WindowMedia(self, self, self.settings, self.view, self.statusBar())
        self.casing_finished.connect(self.playback.open_session_media)
        self.view.set_show_tags(self.settings.show_tags)
        self.view.set_limits(self.settings.cpl_limit, self.settings.cps_limit)

        self._make_status_bar()
        self.threshold_spin = self._make_threshold_spin()
        self.opening = Opening(self, self, self.engines, self.settings, self.view, self.progress, self.cancel_button,
                               self.threshold_spin, self.statusBar(), self.edit_log, self.saving, self.autosaving,
                               self.commands)
        self.recovery = Recovery(self, self.engines, self.settings, self.statusBar(), self.edit_log, self.autosaving,
                                 self.playback, self.opening, self.commands)
        self.opening.restore_origin = self.recovery.finish_restore
        self.cancel_button.clicked.connect(self.opening.cancel_casing)
        self.menus = Menus(self, self, self.settings, self.undo_stack, self.view, self.find_bar, self.details,
                           self.threshold_spin, self.saving, self.drops, self.playback, self.commands, self.opening)
        self.commands.set_mode_actions(self.menus.act_modes)
        self.apply_font_size(self.settings.font_size)
        self._restore_layout()
        self._update_actions()
        self._update_status()
        notice = self.settings.take_notice()  # told once: the values are reset in the settings file
        if notice:
            self.statusBar().showMessage(notice, 20000)

        self._warmup = WarmUpTask(self.engines)
        self._warmup.signals.ready.connect(lambda _e: self._update_status())
        QThreadPool.globalInstance().start(self._warmup)

    # ------------------------------------------------------------------ building
    def _make_status_bar(self) -> None:
        sb = self.statusBar()
        self.word_label = QLabel("")
        self.word_label.setTextFormat(Qt.TextFormat.PlainText)  # it shows subtitle words
        self.log_label = QLabel("")  # says so when the user chose to go on without an edit log
        self.log_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label = QLabel("")
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label.setMinimumWidth(self.count_label.fontMetrics().horizontalAdvance(
            "9999 to review \u00b7 999 changed \u00b7 9999 accepted \u00b7 99999 words") + 12)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        sb.addWidget(self.word_label, 1)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)
        sb.addPermanentWidget(self.log_label)
        sb.addPermanentWidget(self.count_label)

    def _make_threshold_spin(self) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()  # the menus put it in the toolbar
        spin.setRange(0.0, 1.0)
        spin.setSingleStep(0.05)
        spin.setDecimals(3)
        spin.setToolTip("Words whose confidence is under this threshold are highlighted for review")
        spin.setValue(self.settings.threshold if self.settings.threshold is not None else 0.9)
        spin.valueChanged.connect(self._on_threshold_changed)
        return spin

    def _restore_layout(self) -> None:
        geometry, state, header = self.settings.layout()
        if not (geometry and self.restoreGeometry(geometry)):
            screen = self.screen() or QGuiApplication.primaryScreen()
            area = screen.availableGeometry()
            self.resize(int(area.width() * SCREEN_SHARE), int(area.height() * SCREEN_SHARE))
            self.move(area.center() - self.rect().center())
            self.resizeDocks([self.details], [min(340, max(270, self.width() // 5))], Qt.Orientation.Horizontal)
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
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def notify(self, title: str, text: str, error: bool = False) -> None:
        """A non-blocking plain-text message (file names and errors are untrusted text)."""
        if error:
            self.last_error = text
        box = QMessageBox(QMessageBox.Icon.Warning if error else QMessageBox.Icon.Information, title, text,
                          QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.statusBar().showMessage(text.splitlines()[0] if text else title, 8000)

    def _update_status(self) -> None:
        self.log_label.setText("No edit log" if self.session is not None and self.session.log is None else "")
        self._update_details()
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
        if w.probs is None or w.model_tag is None:
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d (typed by hand)")
        else:
            alts = ", ".join(f"{t.value} {p:.0%}" for t, p in w.alternatives())
            reasons = self.flag_reasons(pos)
            why = f" \u2014 why: {'; '.join(reasons)}" if reasons else ""
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d ({w.status.value}) \u2014 "
                                    f"model {w.model_tag.value} {w.confidence:.0%} [{alts}]{why}")

    def flag_reasons(self, pos) -> list[str]:
        """Why the word at ``pos`` is highlighted or was changed by the app (review/flags.py)."""
        if self.session is None:
            return []
        from subcase.review import flag_reasons
        return [str(r) for r in flag_reasons(self.session.state, pos)]

    def _update_details(self) -> None:
        if self.session is None:
            self.details.show_nothing("No file open." if not self.busy else "Casing\u2026")
        elif self.session.state.current is None:
            self.details.show_nothing()
        else:
            self.details.show_word(self.session.state, self.session.state.current, self.commands.write_tag)

    def _set_title(self) -> None:
        if self.doc is None or self.doc.path is None:
            self.setWindowTitle("subcase")
            return
        label = formats.get(self.doc.format).label  # the format it is saved in, whatever its name says
        self.setWindowTitle(f"{'*' if self.is_modified() else ''}{self.doc.path.name} ({label}) \u2014 subcase")

    # ------------------------------------------------------------------ the one background task
    def on_progress(self, task: LoadAndCaseTask | ModeTask, done: int, total: int) -> None:
        """A progress report of the window's task (an older task's reports are ignored)."""
        if task is not self.task:
            return
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def end_task(self) -> None:
        self.task = None
        self.progress.hide()
        self.cancel_button.hide()
        self._update_actions()

    def close_session(self) -> None:
        """Drop the open review: its undo history, the autosave timer, the session and its log."""
        self.undo_stack.clear()
        self.restored_unsaved = False
        self.autosaving.timer.stop()
        if self.session is not None:
            self.session.close()
        self.session = None

    def _show_session(self) -> None:
        if self.session is None:
            self.view.set_document(None, None)
        else:
            self.view.set_document(self.session.doc, self.session.state)
        self._set_title()
        self._update_status()

    def _update_actions(self) -> None:
        self.menus.update_actions()

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

    # ------------------------------------------------------------------ drops (Drops does the work)
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.drops.drag_enter(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self.drops.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.drops.drop(event)

    # ------------------------------------------------------------------ find
    def find_next(self, text: str | None = None, backwards: bool = False) -> int | None:
        """Select the next cue containing ``text`` (by default the find bar's); its row, or None."""
        return self.find_bar.find_next(text, backwards)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.find_bar.isVisible():
            self.find_bar.close_bar()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ view, help
    def apply_font_size(self, size: int, save: bool = False) -> None:
        size = max(MIN_FONT_SIZE, min(MAX_FONT_SIZE, size))
        if save:
            self.settings.font_size = size
        font = self.view.font()
        font.setPointSize(size)
        self.view.setFont(font)
        self.view.apply_font_metrics()

    def set_theme(self, name: str) -> None:
        self.settings.theme = name
        app = QApplication.instance()
        if isinstance(app, QApplication):  # typed QCoreApplication; a window always runs in a QApplication
            theme.apply_theme(app, name)
        self.view.apply_theme()

    def set_show_tags(self, on: bool) -> None:
        self.settings.show_tags = on
        self.view.set_show_tags(on)

    def reading_limits_dialog(self) -> ReadingLimitsDialog:
        dialog = ReadingLimitsDialog(self.settings.cpl_limit, self.settings.cps_limit, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            self.settings.cpl_limit, self.settings.cps_limit = dialog.cpl.value(), dialog.cps.value()
            self.view.set_limits(self.settings.cpl_limit, self.settings.cps_limit)

        dialog.accepted.connect(apply)
        dialog.open()
        return dialog

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self.menuBar(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
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
        box = QMessageBox(QMessageBox.Icon.Information, "About subcase", self.about_text(), QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box

    # ------------------------------------------------------------------ closing
    def quit_on_interrupt(self) -> None:
        """Close without asking (Ctrl-C in the terminal): unsaved work stays in
        its autosave snapshot for the next start to restore, never discarded."""
        self.interrupted = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if getattr(self, "interrupted", False):
            if self.is_modified():
                self.autosaving.save_now(wait=True)
            if self.task is not None:
                self.task.cancel()
            self.playback.close_media()
            for d in list(self.drops.batch_dialogs):
                d.close()  # cancels a running batch after its current window of words
            self.settings.sync()
            if self.session is not None:
                self.session.close()  # closes the log; the snapshot stays
            self.session = None
            self.autosaving.close()
            QThreadPool.globalInstance().waitForDone(10000)
            event.accept()
            return
        if not self.opening.confirm_discard():
            event.ignore()
            return
        if self.task is not None:
            self.task.cancel()
        self.playback.close_media()
        for d in list(self.drops.batch_dialogs):
            d.close()
        self.settings.save_layout(self.saveGeometry(), self.saveState(), self.view.horizontalHeader().saveState())
        self.settings.sync()
        if self.session is not None:
            self.autosaving.discard()
        self.close_session()
        self.autosaving.close()
        QThreadPool.globalInstance().waitForDone(10000)
        event.accept()

