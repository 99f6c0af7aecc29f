"""The keyboard help screen, generated from the window's own QActions.

Built from the live actions, so the list can never drift from the menus.
Everything is plain-text table items.
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLabel, QMenu, QMenuBar, QTableWidget, \
    QTableWidgetItem, QVBoxLayout
from PySide6.QtCore import Qt

INTRO = ("Review by keyboard: N jumps to the next word to review, L/T/U/M set its tag, "
         "Space cycles tags, Enter accepts it (and the punctuation mark restored after it). "
         "\".\" cycles the mark after the word (none, comma, full stop, question mark, exclamation mark), "
         "\",\" \"?\" \"!\" set that mark, and Backspace or Ctrl+. takes it away. "
         "On a word flagged only for the mark after it, the keys decide the mark: Enter keeps it, Space cycles "
         "it, and L/T/U/M leave the word as it is (its casing is in its menu, A). Words with a \"?\" and an orange fill "
         "and underline are under the review threshold, and so are restored marks in a box with an orange fill. "
         "With a video or audio file open "
         "(Media menu), K plays the current cue, R replays it and O plays on from it.")


def _clean(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def shortcut_rows(menubar: QMenuBar) -> list[tuple[str, str, str]]:
    """(menu, action, shortcuts) for every action with a shortcut, menu order."""
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for a in menu.actions():
            sub = a.menu()  # typed QObject: QAction.menu() is a template in C++
            if isinstance(sub, QMenu):
                walk(sub, f"{path} \u203a {_clean(a.text())}")
            elif not a.isSeparator() and a.shortcuts():
                keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in a.shortcuts())
                rows.append((path, _clean(a.text()), keys))

    for top in menubar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            walk(menu, _clean(top.text()))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, menubar: QMenuBar, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        layout = QVBoxLayout(self)
        intro = QLabel(INTRO)
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        rows = shortcut_rows(menubar)
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Menu", "Action", "Shortcut"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(620, 560)
