"""The cue table: number, timing, reading speed, characters per line, and the cue text as written.

The model is ``cue_model``, the painting ``cue_delegates``, the text layout
``cue_layout``.  This view owns what they share: the row geometry, the
colours of the current repaint, the fonts, and the settings that change
them (Show All Tags, the reading limits); it sets row heights from line
counts and maps clicks to words.

A new document's rows are laid out (heights, snapshot rows folded) a slice
per event-loop turn (``set_document``, ``when_laid_out``): in one pass the
37,500 rows of a three-hour rolling caption kept the window from the user
for 0.7-1.07 s (docs/research/2026-11-29-open-in-slices.md).
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Callable, Iterator

from PySide6.QtCore import QPoint, QRect, Qt, QTimer, Signal
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

    # Rows laid out per event-loop turn: about 10-25 ms of a rolling caption's rows on a loaded 2-core machine.
    SLICE_ROWS = 1000

    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout_job = 0  # the document set last; a slice of an older one stops
        self._layout_next: int | None = None  # the first row not laid out yet (None: all are)
        self._when_laid_out: list[Callable[[], object]] = []
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
        """Each row as tall as its lines (``rows``: these; None: all, at once)."""
        doc = self.cue_model.doc
        if doc is None:
            return
        if rows is None:
            self._set_default_height(range(len(doc.cues)))
            with self.rows_changing():
                self._fit_range(0, len(doc.cues))
            return
        for r in rows:
            self._fit_row(r)

    def _set_default_height(self, sample: range) -> None:
        """The commonest height of the ``sample`` rows becomes the default section size, so a film needs
        few per-row calls.  Set before any row's own height: a new default resizes every shown row."""
        doc = self.cue_model.doc
        assert doc is not None
        lines = Counter(count_lines(doc.cues[r].text) for r in sample)
        common = lines.most_common(1)[0][0] if lines else 1
        self.verticalHeader().setDefaultSectionSize(self.geometry_.row_height(common))

    def _fit_row(self, r: int) -> None:
        doc = self.cue_model.doc
        assert doc is not None
        want = self.geometry_.row_height(count_lines(doc.cues[r].text))
        # only rows not at their height yet: a reset model keeps the previous document's sizes
        if self.rowHeight(r) != want:
            self.setRowHeight(r, want)

    def _fit_range(self, start: int, stop: int) -> None:
        for r in range(start, stop):
            self._fit_row(r)

    def set_document(self, doc, state) -> None:
        """Show ``doc``: the model at once, the rows' heights and folding a slice per event-loop turn
        (``when_laid_out`` calls back when done; all at once for a document of one slice)."""
        self.delegate.clear_cache()
        same = doc is not None and doc is self.cue_model.doc
        self.cue_model.set_document(doc, state)
        self._layout_job += 1
        if not same:  # what waited for another document's rows does not wait for these
            self._when_laid_out.clear()
        if doc is None:
            self._layout_next = None
            self._finish_layout()
            return
        self._set_default_height(range(min(len(doc.cues), self.SLICE_ROWS)))
        self._layout_next = 0
        self._lay_out_slice(self._layout_job)

    def _lay_out_slice(self, job: int) -> None:
        start = self._layout_next
        if job != self._layout_job or start is None or self.cue_model.doc is None:
            return  # another document was set since (or the rows were laid out at once)
        stop = min(len(self.cue_model.doc.cues), start + self.SLICE_ROWS)
        with self.rows_changing():
            self._fit_range(start, stop)
            self._fold_range(start, stop)
        if stop < len(self.cue_model.doc.cues):
            self._layout_next = stop
            QTimer.singleShot(0, self, lambda: self._lay_out_slice(job))
            return
        self._layout_next = None
        self._finish_layout()

    def _finish_layout(self) -> None:
        waiting, self._when_laid_out = self._when_laid_out, []
        for call in waiting:
            call()

    @property
    def laying_out(self) -> bool:
        """Whether rows of the document set last still wait for their height and folding."""
        return self._layout_next is not None

    def when_laid_out(self, call: Callable[[], object]) -> None:
        """``call()`` once the rows of the document set last are laid out (now if they are); never if another
        document is set first (a file closed or replaced while its rows were laid out)."""
        if self.laying_out:
            self._when_laid_out.append(call)
        else:
            call()

    def fold_snapshots(self) -> None:
        """Hide the rows of a rolling caption's snapshot cues (``CueModel.folded``); show every other row."""
        model = self.cue_model
        if model.doc is None:
            return
        with self.rows_changing():
            self._fold_range(0, len(model.doc.cues))

    def _fold_range(self, start: int, stop: int) -> None:
        model = self.cue_model
        for r in range(start, stop):
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
