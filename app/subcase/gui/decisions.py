"""Deciding words: tags, accepting, the punctuation mark after a word, the alternatives menu."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu, QStatusBar, QWidget

from subcase.casing import TAG_NAMES, Tag, apply_tag
from subcase.casing.marks import MARK_NAMES, MARKS
from subcase.review import Accept, AcceptCue, AcceptMark, SetMark, SetTag
from subcase.review.actions import Action, next_distinct_tag

from .cue_view import CueView
from .details_panel import MARK_KEYS, alternative_forms
from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .review_commands import push
from .workers import EngineHolder


def next_mark(mark: str) -> str:
    """The mark after ``mark`` in the cycle of the mark key: none, comma, full stop, question mark,
    exclamation mark, none."""
    return MARKS[(MARKS.index(mark) + 1) % len(MARKS)]


class Decisions:
    """The review keys that decide the current word (L, T, U, M, Space, Y, Enter, Ctrl+Enter, ``.``, A).

    On a word flagged for the mark restored after it and not for its letters
    (``ReviewState.flagged_for_mark_only``), the keys decide the mark: Enter keeps it, Space cycles it, and the
    letter keys change nothing (the editor was shown a doubtful mark, not a doubtful word; its casing stays
    in reach in the word's menu, A).
    """

    def __init__(self, review: OpenReview, edit_log: EditLogRecovery, engines: EngineHolder, view: CueView,
                 status_bar: QStatusBar):
        self.review = review
        self.edit_log = edit_log
        self.engines = engines
        self.view = view
        self.status_bar = status_bar
        self.alternatives_menu: QMenu | None = None

    def write_tag(self, word: str, tag: Tag) -> str:
        engine = self.engines.loaded
        return engine.form(word, tag) if engine is not None else apply_tag(word, tag)

    def _current(self) -> tuple[int, int] | None:
        return self.review.current_pos(self.view.currentIndex().row())

    def _push(self, action: Action) -> None:
        push(self.review, self.edit_log, action)

    def _mark_only(self, pos: tuple[int, int]) -> bool:
        session = self.review.session
        return session is not None and session.state.flagged_for_mark_only(pos)

    def _keys_are_for_the_mark(self, pos: tuple[int, int]) -> bool:
        """True (and says so in the status bar) where a casing key was pressed on a word flagged for its mark
        alone: the key does nothing there."""
        if not self._mark_only(pos):
            return False
        self.status_bar.showMessage(f"Flagged for the mark after it, not its casing: {MARK_KEYS}", 8000)
        return True

    def set_tag(self, tag: Tag, advance: bool = True) -> None:
        """A tag key (L, T, U, M); ``advance`` False: chosen in the word's menu, which sets it on any word."""
        pos = self._current()
        if pos is None or self.review.session is None:
            return
        if advance and self._keys_are_for_the_mark(pos):
            return
        self._push(SetTag(pos, tag, self.write_tag))
        if advance:
            self.review.advance(pos)

    def take_model_form(self) -> None:
        """The model's own tag for the current word: one key where auto mode kept the input's casing and
        the model would write the word otherwise."""
        pos = self._current()
        if pos is None or self.review.session is None:
            return
        tag = self.review.session.state.word(pos).model_tag
        if tag is not None and not self._keys_are_for_the_mark(pos):
            self.set_tag(tag)

    def cycle_tag(self) -> None:
        """Space: the next tag of the word, or the next mark after a word flagged for its mark alone."""
        pos = self._current()
        if pos is None or self.review.session is None:
            return
        if self._mark_only(pos):
            self.set_mark(None)
            return
        tag = next_distinct_tag(self.review.session.state.word(pos), self.write_tag)
        self._push(SetTag(pos, tag, self.write_tag))

    def accept_word(self) -> None:
        """Accept the current word, and the mark restored after it, then go on to the next word to review."""
        pos = self._current()
        if pos is None or self.review.session is None:
            return
        state = self.review.session.state
        w = state.word(pos)
        if state.flagged_for_mark_only(pos):
            if state.needs_review(pos):  # the mark alone: the word's letters were not what was shown
                self._push(AcceptMark(pos))
        # a word decided before its mark (its tag set by hand) still has the mark to accept
        elif not w.decided or w.mark_needs_review(state.mark_threshold):
            self._push(Accept(pos))
        self.review.advance(pos)

    def accept_cue(self) -> None:
        if self.review.session is None:
            return
        pos = self._current()
        row = pos[0] if pos is not None else self.view.currentIndex().row()
        if row < 0:
            return
        state = self.review.session.state
        if any(state.needs_review((row, s)) for s in range(len(state.cues[row]))):  # words, or marks after them
            self._push(AcceptCue(row, state.threshold))
        last = (row, max(0, len(state.cues[row]) - 1))
        nxt = state.next_to_review(last)
        if nxt is not None:
            self.review.move_to(nxt)

    # ------------------------------------------------------------------ marks
    def cycle_mark(self) -> None:
        """The next mark after the current word (none, comma, full stop, question mark, exclamation mark),
        on any word: a missing mark is added so.  One undo step; the cursor stays, so the key goes on
        cycling."""
        self.set_mark(None)

    def remove_mark(self) -> None:
        """Take away the mark after the current word."""
        self.set_mark("")

    def set_mark(self, mark: str | None) -> None:
        """Make ``mark`` (one of MARKS; None: the next in the cycle) the mark after the current word; the
        mark that is there already, chosen again, is accepted."""
        pos = self._current()
        session = self.review.session
        if pos is None or session is None or self.review.busy:
            return
        doc, state = session.doc, session.state
        word = state.word(pos).form
        if not SetMark.applies(doc, state, pos):
            self.status_bar.showMessage(f"No mark can follow \u201c{word}\u201d: it ends inside a token", 5000)
            return
        now = SetMark.mark_at(doc, state, pos)
        if mark is None:
            mark = next_mark(now)
        elif mark == now == "":
            self.status_bar.showMessage(f"No mark after \u201c{word}\u201d to remove", 5000)
            return
        if state.current != pos:
            self.review.move_to(pos)
        # in the cue's language: a Spanish "?" opens its sentence with "¿", a French one is spaced
        self._push(SetMark(pos, mark, self.write_tag, session.cue_language(pos[0])))
        self.status_bar.showMessage(f"Mark after \u201c{word}\u201d: {MARK_NAMES[mark]} (Ctrl+Z undoes it)", 5000)

    # ------------------------------------------------------------------ the alternatives menu
    def show_alternatives_for_current(self) -> None:
        pos = self._current()
        if pos is None:
            return
        rect = self.view.word_rect(*pos)
        window: QWidget = self.view.window()
        at = self.view.viewport().mapToGlobal(rect.bottomLeft()) if rect is not None else window.mapToGlobal(
            window.rect().center())
        self.show_alternatives(pos[0], pos[1], at)

    def show_alternatives(self, cue: int, slot: int, global_pos: QPoint) -> None:
        """Clicking a word: its tags ranked by probability, pick one to set it."""
        if self.review.session is None or self.review.busy:
            return
        self.review.move_to((cue, slot))
        w = self.review.session.state.word((cue, slot))
        menu = QMenu(self.view.window())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        for tag, form, p in alternative_forms(w, self.write_tag):
            label = f"{TAG_NAMES[tag]}: {form}" + (f"  ({p:.0%})" if p is not None else "")
            a = menu.addAction(label.replace("&", "&&"))
            a.setData(tag.value)
            a.setCheckable(True)
            a.setChecked(form == w.form)
            a.triggered.connect(lambda _c=False, t=tag: self.set_tag(t, advance=False))
        menu.addSeparator()
        self._add_mark_choices(menu, (cue, slot))
        acc = menu.addAction("Accept as it is")
        acc.triggered.connect(self.accept_word)
        self.alternatives_menu = menu
        menu.popup(global_pos)

    def _add_mark_choices(self, menu: QMenu, pos) -> None:
        """The marks that can follow the word, with the model's probability of each where it restored one."""
        session = self.review.session
        assert session is not None
        doc, state = session.doc, session.state
        if not SetMark.applies(doc, state, pos):
            return
        now = SetMark.mark_at(doc, state, pos)
        restored = state.word(state.pieces.get(pos, (pos,))[0]).mark
        for k, mark in enumerate(MARKS):
            label = f"Mark after: {MARK_NAMES[mark]}" + (f" ({mark})" if mark else "")
            if restored is not None:
                label += f"  ({restored.probs[k]:.0%})"
            a = menu.addAction(label)
            a.setCheckable(True)
            a.setChecked(mark == now)
            a.triggered.connect(lambda _c=False, m=mark: self.set_mark(m))
        menu.addSeparator()
