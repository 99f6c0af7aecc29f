"""Paths dropped on the window (or given to it): one subtitle file opens, anything more is a batch.

A mixin for MainWindow, with the two ways into the batch dialog.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from subcase.subtitles import formats

from .batch_dialog import BatchDialog


class DropsMixin:
    """Drag and drop, ``handle_paths``, and opening the batch dialog (Ctrl+B or a drop)."""

    def batch_dialog_from_picker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder to convert")
        if folder:
            self.open_batch([Path(folder)])

    def open_batch(self, paths: list[Path]) -> BatchDialog:
        dialog = BatchDialog(paths, self.engines, self.settings, self)
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        self.batch_dialogs.append(dialog)
        dialog.destroyed.connect(lambda _o=None, d=dialog: self.batch_dialogs.remove(d)
                                 if d in self.batch_dialogs else None)
        dialog.show()
        self.batch_opened.emit(dialog)
        return dialog

    @staticmethod
    def _dropped_paths(event) -> list[Path]:
        md = event.mimeData()
        if md is None or not md.hasUrls():
            return []
        return [Path(u.toLocalFile()) for u in md.urls() if u.isLocalFile()]

    def dragEnterEvent(self, event) -> None:
        if self._dropped_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = self._dropped_paths(event)
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.handle_paths(paths)

    def handle_paths(self, paths: list[Path]) -> None:
        """One subtitle file opens for review; anything more (or a folder) is a batch."""
        if len(paths) == 1 and paths[0].is_file() and formats.is_subtitle_path(paths[0]):
            self.open_file(paths[0])
        else:
            self.open_batch(paths)
