"""The word details panel: the current word's tag, probability, alternatives and why it is flagged, and the
punctuation mark restored after it: proposed, what it is now, and the model's probability of each mark.

A dock beside the cue list (View › Word Details).  Everything in it is plain
text: subtitle words go into QLabels with Qt.PlainText and into table items,
which never interpret markup.  The reasons come from the review core
(``subcase.review.flag_reasons``): the panel lists them, it does not compute them.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QHeaderView, QLabel, QTableWidget, \
    QTableWidgetItem, QVBoxLayout, QWidget

from subcase.casing import TAG_NAMES, Tag
from subcase.casing.marks import MARK_NAMES, MARKS
from subcase.subtitles.markup import MARKUP_RE
from subcase.review import Look, ReviewState, ReviewWord, flag_reasons, look_of, mark_look_of

from .cue_delegates import LOOK_NAMES, MARKERS
from .cue_layout import TIMING_TAG_RE

FormFn = Callable[[str, Tag], str]

# What the review keys do on a word on the review list for the mark after it alone (gui/decisions.py), shown
# in the details and the status bar.
MARK_KEYS = ("Enter keeps the mark, Space cycles it, \",\" \"?\" \"!\" set it, Backspace removes it; "
             "A opens the word's menu for its casing")


def _label(parent: QWidget, bold: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)  # subtitle words are untrusted text
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        f = QFont(label.font())
        f.setBold(True)
        label.setFont(f)
    return label


def alternative_forms(word: ReviewWord, write: FormFn) -> list[tuple[Tag, str, float | None]]:
    """The alternatives' rows: (tag, form, probability), best first.  Mixed writes a word it knows no mixed
    form of as Title does ("Paris"): that row, the same as another, is left out."""
    rows = [(tag, write(word.form, tag), p if word.probs is not None else None) for tag, p in word.alternatives()]
    others = {form for tag, form, _p in rows if tag is not Tag.M}
    return [row for row in rows if row[0] is not Tag.M or row[1] not in others]


class WordDetailsDock(QDockWidget):
    """Shows one word; activating an alternative (Enter, double-click) asks for that tag."""

    tag_chosen = Signal(object)  # Tag

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Word Details", parent)
        self.setObjectName("word-details")  # saveState/restoreState key
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.BottomDockWidgetArea)
        body = QWidget(self)
        box = QVBoxLayout(body)
        box.setContentsMargins(8, 6, 8, 6)
        self.word_label = _label(body, bold=True)
        self.where_label = _label(body)
        self.state_label = _label(body)
        self.model_label = _label(body)
        self.why_title = _label(body, bold=True)
        self.why_title.setText("Why flagged")
        self.why_label = _label(body)
        self.alts = QTableWidget(0, 3, body)
        self.alts.setHorizontalHeaderLabels(["Tag", "Form", "Prob."])
        self.alts.verticalHeader().setVisible(False)
        self.alts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.alts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.alts.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.alts.setToolTip("Enter or double-click: use this tag")
        h = self.alts.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.alts.itemActivated.connect(self._activated)
        for w in (self.word_label, self.where_label, self.state_label, self.model_label, self.why_title,
                  self.why_label):
            box.addWidget(w)
        alt_title = _label(body, bold=True)
        alt_title.setText("Alternatives")
        box.addWidget(alt_title)
        box.addWidget(self.alts, 1)
        # the mark restored after the word, when there is one
        self.mark_title = _label(body, bold=True)
        self.mark_title.setText("Restored punctuation mark")
        self.mark_label = _label(body)
        self.mark_probs_label = _label(body)
        for w in (self.mark_title, self.mark_label, self.mark_probs_label):
            box.addWidget(w)
        body.setMinimumWidth(260)
        self.setWidget(body)
        self.show_nothing()

    def show_nothing(self, why: str = "No word selected. Press N for the next word to review.") -> None:
        self.word_label.setText("")
        self.where_label.setText(why)
        for w in (self.state_label, self.model_label, self.why_label):
            w.setText("")
        self.why_title.hide()
        self.alts.setRowCount(0)
        self._show_mark(None, 0.0)

    def show_word(self, state: ReviewState, pos: tuple[int, int], form: FormFn, cue_text: str = "") -> None:
        """``cue_text``: the text of the word's cue, where an inline timing tag before the word says when it is
        spoken (the word-level layout hides the tags from the cue list)."""
        w = state.word(pos)
        look = look_of(w, state.threshold)
        marker = MARKERS[look]
        self.word_label.setText(f"\u201c{w.form}\u201d")
        where = f"Cue {pos[0] + 1}, word {pos[1] + 1}"
        spoken = _spoken_at(cue_text, w.start)
        if spoken:
            where += f", spoken at {spoken}"
        copies = state.copies.get(state.pieces.get(pos, (pos,))[0], ())
        others = sorted({c + 1 for c, _ in copies if c != pos[0]})
        if others:
            where += ("\nShown again in cue " if copies[0][0] == pos[0] else "\nAlso shown in cue ") + \
                ", ".join(map(str, others)) + ": one decision for all"
        self.where_label.setText(where)
        state_text = f"State: {LOOK_NAMES[look]}" + (f" ({marker})" if marker else "")
        if state.flagged_for_mark_only(pos):
            # what the highlight is for, and what the review keys do here (gui/decisions.py)
            now = "to review" if w.mark_needs_review(state.mark_threshold) else "decided"
            state_text = f"State: the mark after it {now}; flagged for the mark alone, not for the word's casing" \
                         f"\n{MARK_KEYS}."
        elif look is not Look.REVIEW and w.mark_needs_review(state.mark_threshold):
            state_text += "; the mark after it to review"
        self.state_label.setText(state_text)
        if w.probs is None or w.model_tag is None:
            self.model_label.setText(f"Tag {TAG_NAMES[w.tag]} \u00b7 typed by hand, no prediction")
        else:
            p = dict(w.alternatives())[w.tag]
            if w.tag is w.model_tag:
                self.model_label.setText(f"Tag {TAG_NAMES[w.tag]} {p:.0%}, as the model said")
            else:
                self.model_label.setText(f"Tag {TAG_NAMES[w.tag]} {p:.0%} \u00b7 the model said "
                                         f"{TAG_NAMES[w.model_tag]} {w.confidence:.0%}")
        reasons = flag_reasons(state, pos)
        self.why_title.setVisible(bool(reasons))
        self.why_label.setText("\n".join(f"\u2022 {r}" for r in reasons))
        alts = alternative_forms(w, form)
        self.alts.setRowCount(len(alts))
        for i, (tag, f, prob) in enumerate(alts):
            cells = (TAG_NAMES[tag], f, f"{prob:.0%}" if prob is not None else "\u2014")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, tag.value)
                if f == w.form:  # the form the document has now
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.alts.setItem(i, col, item)
        self._show_mark(w, state.mark_threshold)

    def _show_mark(self, w: ReviewWord | None, mark_threshold: float) -> None:
        """The restored mark after ``w``: proposed, now, its state, and the head's probability of each mark (in
        the head's order: none, comma, full stop, question mark, exclamation mark)."""
        m = w.mark if w is not None else None
        look = mark_look_of(w, mark_threshold) if w is not None else None
        for label in (self.mark_title, self.mark_label, self.mark_probs_label):
            label.setVisible(m is not None)
        if m is None or look is None:
            self.mark_label.setText("")
            self.mark_probs_label.setText("")
            return
        now = "" if m.now == m.proposed else f" \u00b7 now {MARK_NAMES[m.now]}"
        self.mark_label.setText(f"Proposed {MARK_NAMES[m.proposed]} {m.confidence:.0%}{now} \u00b7 "
                                f"{LOOK_NAMES[look]}")
        lines = []
        for mark, p in zip(MARKS, m.probs):
            sign = f" ({mark})" if mark else ""
            notes = [n for n, on in (("proposed", mark == m.proposed), ("in the text", mark == m.now)) if on]
            lines.append(f"{MARK_NAMES[mark]}{sign}: {p:.0%}" + (f" ({', '.join(notes)})" if notes else ""))
        self.mark_probs_label.setText("\n".join(lines))

    def _activated(self, item: QTableWidgetItem) -> None:
        self.tag_chosen.emit(Tag(item.data(Qt.ItemDataRole.UserRole)))


def _spoken_at(text: str, start: int) -> str:
    """The time of the inline timing tag right before offset ``start``, with only tags and spaces between
    ("<00:00:01.240><c> word"); "" for none (the cue's first word is spoken at the cue's start)."""
    line = text.rfind("\n", 0, start) + 1
    last = None
    for m in TIMING_TAG_RE.finditer(text, line, start):
        last = m
    if last is None or MARKUP_RE.sub("", text[last.end():start]).strip():
        return ""
    return last.group()[1:-1]
