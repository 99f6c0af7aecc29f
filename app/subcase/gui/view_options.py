"""The View and Help menus' work: text size, theme, tags, reading limits, the shortcuts and About boxes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

import subcase

from . import theme
from .cue_view import CueView
from .help import ShortcutsDialog
from .limits_dialog import ReadingLimitsDialog
from .open_review import OpenReview
from .settings import MAX_FONT_SIZE, MIN_FONT_SIZE, Settings
from .workers import EngineHolder


class ViewOptions:
    """How the review looks (kept in the settings), and the two boxes of the Help menu."""

    def __init__(self, parent: QMainWindow, review: OpenReview, settings: Settings, view: CueView,
                 engines: EngineHolder):
        self.parent = parent  # the dialogs' parent; its menu bar lists the shortcuts
        self.review = review
        self.settings = settings
        self.view = view
        self.engines = engines
        view.set_show_tags(settings.show_tags)
        view.set_limits(settings.cpl_limit, settings.cps_limit)
        self.apply_font_size(settings.font_size)

    def apply_font_size(self, size: int, save: bool = False) -> None:
        size = max(MIN_FONT_SIZE, min(MAX_FONT_SIZE, size))
        if save:
            self.settings.font_size = size
        font = self.view.font()
        font.setPointSize(size)
        self.view.setFont(font)
        self.view.apply_font_metrics()

    def set_theme(self, name: str) -> None:
        self.settings.theme = name
        app = QApplication.instance()
        if isinstance(app, QApplication):  # typed QCoreApplication; a window always runs in a QApplication
            theme.apply_theme(app, name)
        self.view.apply_theme()

    def set_show_tags(self, on: bool) -> None:
        self.settings.show_tags = on
        self.view.set_show_tags(on)

    def reading_limits_dialog(self) -> ReadingLimitsDialog:
        dialog = ReadingLimitsDialog(self.settings.cpl_limit, self.settings.cps_limit, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            self.settings.cpl_limit, self.settings.cps_limit = dialog.cpl.value(), dialog.cps.value()
            self.view.set_limits(self.settings.cpl_limit, self.settings.cps_limit)

        dialog.accepted.connect(apply)
        dialog.open()
        return dialog

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self.parent.menuBar(), self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def about_text(self) -> str:
        engine = self.engines.loaded
        session = self.review.session
        if engine is not None:
            model = f"Model {engine.info.version}\nsha256 {engine.info.sha256}\n" \
                    f"Default review threshold {engine.info.review_threshold:.2f}"
        elif session is not None:
            model = f"Model {session.model_version}\nsha256 {session.model_sha256}"
        else:
            model = "Model not loaded yet"
        return f"subcase {subcase.__version__}\nA truecasing editor for subtitles.\n\n{model}"

    def show_about(self) -> QMessageBox:
        box = QMessageBox(QMessageBox.Icon.Information, "About subcase", self.about_text(),
                          QMessageBox.StandardButton.Ok, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box
