"""The cue table: number, timing, reading speed, characters per line, and the cue text as written.

The model is ``cue_model``, the painting ``cue_delegates``, the text layout
``cue_layout``.  This view owns what they share: the row geometry, the
colours of the current repaint, the fonts, and the settings that change
them (Show All Tags, the reading limits); it sets row heights from line
counts and maps clicks to words.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Iterator

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from . import theme
from .cue_delegates import LOOK_NAMES, MARKERS, REVIEW_MARK, CellDelegate, ReadingDelegate, RowGeometry, \
    WordDelegate
from .cue_layout import count_lines
from .cue_model import COL_CPL, COL_CPS, COL_END, COL_NUM, COL_START, COL_TEXT, HEADERS, CueModel

__all__ = ["COL_TEXT", "HEADERS", "LOOK_NAMES", "MARKERS", "CueModel", "CueView"]


class CueView(QTableView):
    """The table; clicking a cased word reports it with the click position."""

    word_clicked = Signal(int, int, QPoint)  # cue, slot, global position

    def __init__(self, parent=None):
        super().__init__(parent)
        self.show_tags = False
        self.cpl_limit = 42
        self.cps_limit = 20.0
        self.geometry_ = RowGeometry(2, 0, 16, 12, 3)
        self.colours = theme.colours()
        self.text_font = self.bold_font = self.gloss_font = QFont()
        self.cue_model = CueModel(self)
        self.setModel(self.cue_model)
        self.delegate = WordDelegate(self, self)
        self.reading_delegate = ReadingDelegate(self, self)
        self.cell_delegate = CellDelegate(self, self)
        self.setItemDelegate(self.cell_delegate)
        self.setItemDelegateForColumn(COL_TEXT, self.delegate)
        self.setItemDelegateForColumn(COL_CPS, self.reading_delegate)
        self.setItemDelegateForColumn(COL_CPL, self.reading_delegate)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)
        self.verticalHeader().setVisible(False)
        # Row heights come from the line count (cheap: no layout, no font
        # metrics per cue), set once per cue; see fit_rows.
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(COL_NUM, QHeaderView.ResizeMode.Interactive)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.apply_font_metrics()

    # -- settings --------------------------------------------------------------
    def note_font(self) -> QFont:
        note = QFont(self.font())
        note.setPointSizeF(max(6.0, self.font().pointSizeF() * 0.72))
        return note

    def marker_font(self) -> QFont:
        bold = QFont(self.font())
        bold.setBold(True)
        return bold

    def apply_font_metrics(self, columns: bool = True) -> None:
        """Row metrics from the font; ``columns``: also fit the narrow columns to it (a font change)."""
        fm = QFontMetrics(self.font())
        gloss_h = QFontMetrics(self.note_font()).height() if self.show_tags else 0
        # copies kept for painting: QWidget.font() makes a new QFont on every call
        self.text_font, self.bold_font, self.gloss_font = QFont(self.font()), self.marker_font(), self.note_font()
        gutter = QFontMetrics(self.marker_font()).horizontalAdvance(REVIEW_MARK) + 6
        self.geometry_ = RowGeometry(pad=2, gloss_h=gloss_h, text_h=fm.height(), ascent=fm.ascent(), under_h=3,
                                     gutter=gutter)
        self.delegate.clear_cache()
        self.verticalHeader().setDefaultSectionSize(self.geometry_.row_height(1))
        self.fit_rows()
        self.viewport().update()
        if not columns:
            return
        self.setColumnWidth(COL_NUM, fm.horizontalAdvance("00000") + 12)
        self.setColumnWidth(COL_START, fm.horizontalAdvance("00:00:00,000") + 16)
        self.setColumnWidth(COL_END, fm.horizontalAdvance("00:00:00,000") + 16)
        self.setColumnWidth(COL_CPS, fm.horizontalAdvance("99.9!") + 14)
        self.setColumnWidth(COL_CPL, fm.horizontalAdvance("999!") + 14)

    def set_show_tags(self, on: bool) -> None:
        self.show_tags = bool(on)
        self.apply_font_metrics(columns=False)  # the user's column widths stay

    def set_limits(self, cpl: int, cps: float) -> None:
        self.cpl_limit, self.cps_limit = cpl, cps
        self.viewport().update()

    def apply_theme(self) -> None:
        self.colours = theme.colours()
        self.viewport().update()

    def paintEvent(self, event) -> None:
        self.colours = theme.colours()  # once per repaint; the delegates read it for every cell
        super().paintEvent(event)

    # -- rows ------------------------------------------------------------------
    def fit_rows(self, rows=None) -> None:
        """Each row as tall as its lines.  The commonest height becomes the
        default section size, so a film needs few per-row calls."""
        doc = self.cue_model.doc
        if doc is None:
            return
        g = self.geometry_
        header = self.verticalHeader()
        if rows is None:
            lines = [count_lines(c.text) for c in doc.cues]
            common = Counter(lines).most_common(1)[0][0] if lines else 1
            header.setDefaultSectionSize(g.row_height(common))
            # Only rows not at their height yet: the default size reaches every
            # row only when it changes; a reset model keeps the previous
            # document's sizes for the rows both have.
            with self.rows_changing():
                for r, n in enumerate(lines):
                    want = g.row_height(n)
                    if self.rowHeight(r) != want:
                        self.setRowHeight(r, want)
            return
        for r in rows:
            want = g.row_height(count_lines(doc.cues[r].text))
            if self.rowHeight(r) != want:
                self.setRowHeight(r, want)

    def set_document(self, doc, state) -> None:
        self.delegate.clear_cache()
        self.cue_model.set_document(doc, state)
        self.fit_rows()
        self.fold_snapshots()

    def fold_snapshots(self) -> None:
        """Hide the rows of a rolling caption's snapshot cues (``CueModel.folded``); show every other row."""
        model = self.cue_model
        if model.doc is None:
            return
        with self.rows_changing():
            for r in range(len(model.doc.cues)):
                hide = model.folded(r)
                if self.isRowHidden(r) != hide:
                    self.setRowHidden(r, hide)

    @contextmanager
    def rows_changing(self) -> Iterator[None]:
        """Many rows' heights or hiding set at once: the view repaints once, after them.  Each of 18,750
        snapshot rows hidden in a three-hour rolling caption cost 0.1 ms of repainting and scrolling
        otherwise (1.8 s against 0.03 s; docs/research/2026-11-29-long-asr-files.md)."""
        was = self.updatesEnabled()
        self.setUpdatesEnabled(False)
        try:
            yield
        finally:
            self.setUpdatesEnabled(was)

    def refresh(self, cues) -> None:
        cues = list(cues)
        self.delegate.clear_cache(cues)
        self.cue_model.refresh(cues)
        self.fit_rows(cues)

    def text_rect(self, cue: int) -> QRect:
        return self.visualRect(self.cue_model.index(cue, COL_TEXT))

    def word_rect(self, cue: int, slot: int) -> QRect | None:
        for s, box in self.delegate.word_boxes(cue, self.text_rect(cue)):
            if s == slot:
                return box.toAlignedRect()
        return None

    def visible_rows(self) -> list[int]:
        """Rows shown whole in the viewport."""
        vp = self.viewport().rect()
        first = self.rowAt(vp.top())
        if first < 0:
            return []
        out = []
        for r in range(first, self.cue_model.rowCount()):
            y, h = self.rowViewportPosition(r), self.rowHeight(r)
            if y > vp.bottom():
                break
            if y >= vp.top() and y + h - 1 <= vp.bottom():
                out.append(r)
        return out

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid() or index.column() != COL_TEXT or self.cue_model.state is None:
            return
        slot = self.delegate.word_at(index.row(), self.visualRect(index), event.position().toPoint())
        if slot is not None:
            self.word_clicked.emit(index.row(), slot, event.globalPosition().toPoint())
