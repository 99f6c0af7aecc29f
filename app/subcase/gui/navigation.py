"""Moving between words: N and P (the next and previous word to review), the arrows, goto."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QStatusBar

from .cue_view import CueView
from .open_review import OpenReview


class Navigation:
    """The current word: ``goto``, ``next_to_review``, ``prev_to_review``, ``step_word``.  It moves the
    review state's cursor; the views follow through ``OpenReview.changed``."""

    def __init__(self, review: OpenReview, view: CueView, status_bar: QStatusBar):
        self.review = review
        self.view = view
        self.status_bar = status_bar
        view.selectionModel().currentRowChanged.connect(self.on_row_changed)

    def goto(self, pos) -> None:
        """Make ``pos`` the current word; the views select its cue and scroll to it."""
        self.review.move_to(pos)

    def on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # Moving to another cue (arrow keys, click, find) puts the cursor just
        # before that cue's first word: N then finds that word too.
        if self.review.session is None or not current.isValid():
            return
        state = self.review.session.state
        if state.current is not None and state.current[0] == current.row():
            return
        old = state.current
        state.current = None
        self.review.touch([old[0] if old is not None else None])

    def anchor(self):
        """Where navigation starts: the current word, else just before the selected cue."""
        if self.review.session is None:
            return None
        state = self.review.session.state
        if state.current is not None:
            return state.current
        row = self.view.currentIndex().row()
        return (row, -1) if row >= 0 else None

    def current_pos(self):
        """The current word, or else the first word of the selected cue."""
        return self.review.current_pos(self.view.currentIndex().row())

    def next_to_review(self) -> None:
        self._to_review(backwards=False)

    def prev_to_review(self) -> None:
        self._to_review(backwards=True)

    def _to_review(self, backwards: bool) -> None:
        if self.review.session is None:
            return
        pos = self.review.session.state.next_to_review(self.anchor(), backwards=backwards)
        if pos is None:
            self.status_bar.showMessage("No words left to review", 5000)
            return
        self.goto(pos)

    def step_word(self, delta: int) -> None:
        if self.review.session is None:
            return
        state = self.review.session.state
        if state.current is None and delta > 0 and self.current_pos() is not None:
            self.goto(self.current_pos())
        else:
            self.goto(state.step(self.current_pos(), delta))
