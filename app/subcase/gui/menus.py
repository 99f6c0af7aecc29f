"""The window's actions and their shortcuts; which of them apply now.

``Menus`` makes every ``act_*`` from ``Parts``, the controllers whose work
they do, and enables what applies as the open review changes (its signals).
A review action (a single key on the cue view) runs inside
``OpenReview.one_change``, so the views refresh once per key.  The menu bar
and toolbar that show the actions are ``menu_bar``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from subcase.casing import TAG_NAMES, Tag
from subcase.casing.marks import MARK_NAMES

from .cue_editing import CueEditing
from .cue_view import CueView
from .decisions import Decisions
from .drops import Drops
from .find_bar import FindBar
from .media_window import LeadDialog, WindowMedia
from .menu_bar import PROFILES, RECENT, Item
from .mode_change import ModeChange
from .navigation import Navigation
from .open_review import OpenReview
from .opening import Opening
from .profile_commands import ProfileCommands
from .saving import Saving
from .settings import MODES, PUNCTUATE, STYLES, THEMES, Settings
from .threshold import Threshold
from .view_options import ViewOptions

# A shortcut: a key sequence as text ("Ctrl+B") or one of Qt's standard keys.
Shortcut = str | QKeySequence.StandardKey


@dataclass
class Parts:
    """The window's controllers and widgets whose work the actions do."""

    view: CueView
    find_bar: FindBar
    details: QDockWidget
    threshold: Threshold
    view_options: ViewOptions
    opening: Opening
    saving: Saving
    drops: Drops
    playback: WindowMedia
    navigation: Navigation
    decisions: Decisions
    cue_editing: CueEditing
    mode_change: ModeChange
    profiles: ProfileCommands


class Menus:
    """Builds ``act_*``, the menus and the toolbar; ``update_actions`` enables what applies now."""

    def __init__(self, parent: QMainWindow, review: OpenReview, settings: Settings, parts: Parts):
        self.parent = parent  # the actions' owner
        self.review = review
        self.settings = settings
        self.parts = parts
        self.view = parts.view
        self.playback = parts.playback
        self._make_actions()
        for signal in (review.opened, review.closed, review.busy_changed, review.profile_changed,
                       self.playback.state_changed, self.view.cue_model.modelReset):  # a file shown as it is cased can be searched
            signal.connect(self.update_actions)
        # the open file's mode, checked again after a change is undone or did not happen
        review.changed.connect(self._show_mode)
        review.mode_changed.connect(self._show_mode)
        self.update_actions()

    def _show_mode(self, *_changed: object) -> None:
        session = self.review.session
        if session is not None and session.mode in self.act_modes:
            self.act_modes[session.mode].setChecked(True)

    def _action(self, text: str, slot: Callable[[], object], shortcuts: Sequence[Shortcut] = (),
                review: bool = False, tip: str = "") -> QAction:
        a = QAction(text, self.parent)
        if shortcuts:
            a.setShortcuts([QKeySequence(s) for s in shortcuts])
        if review:
            # Single-key review shortcuts live on the cue view only, so typing
            # in the find bar or a dialog never triggers them.
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(a)
        if tip:
            a.setStatusTip(tip)
        if review:
            def run() -> None:
                with self.review.one_change():  # one refresh of the views per key
                    slot()
            a.triggered.connect(lambda _checked=False: run())
        else:
            a.triggered.connect(lambda _checked=False: slot())
        return a

    def _make_actions(self) -> None:
        A = self._action
        self.act_open = A("&Open\u2026", self.parts.opening.open_dialog, [QKeySequence.StandardKey.Open])
        self.act_save = A("&Save", self.parts.saving.save, [QKeySequence.StandardKey.Save])
        self.act_save_as = A("Save &As\u2026", self.parts.saving.save_as_dialog, ["Ctrl+Shift+S"])
        self.act_batch = A("&Batch Convert\u2026", self.parts.drops.batch_dialog_from_picker, ["Ctrl+B"])
        self.act_cancel = A("&Cancel Casing", self.parts.opening.cancel_casing, ["Esc"])
        self.act_quit = A("&Quit", self.parent.close, ["Ctrl+Q"])
        self.act_undo = self.review.undo_stack.createUndoAction(self.parent, "&Undo")
        self.act_undo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
        self.act_redo = self.review.undo_stack.createRedoAction(self.parent, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_find = A("&Find\u2026", self.parts.find_bar.open_bar, [QKeySequence.StandardKey.Find])
        self.act_find_next = A("Find &Next", lambda: self.parts.find_bar.find_next(), ["F3"])
        self.act_find_prev = A("Find &Previous", lambda: self.parts.find_bar.find_next(backwards=True), ["Shift+F3"])
        self.act_edit_text = A("&Edit Cue Text\u2026", self.parts.cue_editing.edit_cue_text_dialog, ["F2"], review=True)

        self.act_next = A("&Next Word to Review", self.parts.navigation.next_to_review, ["N", "Ctrl+Down"], review=True)
        self.act_prev = A("&Previous Word to Review", self.parts.navigation.prev_to_review, ["P", "Ctrl+Up"], review=True)
        self.act_next_word = A("Next &Word", lambda: self.parts.navigation.step_word(1), ["Right"], review=True)
        self.act_prev_word = A("Previous W&ord", lambda: self.parts.navigation.step_word(-1), ["Left"], review=True)
        self.act_tag: dict[Tag, QAction] = {}
        for tag, key in ((Tag.L, "L"), (Tag.T, "T"), (Tag.U, "U"), (Tag.M, "M")):
            self.act_tag[tag] = A(f"Set {TAG_NAMES[tag]}", partial(self.parts.decisions.set_tag, tag), [key], review=True)
        self.act_cycle = A("&Cycle Tag", self.parts.decisions.cycle_tag, ["Space"], review=True)
        self.act_model_form = A("Take the &Model's Form", self.parts.decisions.take_model_form, ["Y"], review=True,
                                tip="Write the word as the model would (where the input's casing was kept)")
        self.act_accept = A("&Accept Word", self.parts.decisions.accept_word, ["Return", "Enter"], review=True)
        self.act_accept_cue = A("Accept &Rest of Cue", self.parts.decisions.accept_cue, ["Ctrl+Return", "Ctrl+Enter"], review=True)
        self.act_alternatives = A("Show &Alternatives", self.parts.decisions.show_alternatives_for_current, ["A"], review=True)
        # The mark after the current word: "." is where the marks are typed; Ctrl with it takes the mark away.
        self.act_cycle_mark = A("Cycle Punctuation Mar&k", self.parts.decisions.cycle_mark, ["."], review=True,
                                tip="The mark after the current word: none, comma, full stop, question mark, "
                                    "exclamation mark (adds one where none is)")
        self.act_remove_mark = A("Remo&ve Punctuation Mark", self.parts.decisions.remove_mark,
                                 ["Ctrl+.", "Backspace", "Del"], review=True,
                                 tip="Take away the mark after the current word")
        # The marks typed as a subtitle editor types them ("." cycles, so the full stop is its second press).
        self.act_set_mark: dict[str, QAction] = {}
        for mark in (",", "?", "!"):
            self.act_set_mark[mark] = A(f"Set Mark: {MARK_NAMES[mark].capitalize()}",
                                        partial(self.parts.decisions.set_mark, mark), [mark], review=True,
                                        tip=f"Make a {MARK_NAMES[mark]} the mark after the current word")
        self.act_threshold_down = A("Lower Threshold", lambda: self.parts.threshold.nudge(-0.05), ["["])
        self.act_threshold_up = A("Raise Threshold", lambda: self.parts.threshold.nudge(0.05), ["]"])
        self.act_threshold_reset = A("Model's Default Threshold", self.parts.threshold.reset, [])

        # The mode applies to the open file too (re-cased in a worker, one undo step) and to the next ones.
        self.mode_group, self.act_modes = self._choices(MODES, self.settings.mode, self.parts.mode_change.change_mode)
        # Restoring punctuation is part of opening a file: the choice is for the next one (and the batches).
        from subcase.casing.restoring import PUNCTUATE_HELP, Punctuate
        self.punctuate_group, self.act_punctuate = self._choices(
            PUNCTUATE, self.settings.punctuate, lambda p: setattr(self.settings, "punctuate", p))
        for name, a in self.act_punctuate.items():
            a.setStatusTip(PUNCTUATE_HELP[Punctuate(name)].capitalize())

        # House style (casing/housestyle.py): what the editor proposes for the next file opened;
        # within a file, the first fix in a category sets its style anyway.
        self.style_groups: dict[str, QActionGroup] = {}
        self.act_styles: dict[str, dict[str, QAction]] = {}
        for category in ("sound-cues", "speaker-labels"):
            self.style_groups[category], self.act_styles[category] = self._choices(
                STYLES, self.settings.house_style(category),
                partial(self.settings.set_house_style, category))
        self.act_learning = QAction("&Learn from My Fixes", self.parent, checkable=True)
        self.act_learning.setChecked(self.settings.learning)
        self.act_learning.setToolTip("Re-case unreviewed words from each fix you make (next file opened)")
        self.act_learning.toggled.connect(lambda on: setattr(self.settings, "learning", on))
        # Profiles (review/profiles/profile.py): chosen for the next file opened; the open file's one is shown.
        self.act_import_terms = A("Import &Terms\u2026", self.parts.profiles.import_terms_dialog,
                                  tip="Add a list of names and terms (one per line, a CCExtractor capitalisation "
                                      "file or a Subtitle Edit names XML) to the profile")
        # Style-guide presets (casing/housestyle.py): set both house-style categories at once.
        from subcase.casing.housestyle import PRESETS
        self.act_presets: dict[str, QAction] = {}
        for key, preset in PRESETS.items():
            a = A(preset.title, partial(self.choose_style_preset, key),
                  tip=f"{preset.rule} ({preset.source})")
            self.act_presets[key] = a
        self.act_new_profile = A("&New Profile from This File\u2026", self.parts.profiles.new_profile_dialog,
                                 tip="Start a profile with what you teach in this file; it learns from every file "
                                     "you open with it and save")
        self.act_profile_contents = A("Profile &Contents\u2026", self.parts.profiles.show_profile_dialog,
                                      tip="What the open file's profile holds and changed here; remove a wrong entry")

        self.act_bigger = A("&Larger Text", lambda: self.parts.view_options.apply_font_size(self.settings.font_size + 1, save=True),
                            [QKeySequence.StandardKey.ZoomIn, "Ctrl+="])
        self.act_smaller = A("&Smaller Text", lambda: self.parts.view_options.apply_font_size(self.settings.font_size - 1, save=True),
                             [QKeySequence.StandardKey.ZoomOut])
        self.theme_group, self.act_themes = self._choices(THEMES, self.settings.theme,
                                                          lambda t: self.parts.view_options.set_theme(t))

        self.act_show_tags = A("Show All &Tags", lambda: self.parts.view_options.set_show_tags(self.act_show_tags.isChecked()),
                               ["Ctrl+G"], tip="Tag and probability above every word")
        self.act_show_tags.setCheckable(True)
        self.act_show_tags.setChecked(self.settings.show_tags)
        self.act_details = self.parts.details.toggleViewAction()
        self.act_details.setText("Word &Details")
        self.act_details.setShortcut(QKeySequence("Ctrl+I"))
        self.act_details.setStatusTip("The current word's tag, alternatives and why it is flagged")
        self.act_limits = A("&Reading Limits\u2026", self.parts.view_options.reading_limits_dialog,
                            tip="Characters per line and per second past which the figures warn")

        # Media (gui/media_window.py).  K, R and O are free single keys on the cue view, like the review keys;
        # K is the play/pause key of most video editors.
        self.act_open_media = A("Open &Media\u2026", self.playback.open_media_dialog, ["Ctrl+Shift+O"],
                                tip="Play a video or audio file beside the review")
        self.act_play_cue = A("&Play Cue", self.playback.play_cue, ["K"], review=True,
                              tip="Play the current cue from its start to its end, with the lead-in and lead-out; "
                                  "again to stop")
        self.act_replay = A("&Replay", self.playback.replay, ["R"], review=True, tip="Play the last cue played again")
        self.act_play_on = A("Play &On from Cue", self.playback.play_on, ["O"], review=True,
                             tip="Play from the current cue on, until stopped (K)")
        self.act_stop_media = A("&Stop", self.playback.stop_media, ["Shift+K"], review=True)
        self.act_follow = A("&Follow Playback", lambda: setattr(self.settings, "follow_playback",
                                                                 self.act_follow.isChecked()),
                            ["Ctrl+Shift+F"], tip="Select the cue being played")
        self.act_follow.setCheckable(True)
        self.act_follow.setChecked(self.settings.follow_playback)
        self.act_play_flagged = A("Play Cue at Each &Flagged Word (N)",
                                  lambda: setattr(self.settings, "play_at_flagged", self.act_play_flagged.isChecked()),
                                  tip="N plays the cue of each word to review it reaches")
        self.act_play_flagged.setCheckable(True)
        self.act_play_flagged.setChecked(self.settings.play_at_flagged)
        self.act_lead = A("&Lead-in and Lead-out\u2026", lambda: LeadDialog.open_for(self.settings, self.parent),
                          tip="How much before a cue's start and after its end Play Cue plays")
        self.act_media_pane = self.playback.media_dock.toggleViewAction()
        self.act_media_pane.setText("Media &Pane")
        self.act_media_pane.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.act_media_hint = QAction(self.playback.media_problem or "", self.parent)
        self.act_media_hint.setEnabled(False)
        self.act_next.triggered.connect(lambda _c=False: self.playback.after_next())

        self.act_help = A("&Keyboard Shortcuts", self.parts.view_options.show_shortcuts, ["F1"])
        self.act_about = A("&About subcase", self.parts.view_options.show_about)
        for a in (self.act_undo, self.act_redo):
            self.parent.addAction(a)

    def choose_style_preset(self, key: str) -> None:
        """A style guide's house style for the next file opened and the batches; the per-category menus follow."""
        from subcase.casing.housestyle import PRESETS

        for category, style in PRESETS[key].style_map().items():
            self.settings.set_house_style(category.value, style.value)
            self.act_styles[category.value][style.value].setChecked(True)

    def _choices(self, names: Iterable[str], current: str,
                 choose: Callable[[str], object]) -> tuple[QActionGroup, dict[str, QAction]]:
        """One checkable action per name, exclusive; picking one calls ``choose(name)``."""
        group = QActionGroup(self.parent)
        actions = {}
        for name in names:
            a = QAction(name.capitalize(), self.parent, checkable=True)
            a.setChecked(name == current)
            a.triggered.connect(lambda _c=False, name=name: choose(name))
            group.addAction(a)
            actions[name] = a
        return group, actions

    def layout(self) -> list[tuple[str, list[Item]]]:
        """The menu bar: each menu's title and items (menu_bar.Item)."""
        media_hint: list[Item] = [self.act_media_hint, None] if self.playback.media_problem else []
        return [
            ("&File", [self.act_open, RECENT, self.act_open_media, self.act_save, self.act_save_as, None,
                       self.act_import_terms, None, self.act_batch, self.act_cancel, None, self.act_quit]),
            ("&Edit", [self.act_undo, self.act_redo, None, self.act_find, self.act_find_next, self.act_find_prev,
                       None, self.act_edit_text]),
            ("&Review", [self.act_next, self.act_prev, self.act_next_word, self.act_prev_word, None,
                         *self.act_tag.values(), self.act_cycle, self.act_alternatives, None,
                         self.act_cycle_mark, *self.act_set_mark.values(), self.act_remove_mark, None, self.act_accept, self.act_accept_cue, None,
                         self.act_threshold_down, self.act_threshold_up, self.act_threshold_reset,
                         ("Casing &Mode", list(self.act_modes.values())),
                         ("P&unctuation (next file opened)", list(self.act_punctuate.values())),
                         ("&Sound Cues (next file opened)", list(self.act_styles["sound-cues"].values())),
                         ("S&peaker Labels (next file opened)", list(self.act_styles["speaker-labels"].values())),
                         ("Style &Guide (next file opened)", list(self.act_presets.values())),
                         self.act_learning, PROFILES, self.act_profile_contents]),
            ("&View", [self.act_details, self.act_show_tags, None, self.act_bigger, self.act_smaller, None,
                       self.act_limits, ("&Theme", list(self.act_themes.values()))]),
            # the media extra missing: how to add it comes first in the menu
            ("&Media", [*media_hint, self.act_play_cue, self.act_replay, self.act_play_on, self.act_stop_media, None,
                        self.act_follow, self.act_play_flagged, self.act_lead, None, self.act_media_pane]),
            ("&Help", [self.act_help, self.act_about]),
        ]

    def toolbar(self) -> list[tuple[QAction | None, str]]:
        """The toolbar's actions and their short names (None: a separator)."""
        return [(self.act_open, "Open"), (self.act_save, "Save"), (None, ""), (self.act_prev, "\u25c0 Prev"),
                (self.act_next, "Next \u25b6"), (self.act_accept, "Accept"), (self.act_accept_cue, "Accept cue")]

    def update_actions(self, *_signalled: object) -> None:
        has_doc = self.review.session is not None and not self.review.busy
        for a in (self.act_save, self.act_save_as, self.act_edit_text, self.act_next, self.act_prev,
                  self.act_next_word, self.act_prev_word, self.act_cycle, self.act_accept, self.act_accept_cue,
                  self.act_alternatives, self.act_cycle_mark, self.act_remove_mark, *self.act_tag.values(),
                  *self.act_set_mark.values()):
            a.setEnabled(has_doc)
        self.act_cancel.setEnabled(self.review.busy)
        # The stack enables these by what it holds; while the task runs (a save being written) the
        # document takes no change, so no undo either.
        stack = self.review.undo_stack
        self.act_undo.setEnabled(stack.canUndo() and not self.review.busy)
        self.act_redo.setEnabled(stack.canRedo() and not self.review.busy)
        self.act_profile_contents.setEnabled(has_doc and self.review.profile_app is not None)
        self.act_new_profile.setEnabled(has_doc)
        self.parts.find_bar.edit.setEnabled(self.view.cue_model.doc is not None)
        media = self.playback.media
        ready = media is not None and media.ready and self.review.session is not None
        for a in (self.act_play_cue, self.act_replay, self.act_play_on, self.act_stop_media):
            a.setEnabled(ready)
        # without the extra it stays enabled: choosing it says how to add the extra
        self.act_open_media.setEnabled(media is None or not self.review.busy)

