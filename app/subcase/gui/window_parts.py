"""What the opening and recovery mixins use of MainWindow, declared for the type checker.

The two are still mixins of the window (the other parts are controllers that
are given what they use).  Under ``TYPE_CHECKING`` they derive from
``WindowParts``, so mypy checks their bodies against these declarations,
and checks MainWindow, which defines them all, against the same; at run time
their base is ``object``.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDoubleSpinBox, QMainWindow, QMessageBox, QProgressBar, QPushButton

from subcase.review import ReviewSession
from subcase.subtitles import Document

from .autosaving import Autosaving
from .cue_view import CueView
from .edit_log_recovery import EditLogRecovery
from .media_window import WindowMedia
from .saving import Saving
from .settings import Settings
from .workers import CaseResult, EngineHolder, LoadAndCaseTask, ModeTask

if TYPE_CHECKING:
    from subcase.review.profiles.apply import ProfileApplication


class WindowParts(QMainWindow):
    """Declarations only: MainWindow and the two mixins define all of these."""

    engines: EngineHolder
    settings: Settings
    session: ReviewSession | None
    profile_app: ProfileApplication | None
    task: LoadAndCaseTask | ModeTask | None
    restored_unsaved: bool
    ask: Callable[[str, str, QMessageBox.StandardButton, QMessageBox.StandardButton], QMessageBox.StandardButton]
    undo_stack: QUndoStack
    view: CueView
    progress: QProgressBar
    cancel_button: QPushButton
    threshold_spin: QDoubleSpinBox
    edit_log: EditLogRecovery
    autosaving: Autosaving
    saving: Saving
    playback: WindowMedia
    casing_finished = Signal()
    casing_cancelled = Signal()
    casing_failed = Signal(str)

    @property
    @abstractmethod
    def doc(self) -> Document | None: ...

    @property
    @abstractmethod
    def busy(self) -> bool: ...

    @abstractmethod
    def is_modified(self) -> bool: ...
    def notify(self, title: str, text: str, error: bool = False) -> None: ...
    def goto(self, pos: tuple[int, int] | None) -> None: ...
    def _on_session_changed(self, cues: tuple[int, ...]) -> None: ...
    def _set_spin(self, value: float) -> None: ...
    def _show_session(self) -> None: ...
    def _update_actions(self) -> None: ...

    # opening.py, for recovery.py
    def start_casing(self, task: LoadAndCaseTask) -> None: ...
    def _attach_learner(self) -> None: ...
    def _close_session(self) -> None: ...

    # recovery.py, for opening.py
    def finish_restore(self, data: dict, result: CaseResult) -> None: ...
