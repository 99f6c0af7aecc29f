"""The main window: the composition root of the GUI.

It makes the one ``OpenReview`` (the open file's session, undo stack and
background task, with the signals every view subscribes to), the widgets,
and the controllers, each given the review and the widgets it uses: opening
(``opening``), crash recovery (``recovery``), saving (``saving``), autosave
(``autosaving``), edit-log failures (``edit_log_recovery``), the review
commands (``navigation``, ``decisions``, ``cue_editing``, ``mode_change``,
``profile_commands``), the threshold, the view options, the media
(``media_window``), drops and batches (``drops``), the actions (``menus``) and
where they show (``menu_bar``).  What stays here is wiring, the title, the
views' one refresh (``_on_changed``) and closing.  docs/dev/architecture.md
draws the data flow.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QItemSelectionModel, QThreadPool, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QGuiApplication, QIcon
from PySide6.QtWidgets import QMainWindow, QVBoxLayout, QWidget

from subcase.paths import resource_path
from subcase.subtitles import formats

from .autosaving import Autosaving
from .cue_editing import CueEditing
from .cue_view import COL_TEXT, CueView
from .decisions import Decisions
from .details_panel import WordDetailsDock
from .drops import Drops
from .edit_log_recovery import EditLogRecovery
from .find_bar import FindBar
from .media_window import WindowMedia
from .menu_bar import MenuBar
from .menus import Menus, Parts
from .mode_change import ModeChange
from .navigation import Navigation
from .open_review import OpenReview
from .opening import Opening
from .profile_commands import ProfileCommands
from .prompts import Ask, Prompts
from .recovery import Recovery
from .review_status import ReviewStatus
from .saving import Saving
from .settings import Settings
from .tasks import run_task
from .threshold import Threshold
from .view_options import ViewOptions
from .workers import EngineHolder, warm_up

# A first start (no saved geometry) takes this share of the screen's
# available area: room for 20+ cues and the details panel on 1600x1000.
SCREEN_SHARE = 0.9


class MainWindow(QMainWindow):
    batch_opened = Signal(object)    # the BatchDialog

    def __init__(self, engines: EngineHolder | None = None, settings: Settings | None = None):
        super().__init__()
        self.engines = engines or EngineHolder()
        self.settings = settings or Settings()
        self.settings.check()  # every stored value in range before any is used; the bad ones reset
        self.review = OpenReview(self)
        self.prompts = Prompts(self, self.statusBar())
        self.setWindowTitle("subcase")
        icon = resource_path("icons/subcase.png")
        if icon.is_file():
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self._make_widgets()
        self._make_controllers()
        self._subscribe()
        self._restore_layout()
        notice = self.settings.take_notice()  # told once: the values are reset in the settings file
        if notice:
            self.statusBar().showMessage(notice, 20000)
        # the engine loaded early, so the first file cases sooner (and About knows the model); a model that
        # cannot load is said when a file is opened
        self._warmup = run_task(partial(warm_up, self.engines), self._on_engine_ready, lambda _message: None)

    # ------------------------------------------------------------------ building
    def _make_widgets(self) -> None:
        self.view = CueView(self)
        self.find_bar = FindBar(self.view, lambda text, ms: self.statusBar().showMessage(text, ms), self)
        central = QWidget(self)
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.view)
        box.addWidget(self.find_bar)
        self.setCentralWidget(central)
        self.details = WordDetailsDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.details)

    def _make_controllers(self) -> None:
        review, prompts, engines, settings, view, sb = (self.review, self.prompts, self.engines, self.settings,
                                                        self.view, self.statusBar())
        # the threshold first: a file opened gets its threshold before any view shows it
        self.threshold = Threshold(review, settings, engines, view)
        self.edit_log = EditLogRecovery(self, review, sb)
        self.playback = WindowMedia(self, review, prompts, settings, view)
        self.autosaving = Autosaving(review, sb, lambda: self.playback.media_ref)
        self.saving = Saving(review, prompts, settings, self.edit_log, self.autosaving)
        self.navigation = Navigation(review, view, sb)
        self.decisions = Decisions(review, self.edit_log, engines, view, sb)
        self.cue_editing = CueEditing(review, self.edit_log, engines, view, sb)
        self.mode_change = ModeChange(review, self.edit_log, engines, settings, sb)
        self.profiles = ProfileCommands(review, self.edit_log, settings, prompts)
        self.opening = Opening(review, prompts, engines, settings, view, self.edit_log, self.saving.confirm_discard)
        self.recovery = Recovery(review, prompts, engines, settings, self.edit_log, self.autosaving, self.playback,
                                 self.opening)
        self.drops = Drops(self, engines, settings, self.opening.open_file, self.batch_opened.emit)
        self.view_options = ViewOptions(self, review, settings, view, engines)
        self.status = ReviewStatus(review, sb, self.details, self.decisions.write_tag)
        self.menus = Menus(self, review, settings, Parts(
            view, self.find_bar, self.details, self.threshold, self.view_options, self.opening, self.saving,
            self.drops, self.playback, self.navigation, self.decisions, self.cue_editing, self.mode_change,
            self.profiles))
        self.menu_bar = MenuBar(self, self.menus.layout(), settings, self.opening.open_file, self.menus.act_new_profile)
        self.menu_bar.toolbar(self.menus.toolbar(), self.threshold.spin)

    def _subscribe(self) -> None:
        review = self.review
        review.opened.connect(self._on_opened)
        review.preview_ended.connect(self._show_session)
        review.closed.connect(self._show_session)
        review.saved.connect(self._on_saved)
        review.changed.connect(self._on_changed)
        review.undo_stack.cleanChanged.connect(self._set_title)
        self.view.word_clicked.connect(self.decisions.show_alternatives)
        self.details.tag_chosen.connect(lambda tag: self.decisions.set_tag(tag, advance=False))
        self.status.cancel_button.clicked.connect(self.opening.cancel_casing)

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

    def _on_engine_ready(self, engine) -> None:
        self.threshold.on_engine_ready(engine)
        self.status.update()

    # ------------------------------------------------------------------ the open review, for tests and scripts
    @property
    def session(self):
        return self.review.session

    @property
    def ask(self) -> Ask:
        return self.prompts.ask

    @ask.setter
    def ask(self, ask: Ask) -> None:  # tests and scripts answer the questions
        self.prompts.ask = ask

    @property
    def last_error(self) -> str:
        return self.prompts.last_error

    # ------------------------------------------------------------------ the views follow the review
    def _on_opened(self) -> None:
        self._show_session()
        current = self.review.session.state.current if self.review.session is not None else None
        if current is not None:  # a restored review goes back to its word, and scrolls there again once the
            self.review.move_to(current)  # rows above it are folded (they are laid out a slice at a time)
            self.view.when_laid_out(self._scroll_to_current)

    def _show_session(self, *_signalled: object) -> None:
        session = self.review.session
        if session is None:
            self.view.set_document(None, None)
        else:
            self.view.set_document(session.doc, session.state)
        self._set_title()
        self.status.update()

    def _on_saved(self, _path: object) -> None:
        """The title names the saved file; the rows are shown again only if the save converted the document
        (another format): a reset of a three-hour file's 37,500 rows stopped the window 0.5-1.8 s."""
        session = self.review.session
        if session is not None and self.view.cue_model.doc is session.doc:
            self._set_title()
            self.status.update()
        else:
            self._show_session()

    def _on_changed(self, rows: tuple[int, ...]) -> None:
        """The one refresh after a key (or an undo): the changed rows, the current word's cue, the title."""
        session = self.review.session
        if session is None:
            return
        self.view.refresh(rows)
        pos = session.state.current
        if pos is not None:
            index = self.view.cue_model.index(pos[0], COL_TEXT)
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.view.scrollTo(index)
        self._set_title()

    def _scroll_to_current(self) -> None:
        session = self.review.session
        if session is not None and session.state.current is not None:
            self.view.scrollTo(self.view.cue_model.index(session.state.current[0], COL_TEXT))

    def _set_title(self, *_signalled: object) -> None:
        doc = self.review.doc
        if doc is None or doc.path is None:
            self.setWindowTitle("subcase")
            return
        label = formats.get(doc.format).label  # the format it is saved in, whatever its name says
        self.setWindowTitle(f"{'*' if self.review.is_modified() else ''}{doc.path.name} ({label}) \u2014 subcase")

    # ------------------------------------------------------------------ drops (Drops does the work)
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.drops.drag_enter(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self.drops.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.drops.drop(event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.find_bar.isVisible():
            self.find_bar.close_bar()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ closing
    def quit_on_interrupt(self) -> None:
        """Close without asking (Ctrl-C in the terminal): unsaved work stays in
        its autosave snapshot for the next start to restore, never discarded."""
        self.interrupted = True
        self.close()

    def _stop_work(self) -> None:
        self.review.cancel_task()
        self.playback.close_media()
        for d in list(self.drops.batch_dialogs):
            d.close()  # cancels a running batch after its current window of words

    def closeEvent(self, event: QCloseEvent) -> None:
        if getattr(self, "interrupted", False):
            if self.review.is_modified():
                self.autosaving.save_now(wait=True)
            self._stop_work()
            self.settings.sync()
            self.review.forget()  # closes the log; the snapshot stays
        else:
            if not self.saving.confirm_discard():
                event.ignore()
                return
            self._stop_work()
            self.settings.save_layout(self.saveGeometry(), self.saveState(),
                                      self.view.horizontalHeader().saveState())
            self.settings.sync()
            if self.review.session is not None:
                self.autosaving.discard()
            self.review.close()
        self.autosaving.close()
        QThreadPool.globalInstance().waitForDone(10000)
        event.accept()

