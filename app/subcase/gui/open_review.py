"""The open review: the one object the window's parts share, and the signals they subscribe to.

gaupol's ``Project`` in Qt terms: a small QObject (it lives in gui/, not
review/, because it owns the undo stack and the one background task, both
Qt objects, and its signals are Qt's, queued across threads for free).
``OpenReview`` owns the session, the profile as applied, whether a restored
review is still unsaved, the undo stack, the one background task, and the
install and close sequence.  Controllers change it only through its methods;
views hear about it only through its signals:

    opened          a session is installed (a file cased, a review restored)
    closed          the session was closed
    changed(cues)   one key's edits and cursor moves are done: the rows to paint again
    saved(path)     the review was saved there
    mode_changed(m) the open file was re-cased in mode m (or the change ended otherwise)
    busy_changed(b) the one background task started or ended
    profile_changed another profile applies to the open file
    progress(d, n)  the task's progress
    preview_ended   a file shown while it was cased did not open: the views show the open review again

and, for the end of an opening (tests and the media wait on them):
casing_finished, casing_cancelled, casing_failed(message), cue_text_edited(cue).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from subcase.casing.gcpause import release_frozen
from subcase.review import ReviewSession
from subcase.subtitles import Document

from .tasks import Task

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication


class OpenReview(QObject):
    opened = Signal()
    closed = Signal()
    changed = Signal(object)       # tuple[int, ...]: cue rows to paint again
    saved = Signal(object)         # Path
    mode_changed = Signal(str)
    busy_changed = Signal(bool)
    progress = Signal(int, int)    # done, total of the one background task
    profile_changed = Signal()     # another profile applies to the open file
    preview_ended = Signal()       # a file being opened was shown uncased and is not opened: show this one again
    casing_finished = Signal()     # a file is open and cased (or restored), its rows laid out: ready to review
    casing_cancelled = Signal()
    casing_failed = Signal(str)
    cue_text_edited = Signal(int)  # a cue's new text (F2) is in the document, its new words cased

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.session: ReviewSession | None = None
        self.profile_app: ProfileApplication | None = None  # the open file's profile, as applied
        self.restored_unsaved = False  # restored after a crash and not saved since: modified though clean
        self.task: Task | None = None
        self.undo_stack = QUndoStack(self)
        self._pending: set[int] | None = None  # the rows of the change being gathered (``one_change``)
        self._when_idle: list[Callable[[], object]] = []  # edits that came while the task ran (``when_idle``)

    @property
    def doc(self) -> Document | None:
        return self.session.doc if self.session is not None else None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def is_modified(self) -> bool:
        return self.session is not None and (not self.undo_stack.isClean() or self.restored_unsaved)

    # ------------------------------------------------------------------ install and close
    def install(self, session: ReviewSession, restored: bool = False) -> None:
        """Make ``session`` the open review (the previous one is closed first)."""
        self.close()
        self.session = session
        self.profile_app = session.profile
        self.restored_unsaved = restored
        session.listeners.append(self._on_session_changed)
        self.opened.emit()

    def close(self) -> None:
        """Drop the open review: its undo history, the session and its log."""
        self.undo_stack.clear()
        self.restored_unsaved = False
        self._when_idle.clear()
        if self.session is not None:
            self.session.close()
            self.session = None
            self.closed.emit()
            release_frozen()  # its objects were frozen when it opened (casing/gcpause.py)

    def forget(self) -> None:
        """Closing the window without asking (Ctrl-C): the log is closed, the snapshot and undo stay."""
        if self.session is not None:
            self.session.close()
        self.session = None

    def apply_profile(self, app: ProfileApplication) -> None:
        """``app`` is the open file's profile from now on: its flags and the file's next save use it."""
        self.profile_app = app
        if self.session is not None and self.session.state.flag_context is not None:
            self.session.state.flag_context.profile = app
        self.profile_changed.emit()

    def mark_saved(self, path: Path) -> None:
        self.restored_unsaved = False
        self.undo_stack.setClean()
        self.saved.emit(path)

    # ------------------------------------------------------------------ the cursor
    def move_to(self, pos: tuple[int, int] | None) -> None:
        """Make ``pos`` the current word (None: none); the views select its cue and scroll to it."""
        if self.session is None:
            return
        state = self.session.state
        old = state.current
        state.current = pos
        self.touch([old[0] if old else None, pos[0] if pos else None])

    def current_pos(self, selected_row: int) -> tuple[int, int] | None:
        """The current word, or else the first word of the selected cue (-1: none selected)."""
        if self.session is None:
            return None
        state = self.session.state
        if state.current is not None:
            return state.current
        if 0 <= selected_row < len(state.cues) and state.cues[selected_row]:
            return (selected_row, 0)
        return None

    def advance(self, after: tuple[int, int]) -> None:
        """On to the next word to review after ``after``, if there is one."""
        if self.session is None:
            return
        pos = self.session.state.next_to_review(after)
        if pos is not None:
            self.move_to(pos)

    # ------------------------------------------------------------------ changes
    def _on_session_changed(self, cues: tuple[int, ...]) -> None:
        session = self.session
        if session is None:
            return
        # A sentence end set or taken away after a cue's last word re-cases the first word of the next cue,
        # which the action does not list: that row is painted again too (one row, cheap).
        n = len(session.doc.cues)
        self.touch(set(cues) | {c + 1 for c in cues if c + 1 < n})

    def touch(self, rows: Iterable[int | None]) -> None:
        """These rows changed (an edit, the cursor left or reached them): ``changed`` now, or once the
        change being gathered ends."""
        known = {r for r in rows if r is not None}
        if self._pending is not None:
            self._pending |= known
        else:
            self.changed.emit(tuple(sorted(known)))

    @contextmanager
    def one_change(self) -> Iterator[None]:
        """Gather the edits and moves of one key into one ``changed``: the views refresh once per key."""
        if self._pending is not None:  # nested: the outer one emits
            yield
            return
        self._pending = set()
        try:
            yield
        finally:
            rows, self._pending = self._pending, None
            self.changed.emit(tuple(sorted(rows)))

    # ------------------------------------------------------------------ the one background task
    def begin_task(self, task: Task) -> None:
        if self.task is not None:
            self.task.cancel()
        self.task = task
        self.busy_changed.emit(True)

    def end_task(self, task: Task) -> bool:
        """The task ended; False when it is not the current one (replaced or cancelled since): ignore it."""
        if task is not self.task:
            return False
        self.task = None
        self.busy_changed.emit(False)
        waiting, self._when_idle = self._when_idle, []
        for call in waiting:
            if self.task is None:
                call()
            else:  # one of them started a task: the rest wait for its end
                self._when_idle.append(call)
        return True

    def when_idle(self, call: Callable[[], object]) -> None:
        """``call()`` now, or when the background task ends if one runs: an edit finished in its own task
        (a cue's new words cased) while the review takes none (a save being written) is not lost."""
        if self.task is None:
            call()
        else:
            self._when_idle.append(call)

    def report_progress(self, task: Task, done: int, total: int) -> None:
        if task is self.task:  # an older task's reports are ignored
            self.progress.emit(done, total)

    def cancel_task(self) -> bool:
        if self.task is None:
            return False
        self.task.cancel()
        return True
