"""The profile of the open file: what it holds, what it changed here, and removing a wrong entry.

A thin view over ``review.profiles.profile`` / ``review.profiles.apply``: removing an
entry is a ``RemoveEntry`` action pushed on the window's undo stack (one undo
puts it back), and the stored profile is written after each change.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget, \
    QTableWidgetItem, QVBoxLayout, QWidget

from subcase.review.profiles import store as profile_store
from subcase.review.profiles.profile import KINDS
from subcase.review.profiles.apply import ProfileApplication

COLUMNS = ["Entry", "Writes", "Evidence", "Words here"]  # changed, confirmed or raised by the entry


class ProfileDialog(QDialog):
    def __init__(self, window, app: ProfileApplication, parent: QWidget | None = None):
        super().__init__(parent or window)
        self.window_, self.app = window, app
        self.setWindowTitle(f"Profile: {app.profile.name}")
        self.resize(720, 460)
        layout = QVBoxLayout(self)
        self.summary = QLabel()
        layout.addWidget(self.summary)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table)
        buttons = QHBoxLayout()
        self.remove_button = QPushButton("&Remove Entry")
        self.remove_button.setToolTip("Take this entry out of the profile and put its words back "
                                      "(Edit > Undo brings it back)")
        self.remove_button.clicked.connect(self.remove_selected)
        close = QPushButton("Close")
        close.clicked.connect(self.accept)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self.refresh()

    def entry_ids(self) -> list[str]:
        p = self.app.profile
        ids = [p.entry_id("style", c) for c in sorted(p.active_styles())]
        for kind in KINDS:
            ids += [p.entry_id(kind, key) for key in sorted(p.active(kind))]
        return ids

    def refresh(self) -> None:
        p = self.app.profile
        here = self.app.counts()
        ids = self.entry_ids()
        self.table.setRowCount(len(ids))
        for r, entry_id in enumerate(ids):
            kind, _, key = entry_id.partition(":")
            if kind == "style":
                writes, evidence = p.styles[key], ""
            else:
                e = p.entries[kind][key]
                writes = e.form
                evidence = f"{e.decisions} decisions ({e.changes} changes) in {e.files} files"
            for c, text in enumerate((entry_id, writes, evidence, str(here.get(entry_id, 0)))):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, entry_id)
                self.table.setItem(r, c, item)
        self.summary.setText(f"{p.name}: {len(ids)} entries, built from {p.sources.get('files', 0)} files; "
                             f"{sum(here.values())} words of this file changed, confirmed or raised by it"
                             + (f"; {len(p.removed)} removed" if p.removed else ""))
        self.remove_button.setEnabled(bool(ids))

    def selected(self) -> str | None:
        items = self.table.selectedItems()
        return items[0].data(Qt.ItemDataRole.UserRole) if items else None

    def remove_selected(self) -> None:
        entry_id = self.selected()
        if entry_id is None:
            return
        self.window_.remove_profile_entry(entry_id)
        self.refresh()


def persist(profile) -> None:
    """Write the profile after the editor removed (or undid removing) an entry."""
    profile_store.save(profile)
