"""Review commands: every edit is a review Action the session performs, on the Qt undo stack.

The commands are split by job, each a small controller that takes the
``OpenReview`` and the widgets it uses: ``navigation.Navigation`` (N/P,
arrows, goto), ``decisions.Decisions`` (tags, accept, marks, the
alternatives menu), ``cue_editing.CueEditing`` (F2), ``mode_change.ModeChange``
and ``profile_commands.ProfileCommands``.  A command changes the session
through ``push``; the session tells ``OpenReview``, whose ``changed`` signal
repaints the views, once per key (docs/dev/architecture.md).
"""

from __future__ import annotations

from typing import Callable, Protocol

from PySide6.QtGui import QUndoCommand

from subcase.review import ReviewSession
from subcase.review.actions import Action

from .open_review import OpenReview


class RunsLogged(Protocol):
    """What a ReviewCommand needs to run its steps (``EditLogRecovery.run_logged``)."""

    def run_logged(self, step: Callable[[], None], can_cancel: bool) -> bool: ...


class ReviewCommand(QUndoCommand):
    """A review Action on the Qt undo stack.

    It holds the session it was pushed for: the open review clears the stack
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


def push(review: OpenReview, logged: RunsLogged, action: Action) -> None:
    """Perform ``action`` on the open review (logged first) and put it on the undo stack; nothing while
    no file is open or the background task runs."""
    session = review.session
    if session is None or review.busy:
        return
    if logged.run_logged(lambda: session.perform(action), can_cancel=True):
        review.undo_stack.push(ReviewCommand(logged, session, action, performed=True))
