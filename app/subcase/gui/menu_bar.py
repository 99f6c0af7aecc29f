"""The menu bar and the toolbar: where the window's actions (``menus.Menus``) are shown."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QMainWindow, QMenu, QToolBar

from .menus import Menus
from .settings import Settings


def add_all(menu: QMenu, actions: Iterable[QAction | None]) -> None:
    """Add ``actions`` in order; None stands for a separator."""
    for a in actions:
        if a is None:
            menu.addSeparator()
        else:
            menu.addAction(a)



class MenuBar:
    """The window's menus, with Open Recent and the profiles filled as they open, and the toolbar."""

    def __init__(self, parent: QMainWindow, actions: Menus, settings: Settings, open_file: Callable[[Path], object],
                 threshold_spin: QDoubleSpinBox):
        self.parent = parent
        self.settings = settings
        self.open_file = open_file
        self.act_new_profile = actions.act_new_profile
        self._make_menus(actions)
        self._make_toolbar(actions, threshold_spin)

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

    def _make_menus(self, a: Menus) -> None:
        add = add_all
        mb = self.parent.menuBar()
        m = mb.addMenu("&File")
        m.addAction(a.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.fill_recent()
        m.addAction(a.act_open_media)
        add(m, (a.act_save, a.act_save_as, None, a.act_import_terms, None, a.act_batch, a.act_cancel,
                None, a.act_quit))
        add(mb.addMenu("&Edit"), (a.act_undo, a.act_redo, None,
                                  a.act_find, a.act_find_next, a.act_find_prev, None, a.act_edit_text))
        m = mb.addMenu("&Review")
        add(m, (a.act_next, a.act_prev, a.act_next_word, a.act_prev_word, None,
                *a.act_tag.values(), a.act_cycle, a.act_alternatives, None,
                a.act_cycle_mark, a.act_remove_mark, None,
                a.act_accept, a.act_accept_cue, None,
                a.act_threshold_down, a.act_threshold_up, a.act_threshold_reset))
        add(m.addMenu("Casing &Mode"), a.act_modes.values())
        add(m.addMenu("P&unctuation (next file opened)"), a.act_punctuate.values())
        add(m.addMenu("&Sound Cues (next file opened)"), a.act_styles["sound-cues"].values())
        add(m.addMenu("S&peaker Labels (next file opened)"), a.act_styles["speaker-labels"].values())
        add(m.addMenu("Style &Guide (next file opened)"), a.act_presets.values())
        m.addAction(a.act_learning)
        self.profile_menu = m.addMenu("P&rofile (next file opened)")
        self.profile_menu.aboutToShow.connect(self.fill_profiles)
        self.fill_profiles()
        m.addAction(a.act_profile_contents)
        m = mb.addMenu("&View")
        add(m, (a.act_details, a.act_show_tags, None, a.act_bigger, a.act_smaller, None,
                a.act_limits))
        add(m.addMenu("&Theme"), a.act_themes.values())
        m = mb.addMenu("&Media")
        if a.playback.media_problem:  # the extra is missing: say how to add it, first thing in the menu
            add(m, (a.act_media_hint, None))
        add(m, (a.act_play_cue, a.act_replay, a.act_play_on, a.act_stop_media,
                None, a.act_follow, a.act_play_flagged, a.act_lead, None, a.act_media_pane))
        add(mb.addMenu("&Help"), (a.act_help, a.act_about))

    def _make_toolbar(self, a: Menus, threshold_spin: QDoubleSpinBox) -> None:
        tb = QToolBar("Review", self.parent)
        tb.setObjectName("review-toolbar")
        for act, short in ((a.act_open, "Open"), (a.act_save, "Save"), (None, ""), (a.act_prev, "\u25c0 Prev"),
                         (a.act_next, "Next \u25b6"), (a.act_accept, "Accept"),
                         (a.act_accept_cue, "Accept cue")):
            if act is None:
                tb.addSeparator()
                continue
            act.setIconText(short)
            tb.addAction(act)
        tb.addSeparator()
        tb.addWidget(QLabel(" Review below: "))
        tb.addWidget(threshold_spin)
        self.parent.addToolBar(tb)


