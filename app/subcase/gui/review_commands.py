"""Review commands: moving between words and deciding them, each edit on the undo stack.

``ReviewCommands`` is owned by MainWindow.  Every edit is a ``subcase.review`` Action that the
ReviewSession performs (and writes to the edit log), wrapped in a
QUndoCommand so Ctrl+Z reverts it through the session too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, QThreadPool, SignalInstance
from PySide6.QtGui import QAction, QKeySequence, QShortcut, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMainWindow, QMenu, QPlainTextEdit, QProgressBar, \
    QPushButton, QStatusBar, QVBoxLayout

from subcase.casing import TAG_NAMES, Tag, apply_tag, cue_context
from subcase.casing.auto import mode_of_cue
from subcase.casing.marks import MARK_NAMES, MARKS
from subcase.review import Accept, AcceptCue, EditText, ReviewSession, SetMark, SetTag
from subcase.review.actions import Action, next_distinct_tag
from subcase.review.remode import ChangeMode

from .autosaving import Autosaving
from .cue_view import COL_TEXT, CueView
from .edit_log_recovery import EditLogRecovery
from .settings import Settings
from .workers import CaseCueTask, EngineHolder, LoadAndCaseTask, ModeTask, TermImportTask

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication

    from .profile_dialog import ProfileDialog


def next_mark(mark: str) -> str:
    """The mark after ``mark`` in the cycle of the mark key: none, comma, full stop, question mark,
    exclamation mark, none."""
    return MARKS[(MARKS.index(mark) + 1) % len(MARKS)]


class RunsLogged(Protocol):
    """What a ReviewCommand needs to run its steps (``EditLogRecovery.run_logged``)."""

    def run_logged(self, step: Callable[[], None], can_cancel: bool) -> bool: ...


class ReviewCommand(QUndoCommand):
    """A review Action on the Qt undo stack.

    It holds the session it was pushed for: the window clears the stack
    whenever it closes a session, so the two never part.  The action is
    performed (and logged) before the command is pushed, so a decision the
    edit log refused never reaches the stack; the push's own redo() is
    therefore skipped once.  Later undo/redo go through the edit log's
    ``run_logged``, which asks the user if the log cannot be written.
    """

    def __init__(self, logged: RunsLogged, session: ReviewSession, action: Action, performed: bool = False):
        super().__init__(action.label)
        self.logged, self.session, self.action = logged, session, action
        self._skip_redo = performed

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.logged.run_logged(lambda: self.session.perform(self.action), can_cancel=False)

    def undo(self) -> None:
        self.logged.run_logged(lambda: self.session.revert(self.action), can_cancel=False)


class CommandsWindow(Protocol):
    """What the review commands read and change on the window: the open review, the one background
    task and its progress, the profile, and how the window shows them."""

    @property
    def session(self) -> ReviewSession | None: ...

    @property
    def busy(self) -> bool: ...

    task: LoadAndCaseTask | ModeTask | None
    profile_app: ProfileApplication | None

    @property
    def progress(self) -> QProgressBar: ...

    @property
    def cancel_button(self) -> QPushButton: ...

    @property
    def mode_changed(self) -> SignalInstance: ...

    @property
    def cue_text_edited(self) -> SignalInstance: ...

    def notify(self, title: str, text: str, error: bool = False) -> None: ...
    def on_progress(self, task: LoadAndCaseTask | ModeTask, done: int, total: int) -> None: ...
    def end_task(self) -> None: ...
    def _update_status(self) -> None: ...
    def _set_title(self) -> None: ...
    def _update_actions(self) -> None: ...


class ReviewCommands:
    """Navigation (N/P, arrows, goto) and review edits (tags, accept, cue text, alternatives)."""

    def __init__(self, window: CommandsWindow, parent: QMainWindow, engines: EngineHolder, settings: Settings,
                 view: CueView, undo_stack: QUndoStack, status_bar: QStatusBar, edit_log: EditLogRecovery,
                 autosaving: Autosaving):
        self.window = window
        self.parent = parent  # the dialogs' and menus' parent
        self.engines = engines
        self.settings = settings
        self.view = view
        self.undo_stack = undo_stack
        self.status_bar = status_bar
        self.edit_log = edit_log
        self.autosaving = autosaving
        self.mode_actions: dict[str, QAction] = {}  # the Casing Mode menu (``set_mode_actions``)
        self.cue_edit_dialog: QDialog | None = None  # the F2 box while it is open
        self.alternatives_menu: QMenu | None = None
        self.profile_dialog: ProfileDialog | None = None
        self._cue_tasks: set[CaseCueTask] = set()  # casings of F2-edited cues in flight (kept until they report)
        self._term_import: TermImportTask | None = None  # kept alive until it reports

    def set_mode_actions(self, actions: dict[str, QAction]) -> None:
        """The Casing Mode menu's actions, made after this controller: an undone mode change shows there."""
        self.mode_actions = actions

    def write_tag(self, word: str, tag: Tag) -> str:
        engine = self.engines.loaded
        return engine.form(word, tag) if engine is not None else apply_tag(word, tag)

    def _push(self, action: Action) -> None:
        if self.window.session is None or self.window.busy:
            return
        session = self.window.session
        if self.edit_log.run_logged(lambda: session.perform(action), can_cancel=True):
            self.undo_stack.push(ReviewCommand(self.edit_log, session, action, performed=True))

    def on_session_changed(self, cues: tuple[int, ...]) -> None:
        session = self.window.session
        if session is None:  # a listener of the open session: it is never called without one
            return
        # A sentence end set or taken away after a cue's last word re-cases the first word of the next cue,
        # which the action does not list: that row is painted again too (one row, cheap).
        n = len(session.doc.cues)
        self.view.refresh(sorted(set(cues) | {c + 1 for c in cues if c + 1 < n}))
        self.goto(session.state.current)
        self.window._update_status()
        self.window._set_title()
        self.autosaving.schedule()
        if session.mode in self.mode_actions:  # an undone mode change shows in the menu
            self.mode_actions[session.mode].setChecked(True)

    def change_mode(self, mode: str) -> None:
        """The casing mode, for the next files and the open one: that is re-cased in a worker, with
        progress and Cancel, and the result is one undoable step (``review.remode``)."""
        self.settings.mode = mode
        session = self.window.session
        if session is None or session.mode == mode:
            return
        if self.window.busy:
            self.mode_actions[session.mode].setChecked(True)
            self.status_bar.showMessage("Wait for the casing to end before changing the mode", 8000)
            return
        task = ModeTask(self.engines, session.doc, session.state, mode, self.settings.house_styles())
        s = task.signals
        s.progress.connect(lambda d, n, t=task: self.window.on_progress(t, d, n))
        s.cased.connect(lambda fresh, t=task: self._on_mode_cased(t, session, fresh))
        s.cancelled.connect(lambda t=task: self._on_mode_ended(t, session, "Mode change cancelled"))
        s.failed.connect(lambda msg, t=task: self._on_mode_ended(t, session, f"Mode not changed: {msg}"))
        self.window.task = task
        self.window.progress.setRange(0, 0)
        self.window.progress.show()
        self.window.cancel_button.show()
        self.status_bar.showMessage(f"Casing the file again in mode {mode}\u2026")
        self.window._update_actions()
        QThreadPool.globalInstance().start(task)

    def _on_mode_cased(self, task: ModeTask, session: ReviewSession, fresh) -> None:
        if task is not self.window.task:
            return
        self.window.end_task()
        if self.window.session is session:
            self._push(ChangeMode(task.mode, session.mode, fresh))
            left = session.state.to_review()
            self.status_bar.showMessage(f"Mode {session.mode}: {left} to review (Ctrl+Z undoes the change)", 10000)
            self.window._update_status()
        self.window.mode_changed.emit(task.mode)

    def _on_mode_ended(self, task: ModeTask, session: ReviewSession, message: str) -> None:
        if task is not self.window.task:
            return
        self.window.end_task()
        if self.window.session is session:
            self.mode_actions[session.mode].setChecked(True)
        self.status_bar.showMessage(message.splitlines()[-1] if message else "", 10000)
        self.window.mode_changed.emit(session.mode)

    def goto(self, pos) -> None:
        """Make ``pos`` the current word, select its cue and scroll to it."""
        if self.window.session is None:
            return
        state = self.window.session.state
        old = state.current
        state.current = pos
        if pos is not None:
            index = self.view.cue_model.index(pos[0], COL_TEXT)
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.view.scrollTo(index)
        self.view.refresh({c for c in (old[0] if old else None, pos[0] if pos else None) if c is not None})
        self.window._update_status()

    def on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # Moving to another cue (arrow keys, click, find) puts the cursor just
        # before that cue's first word: N then finds that word too.
        if self.window.session is None or not current.isValid():
            return
        state = self.window.session.state
        if state.current is not None and state.current[0] == current.row():
            return
        old = state.current
        state.current = None
        if old is not None:
            self.view.refresh([old[0]])
        self.window._update_status()

    def _anchor(self):
        """Where navigation starts: the current word, else just before the selected cue."""
        if self.window.session is None:
            return None
        state = self.window.session.state
        if state.current is not None:
            return state.current
        row = self.view.currentIndex().row()
        return (row, -1) if row >= 0 else None

    def current_pos(self):
        """The current word, or else the first word of the selected cue."""
        if self.window.session is None:
            return None
        state = self.window.session.state
        if state.current is not None:
            return state.current
        idx = self.view.currentIndex()
        if idx.isValid() and state.cues[idx.row()]:
            return (idx.row(), 0)
        return None

    def next_to_review(self) -> None:
        if self.window.session is None:
            return
        pos = self.window.session.state.next_to_review(self._anchor())
        if pos is None:
            self.status_bar.showMessage("No words left to review", 5000)
            return
        self.goto(pos)

    def prev_to_review(self) -> None:
        if self.window.session is None:
            return
        pos = self.window.session.state.next_to_review(self._anchor(), backwards=True)
        if pos is None:
            self.status_bar.showMessage("No words left to review", 5000)
            return
        self.goto(pos)

    def step_word(self, delta: int) -> None:
        if self.window.session is None:
            return
        state = self.window.session.state
        if state.current is None and delta > 0 and self.current_pos() is not None:
            self.goto(self.current_pos())
        else:
            self.goto(state.step(self.current_pos(), delta))

    def _advance(self, after) -> None:
        if self.window.session is None:
            return
        pos = self.window.session.state.next_to_review(after)
        if pos is not None:
            self.goto(pos)

    def set_tag(self, tag: Tag, advance: bool = True) -> None:
        pos = self.current_pos()
        if pos is None or self.window.session is None:
            return
        self._push(SetTag(pos, tag, self.write_tag))
        if advance:
            self._advance(pos)

    def take_model_form(self) -> None:
        """The model's own tag for the current word: one key where auto mode kept the input's casing and
        the model would write the word otherwise."""
        pos = self.current_pos()
        if pos is None or self.window.session is None:
            return
        tag = self.window.session.state.word(pos).model_tag
        if tag is not None:
            self.set_tag(tag)

    def cycle_tag(self) -> None:
        pos = self.current_pos()
        if pos is None or self.window.session is None:
            return
        tag = next_distinct_tag(self.window.session.state.word(pos), self.write_tag)
        self._push(SetTag(pos, tag, self.write_tag))

    def accept_word(self) -> None:
        """Accept the current word, and the mark restored after it, then go on to the next word to review."""
        pos = self.current_pos()
        if pos is None or self.window.session is None:
            return
        state = self.window.session.state
        w = state.word(pos)
        # a word decided before its mark (its tag set by hand) still has the mark to accept
        if not w.decided or w.mark_needs_review(state.mark_threshold):
            self._push(Accept(pos))
        self._advance(pos)

    def cycle_mark(self) -> None:
        """The next mark after the current word (none, comma, full stop, question mark, exclamation mark),
        on any word: a missing mark is added so.  One undo step; the cursor stays, so the key goes on
        cycling."""
        self.set_mark(None)

    def remove_mark(self) -> None:
        """Take away the mark after the current word."""
        self.set_mark("")

    def set_mark(self, mark: str | None) -> None:
        """Make ``mark`` (one of MARKS; None: the next in the cycle) the mark after the current word; the
        mark that is there already, chosen again, is accepted."""
        pos = self.current_pos()
        session = self.window.session
        if pos is None or session is None or self.window.busy:
            return
        doc, state = session.doc, session.state
        word = state.word(pos).form
        if not SetMark.applies(doc, state, pos):
            self.status_bar.showMessage(f"No mark can follow \u201c{word}\u201d: it ends inside a token", 5000)
            return
        now = SetMark.mark_at(doc, state, pos)
        if mark is None:
            mark = next_mark(now)
        elif mark == now == "":
            self.status_bar.showMessage(f"No mark after \u201c{word}\u201d to remove", 5000)
            return
        if state.current != pos:
            self.goto(pos)
        # in the cue's language: a Spanish "?" opens its sentence with "¿", a French one is spaced
        self._push(SetMark(pos, mark, self.write_tag, session.cue_language(pos[0])))
        self.status_bar.showMessage(f"Mark after \u201c{word}\u201d: {MARK_NAMES[mark]} (Ctrl+Z undoes it)", 5000)

    def accept_cue(self) -> None:
        if self.window.session is None:
            return
        pos = self.current_pos()
        row = pos[0] if pos is not None else self.view.currentIndex().row()
        if row < 0:
            return
        state = self.window.session.state
        if any(state.needs_review((row, s)) for s in range(len(state.cues[row]))):  # words, or marks after them
            self._push(AcceptCue(row, state.threshold))
        last = (row, max(0, len(state.cues[row]) - 1))
        nxt = state.next_to_review(last)
        if nxt is not None:
            self.goto(nxt)

    def edit_cue_text(self, cue_index: int, text: str, cased=None) -> None:
        """Replace a cue's text as one undoable step; ``cased``, the model's casing of the new text."""
        if self.window.session is None or self.window.session.doc.cues[cue_index].text == text:
            return
        self._push(EditText(cue_index, text, cased))

    def edit_cue_text_cased(self, cue_index: int, text: str) -> None:
        """Replace a cue's text once the model has cased its new words, in a worker; then
        ``cue_text_edited`` is emitted.  If the model fails, the words are kept as typed."""
        session = self.window.session
        if session is None or session.doc.cues[cue_index].text == text:
            return
        langs = session.cue_languages
        lang = langs[cue_index] if langs is not None and cue_index < len(langs) else "auto"
        mode = mode_of_cue(session.mode, session.state.passages, cue_index)
        task = CaseCueTask(self.engines, cue_context(session.doc, cue_index), cue_index, text, mode, lang)
        self._cue_tasks.add(task)

        def done(words, failed: str | None = None) -> None:
            self._cue_tasks.discard(task)
            if self.window.session is not session:
                return  # the file was closed meanwhile
            if failed is not None:
                self.status_bar.showMessage(f"The new words are kept as typed: {failed.splitlines()[-1]}", 10000)
            self.edit_cue_text(cue_index, text, words)
            self.window.cue_text_edited.emit(cue_index)

        task.signals.cased.connect(done)
        task.signals.failed.connect(lambda message: done(None, message))
        self.status_bar.showMessage(f"Casing the new text of cue {cue_index + 1}\u2026")
        QThreadPool.globalInstance().start(task)

    def edit_cue_text_dialog(self) -> None:
        """The F2 box: plain text (markup stays visible characters); OK or Ctrl+Enter confirms."""
        if self.window.session is None:
            return
        row = self.view.currentIndex().row()
        if row < 0:
            return
        dialog = QDialog(self.parent)
        dialog.setWindowTitle(f"Edit cue {row + 1}")
        box = QVBoxLayout(dialog)
        edit = QPlainTextEdit(dialog)
        edit.setPlainText(self.window.session.doc.cues[row].text)
        box.addWidget(edit)
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

    def show_profile_dialog(self) -> None:
        from .profile_dialog import ProfileDialog

        app = self.window.profile_app
        if self.window.session is None or app is None:
            return
        self.profile_dialog = ProfileDialog(self, app, self.parent)
        self.profile_dialog.show()

    def import_terms_dialog(self) -> None:
        """File > Import Terms: a term list into the chosen profile (asked for when none is chosen)."""
        from PySide6.QtWidgets import QFileDialog, QInputDialog

        path, _ = QFileDialog.getOpenFileName(self.parent, "Import terms", "",
                                              "Term lists (*.txt *.xml *.dic);;All files (*)")
        if not path:
            return
        name = self.settings.profile
        if not name:
            name, ok = QInputDialog.getText(self.parent, "Import terms", "Profile to keep the terms in (e.g. \"Lupin S1\"):",
                                            text=Path(path).stem)
            if not ok or not name.strip():
                return
        self.import_terms(name.strip(), [Path(path)])

    def import_terms(self, profile: str, paths: list[Path]) -> None:
        """Read and store the lists off the GUI thread (TermImportTask); the profile is chosen for the next
        file opened and the batches, where its terms apply."""
        task = TermImportTask(profile, paths)
        self._term_import = task  # kept alive until it reports
        task.signals.done.connect(self._terms_imported)
        task.signals.failed.connect(lambda text: self.window.notify("Cannot import the terms", text, error=True))
        QThreadPool.globalInstance().start(task)

    def _terms_imported(self, result) -> None:
        profile, lists, counts = result
        self.settings.profile = profile.name
        what = ", ".join(f"{t.name}: {len(t.terms)} terms ({n} new or changed)" for t, n in zip(lists, counts))
        self.status_bar.showMessage(f"Profile {profile.name}: {what}; they apply to the next file opened", 10000)

    def new_profile_dialog(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        name, ok = QInputDialog.getText(self.parent, "New profile", "Name of the series (e.g. \"Lupin S1\"):")
        if ok and name.strip():
            self.new_profile(name.strip())

    def new_profile(self, name: str) -> bool:
        """A profile built from this file's log, chosen for this file and the next ones; saving the
        file updates it (saving.py)."""
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.profiles.build import build_from_logs
        from subcase.review.profiles.apply import ProfileApplication

        if self.window.session is None:
            return False
        try:
            if profile_store.exists(name):
                raise ProfileError(f"a profile named {name!r} exists already")
            logs = [self.window.session.log.path] if self.window.session.log is not None and self.window.session.log.path.is_file() else []
            profile = build_from_logs(name, self.window.session.model_version, logs)
            profile_store.save(profile)
        except ProfileError as exc:
            self.window.notify("Cannot create the profile", str(exc), error=True)
            return False
        self.settings.profile = name
        self.window.profile_app = ProfileApplication(profile)
        if self.window.session.state.flag_context is not None:
            self.window.session.state.flag_context.profile = self.window.profile_app
        self.window._update_actions()
        self.status_bar.showMessage(f"Profile {name} created; it learns from this file when you save", 8000)
        return True

    def remove_profile_entry(self, entry_id: str) -> None:
        """Take a wrong entry out of the open file's profile: its words go back, one undo step."""
        from subcase.review.profiles.apply import RemoveEntry

        from .profile_dialog import persist

        app = self.window.profile_app
        if self.window.session is None or app is None:
            return
        self._push(RemoveEntry(app, entry_id, persist))
        self.status_bar.showMessage(f"Removed from profile {app.profile.name}: {entry_id} (Ctrl+Z brings it back)",
                                     8000)

    def show_alternatives_for_current(self) -> None:
        pos = self.current_pos()
        if pos is None:
            return
        rect = self.view.word_rect(*pos)
        at = self.view.viewport().mapToGlobal(rect.bottomLeft()) if rect is not None else self.parent.mapToGlobal(
            self.parent.rect().center())
        self.show_alternatives(pos[0], pos[1], at)

    def show_alternatives(self, cue: int, slot: int, global_pos: QPoint) -> None:
        """Clicking a word: its tags ranked by probability, pick one to set it."""
        if self.window.session is None or self.window.busy:
            return
        self.goto((cue, slot))
        w = self.window.session.state.word((cue, slot))
        menu = QMenu(self.parent)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        for tag, p in w.alternatives():
            form = self.write_tag(w.form, tag)
            label = f"{TAG_NAMES[tag]}: {form}" + (f"  ({p:.0%})" if w.probs is not None else "")
            a = menu.addAction(label.replace("&", "&&"))
            a.setData(tag.value)
            a.setCheckable(True)
            a.setChecked(form == w.form)
            a.triggered.connect(lambda _c=False, t=tag: self.set_tag(t, advance=False))
        menu.addSeparator()
        self._add_mark_choices(menu, (cue, slot))
        acc = menu.addAction("Accept as it is")
        acc.triggered.connect(self.accept_word)
        self.alternatives_menu = menu
        menu.popup(global_pos)

    def _add_mark_choices(self, menu: QMenu, pos) -> None:
        """The marks that can follow the word, with the model's probability of each where it restored one."""
        session = self.window.session
        assert session is not None
        doc, state = session.doc, session.state
        if not SetMark.applies(doc, state, pos):
            return
        now = SetMark.mark_at(doc, state, pos)
        restored = state.word(state.pieces.get(pos, (pos,))[0]).mark
        for k, mark in enumerate(MARKS):
            label = f"Mark after: {MARK_NAMES[mark]}" + (f" ({mark})" if mark else "")
            if restored is not None:
                label += f"  ({restored.probs[k]:.0%})"
            a = menu.addAction(label)
            a.setCheckable(True)
            a.setChecked(mark == now)
            a.triggered.connect(lambda _c=False, m=mark: self.set_mark(m))
        menu.addSeparator()
