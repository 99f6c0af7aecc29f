"""The menu bar and the toolbar: where the window's actions (``menus.Menus``) are shown."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QMainWindow, QMenu, QToolBar

from .settings import Settings

RECENT, PROFILES = "Open &Recent", "P&rofile (next file opened)"  # submenus filled as they open
# A menu's items, in order: an action, None for a separator, a submenu (its title and items), or RECENT or PROFILES.
Item = QAction | None | tuple[str, "list[Item]"] | str


class MenuBar:
    """Shows a layout of actions (``menus.Menus.layout``) as the window's menus, with Open Recent and the
    profiles filled as they open; ``toolbar`` adds the review toolbar."""

    def __init__(self, parent: QMainWindow, layout: list[tuple[str, list[Item]]], settings: Settings,
                 open_file: Callable[[Path], object], new_profile: QAction):
        self.parent = parent
        self.settings = settings
        self.open_file = open_file
        self.act_new_profile = new_profile  # last in the profiles menu
        bar = parent.menuBar()
        for title, items in layout:
            self._fill(bar.addMenu(title), items)

    def _fill(self, menu: QMenu, items: Iterable[Item]) -> None:
        for item in items:
            if item is None:
                menu.addSeparator()
            elif isinstance(item, QAction):
                menu.addAction(item)
            elif item == RECENT:
                self.recent_menu = menu.addMenu(RECENT)
                self.recent_menu.aboutToShow.connect(self.fill_recent)
                self.fill_recent()
            elif item == PROFILES:
                self.profile_menu = menu.addMenu(PROFILES)
                self.profile_menu.aboutToShow.connect(self.fill_profiles)
                self.fill_profiles()
            elif isinstance(item, tuple):
                title, sub = item
                self._fill(menu.addMenu(title), sub)

    def toolbar(self, items: Iterable[tuple[QAction | None, str]], threshold_spin: QDoubleSpinBox) -> QToolBar:
        """The review toolbar: each action under its short name (None: a separator), then the threshold."""
        tb = QToolBar("Review", self.parent)
        tb.setObjectName("review-toolbar")
        for act, short in items:
            if act is None:
                tb.addSeparator()
                continue
            act.setIconText(short)
            tb.addAction(act)
        tb.addSeparator()
        tb.addWidget(QLabel(" Review below: "))
        tb.addWidget(threshold_spin)
        self.parent.addToolBar(tb)
        return tb

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.recent_files:
            a = self.recent_menu.addAction(p.replace("&", "&&"))
            a.triggered.connect(lambda _c=False, p=p: self.open_file(Path(p)))
        self.recent_menu.setEnabled(bool(self.settings.recent_files))

    def fill_profiles(self) -> None:
        """None, then every stored profile; the chosen one is checked."""
        from subcase.review.profiles import store as profile_store

        self.profile_menu.clear()
        group = QActionGroup(self.profile_menu)
        current = self.settings.profile
        names = profile_store.names()
        for name in ["", *names]:
            a = QAction(name or "None", self.profile_menu, checkable=True)
            a.setChecked(name == current or (not name and current not in names))
            a.triggered.connect(lambda _c=False, name=name: setattr(self.settings, "profile", name))
            group.addAction(a)
            self.profile_menu.addAction(a)
        self.profile_menu.addSeparator()
        self.profile_menu.addAction(self.act_new_profile)

