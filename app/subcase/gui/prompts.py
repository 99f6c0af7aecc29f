"""Questions and messages to the user: plain-text boxes over the window, replaceable in tests."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

Buttons = QMessageBox.StandardButton
# ask(title, text, buttons, default) -> the button chosen
Ask = Callable[[str, str, Buttons, Buttons], Buttons]


class Prompts:
    """``ask`` (a modal question; tests and scripts replace it) and ``notify`` (a message that does not
    block), both plain text: file names and errors are untrusted text."""

    def __init__(self, parent: QWidget, status_bar: QStatusBar):
        self.parent = parent
        self.status_bar = status_bar
        self.last_error = ""
        self.ask: Ask = self.ask_in_dialog

    def ask_in_dialog(self, title: str, text: str, buttons: Buttons, default: Buttons) -> Buttons:
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def notify(self, title: str, text: str, error: bool = False) -> None:
        """A non-blocking plain-text message; its first line also goes to the status bar."""
        if error:
            self.last_error = text
        box = QMessageBox(QMessageBox.Icon.Warning if error else QMessageBox.Icon.Information, title, text,
                          QMessageBox.StandardButton.Ok, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.status_bar.showMessage(text.splitlines()[0] if text else title, 8000)
