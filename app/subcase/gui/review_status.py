"""The status bar and the details panel: what the open review says about itself and its current word."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from subcase.casing import Tag
from subcase.review import flag_reasons

from .details_panel import WordDetailsDock
from .open_review import OpenReview


class ReviewStatus:
    """The current word (left), the task's progress and Cancel, the log and the counters (right), and the
    details panel; all repainted from the open review's signals."""

    def __init__(self, review: OpenReview, status_bar: QStatusBar, details: WordDetailsDock,
                 write_tag: Callable[[str, Tag], str]):
        self.review = review
        self.status_bar = status_bar
        self.details = details
        self.write_tag = write_tag
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
        status_bar.addWidget(self.word_label, 1)
        status_bar.addPermanentWidget(self.progress)
        status_bar.addPermanentWidget(self.cancel_button)
        status_bar.addPermanentWidget(self.log_label)
        status_bar.addPermanentWidget(self.count_label)
        # A message has the whole bar while it shows: the counters would cut a long one short.
        status_bar.messageChanged.connect(self._on_message)
        for signal in (review.changed, review.opened, review.closed, review.preview_ended):
            signal.connect(self.update)
        review.busy_changed.connect(self._on_busy)
        review.progress.connect(self._on_progress)

    def _on_message(self, text: str) -> None:
        for label in (self.count_label, self.log_label):
            label.setVisible(not text)

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self.progress.setRange(0, 0)  # busy until the first progress report
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.update()

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def update(self, *_changed: object) -> None:
        session = self.review.session
        self.log_label.setText("No edit log" if session is not None and session.log is None else "")
        self._update_details()
        if session is None:
            self.count_label.setText("No file" if not self.review.busy else "")
            self.word_label.setText("")
            return
        c = session.counts()
        self.count_label.setText(f"{c['to_review']} to review \u00b7 {c['changed']} changed \u00b7 "
                                 f"{c['accepted']} accepted \u00b7 {c['words']} words")
        pos = session.state.current
        if pos is None:
            self.word_label.setText("")
            return
        w = session.state.word(pos)
        if w.probs is None or w.model_tag is None:
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d (typed by hand)")
        else:
            alts = ", ".join(f"{t.value} {p:.0%}" for t, p in w.alternatives())
            reasons = [str(r) for r in flag_reasons(session.state, pos)]
            why = f" \u2014 why: {'; '.join(reasons)}" if reasons else ""
            self.word_label.setText(f"Cue {pos[0] + 1}: \u201c{w.form}\u201d ({w.status.value}) \u2014 "
                                    f"model {w.model_tag.value} {w.confidence:.0%} [{alts}]{why}")

    def _update_details(self) -> None:
        session = self.review.session
        if session is None:
            self.details.show_nothing("No file open." if not self.review.busy else "Casing\u2026")
        elif session.state.current is None:
            self.details.show_nothing()
        else:
            self.details.show_word(session.state, session.state.current, self.write_tag,
                                   session.doc.cues[session.state.current[0]].text)
