"""The find bar under the cue view: find text in cues, forwards or backwards."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from .cue_view import COL_TEXT, CueView


class FindBar(QWidget):
    """Hidden until opened; finding selects the next matching cue in ``view``.

    ``show_message(text, timeout_ms)`` reports what was found (the window's
    status bar).
    """

    def __init__(self, view: CueView, show_message: Callable[[str, int], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.view = view
        self.show_message = show_message
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(QLabel("Find:"))
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText("text in cues (Enter: next, Shift+Enter: previous, Esc: close)")
        self.edit.returnPressed.connect(lambda: self.find_next())
        row.addWidget(self.edit, 1)
        close = QPushButton("Close", self)
        close.clicked.connect(self.close_bar)
        row.addWidget(close)
        self.hide()

    def open_bar(self) -> None:
        self.show()
        self.edit.setFocus()
        self.edit.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.view.setFocus()

    def find_next(self, text: str | None = None, backwards: bool = False) -> int | None:
        """Select the next cue (wrapping around) containing ``text``, by default the bar's text.

        Returns that cue's row, or None when no cue has it.
        """
        doc = self.view.cue_model.doc
        if text is None:
            text = self.edit.text()
            if QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier:
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
                self.show_message(f"Found in cue {r + 1}", 3000)
                return r
        self.show_message(f"Not found: {text}", 5000)
        return None
