"""Paths dropped on the window (or given to it): one subtitle file opens, anything more is a batch.

``Drops`` is owned by MainWindow, which forwards its drag and drop events
here; it also holds the two ways into the batch dialog and the dialogs open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QWidget

from subcase.subtitles import formats

from .batch_dialog import BatchDialog
from .settings import Settings
from .workers import EngineHolder


class Drops:
    """Drag and drop, ``handle_paths``, and opening the batch dialog (Ctrl+B or a drop)."""

    def __init__(self, parent: QWidget, engines: EngineHolder, settings: Settings,
                 open_file: Callable[[Path], object], batch_opened: Callable[[BatchDialog], None]):
        self.parent = parent  # the dialogs' parent
        self.engines = engines
        self.settings = settings
        self.open_file = open_file
        self.batch_opened = batch_opened
        self.batch_dialogs: list[BatchDialog] = []  # open, each until it is destroyed

    def batch_dialog_from_picker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.parent, "Folder to convert")
        if folder:
            self.open_batch([Path(folder)])

    def open_batch(self, paths: list[Path]) -> BatchDialog:
        dialog = BatchDialog(paths, self.engines, self.settings, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.batch_dialogs.append(dialog)
        dialog.destroyed.connect(lambda _o=None, d=dialog: self.batch_dialogs.remove(d)
                                 if d in self.batch_dialogs else None)
        dialog.show()
        self.batch_opened(dialog)
        return dialog

    @staticmethod
    def _dropped_paths(event: QDropEvent) -> list[Path]:
        md = event.mimeData()
        if md is None or not md.hasUrls():
            return []
        return [Path(u.toLocalFile()) for u in md.urls() if u.isLocalFile()]

    def drag_enter(self, event: QDragMoveEvent) -> None:
        if self._dropped_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def drop(self, event: QDropEvent) -> None:
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
