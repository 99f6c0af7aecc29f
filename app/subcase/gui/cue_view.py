"""The cue table: number, timing, reading speed, characters per line, and the cue text as written.

The text column is painted by ``WordDelegate`` from ``cue_layout`` runs with
QPainter.drawText, so subtitle text is always plain text: nothing in a cue
is ever parsed as Qt rich text or HTML (a cue holding ``<img src=...>``
shows those characters and loads nothing).  For the same reason no role
returns cue text as a tooltip (Qt tooltips auto-detect rich text).

The text reads like the subtitle: original spacing and punctuation, the
view's font, line breaks as in the file.  Words carry their review state
inline (a fill and an underline style per look, a frame on the current
word); markup is dim literal text.  Tags and probabilities are in the
details panel, or above every word with View › Show All Tags.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, \
    QTableView

from subcase.casing import TAGS
from subcase.review import Look, ReviewState, look_of
from subcase.subtitles import Document
from subcase.subtitles.timecode import format_ms

from . import theme
from .cue_layout import ELISION, MARKUP, WORD, CueLayout, Line, count_lines, layout_cue
from .reading_speed import CueReading, measure

COL_NUM, COL_START, COL_END, COL_CPS, COL_CPL, COL_TEXT = range(6)
HEADERS = ("#", "Start", "End", "CPS", "CPL", "Text")

# The marker of each look in the gloss ("Show all tags") and the details panel.
MARKERS = {Look.REVIEW: "?", Look.ACCEPTED: "\u2713", Look.CHANGED: "\u270e", Look.LEARNED: "\u21ba",
           Look.EDITED: "e", Look.PLAIN: ""}
LOOK_NAMES = {Look.REVIEW: "to review", Look.ACCEPTED: "accepted", Look.CHANGED: "changed by you",
              Look.LEARNED: "changed by what you taught", Look.EDITED: "typed by hand", Look.PLAIN: "not flagged"}
WARN_MARK = "!"  # after a reading figure past its limit: not colour alone
REVIEW_MARK = "?"  # in the gutter of a line that has words to review
_RIGHT_TOP = int(Qt.AlignRight | Qt.AlignTop)  # computed once: enum arithmetic is slow in a paint loop
_LEFT_TOP = int(Qt.AlignLeft | Qt.AlignTop)


@dataclass(frozen=True, slots=True)
class RowGeometry:
    """Vertical metrics shared by the text and the reading-speed columns, so their lines align."""
    pad: int          # above the first and below the last line
    gloss_h: int      # the "Show all tags" band above each line; 0 when off
    text_h: int       # the font's height
    ascent: int
    under_h: int      # room under the text for the look's underline
    gutter: int = 0   # left of the text: room for the "?" of a line with words to review

    @property
    def pitch(self) -> int:
        return self.gloss_h + self.text_h + self.under_h

    def row_height(self, lines: int) -> int:
        return max(1, lines) * self.pitch + 2 * self.pad + 1  # + 1: the grid line

    def text_top(self, rect: QRect, line: int) -> int:
        return rect.top() + self.pad + line * self.pitch + self.gloss_h


class CueModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.state: ReviewState | None = None
        self._readings: dict[int, tuple[str, int, int, CueReading]] = {}

    def set_document(self, doc: Document | None, state: ReviewState | None) -> None:
        self.beginResetModel()
        self.doc, self.state = doc, state
        self._readings.clear()
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self.doc is None else len(self.doc.cues)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Horizontal and role == Qt.ToolTipRole:
            return {COL_CPS: "Reading speed: characters per second (markup excluded)",
                    COL_CPL: "Characters per line (markup excluded)"}.get(section)
        return None

    def reading(self, row: int) -> CueReading:
        """CPL and CPS of a cue, cached until its text or timing changes."""
        assert self.doc is not None
        cue = self.doc.cues[row]
        hit = self._readings.get(row)
        if hit is not None and hit[0] is cue.text and hit[1] == cue.start_ms and hit[2] == cue.end_ms:
            return hit[3]
        r = measure(cue.text, cue.start_ms, cue.end_ms)
        self._readings[row] = (cue.text, cue.start_ms, cue.end_ms, r)
        return r

    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid() or self.doc is None:
            return None
        cue = self.doc.cues[index.row()]
        col = index.column()
        if role == Qt.DisplayRole:
            if col == COL_NUM:
                return cue.identifier if cue.identifier else str(index.row() + 1)
            if col == COL_START:
                return format_ms(cue.start_ms, self.doc.format)
            if col == COL_END:
                return format_ms(cue.end_ms, self.doc.format)
            if col == COL_CPS:  # painted by ReadingDelegate; this is for accessibility
                cps = self.reading(index.row()).cps
                return "" if cps is None else f"{cps:.1f}"
            if col == COL_CPL:
                return " ".join(str(n) for n in self.reading(index.row()).line_chars)
            return cue.text  # plain; painted by WordDelegate, read by accessibility
        if role == Qt.TextAlignmentRole and col != COL_TEXT:
            return int(Qt.AlignRight | Qt.AlignTop) if col in (COL_NUM, COL_CPS, COL_CPL) else \
                int(Qt.AlignLeft | Qt.AlignTop)
        return None

    def refresh(self, cues) -> None:
        for c in cues:
            self.dataChanged.emit(self.index(c, 0), self.index(c, len(HEADERS) - 1))


def _colours(option: QStyleOptionViewItem) -> theme.WordColours:
    """The theme's colours, looked up once per repaint of the view (not once per cell)."""
    view = option.widget
    return view.colours if isinstance(view, CueView) else theme.colours()


def _background(painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
    """The row's background, selected or not, in the theme's colours.

    Every column paints its own background from ``theme.colours()`` rather
    than from the palette, so the pairs whose contrast is tested are the
    pairs on screen, whatever the style or a style sheet does to palettes.
    """
    c = _colours(option)
    if option.state & QStyle.State_Selected:
        bg = c.selected
    else:
        bg = c.alternate if index.row() % 2 else c.base
    painter.fillRect(option.rect, bg)


class CellDelegate(QStyledItemDelegate):
    """Number and timing: plain text level with the cue's first line."""

    PAD_X = 4

    def __init__(self, view: CueView):
        super().__init__(view)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        _background(painter, option, index)
        text = index.data(Qt.DisplayRole)
        if not text:
            return
        g = self.view.geometry_
        rect = option.rect
        painter.save()
        painter.setClipRect(rect)
        painter.setFont(self.view.text_font)
        painter.setPen(_colours(option).text)
        painter.drawText(QRect(rect.left() + self.PAD_X, g.text_top(rect, 0), rect.width() - 2 * self.PAD_X,
                               g.text_h), _RIGHT_TOP if index.column() == COL_NUM else _LEFT_TOP, str(text))
        painter.restore()


class WordDelegate(QStyledItemDelegate):
    """Paints the cue text from its layout runs; the one place words get their look."""

    PAD_X = 4

    def __init__(self, view: CueView):
        super().__init__(view)
        self.view = view
        self.model = view.cue_model
        self._layouts: dict[int, tuple[tuple, CueLayout]] = {}

    # -- layout --------------------------------------------------------------
    def clear_cache(self, rows=None) -> None:
        if rows is None:
            self._layouts.clear()
        else:
            for r in rows:
                self._layouts.pop(r, None)

    def layout(self, row: int, rect: QRect) -> CueLayout:
        """The runs of cue ``row`` for a cell of ``rect``'s width (cached per text, font and width)."""
        doc, state = self.model.doc, self.model.state
        assert doc is not None
        text = doc.cues[row].text
        font = self.view.text_font
        width = max(0, rect.width() - self.view.geometry_.gutter - self.PAD_X)
        words = state.cues[row] if state is not None and row < len(state.cues) else []
        key = (font.key(), width, id(words), len(words))
        hit = self._layouts.get(row)
        if hit is not None and hit[1].text is text and hit[0] == key:
            return hit[1]
        lay = layout_cue(text, words, font, width)
        self._layouts[row] = (key, lay)
        return lay

    def word_boxes(self, row: int, rect: QRect) -> list[tuple[int, QRectF]]:
        """(slot, box) of every laid-out word: its text plus the underline room."""
        g = self.view.geometry_
        out = []
        for i, line in enumerate(self.layout(row, rect).lines):
            top = g.text_top(rect, i)
            for run in line.runs:
                if run.kind == WORD and run.slot is not None:
                    out.append((run.slot, QRectF(rect.left() + g.gutter + run.x, top, run.width,
                                                 g.text_h + g.under_h)))
        return out

    def word_at(self, row: int, rect: QRect, pos: QPoint) -> int | None:
        g = self.view.geometry_
        for slot, box in self.word_boxes(row, rect):
            # the gloss band above a word belongs to it too
            if box.adjusted(0, -g.gloss_h, 0, 0).contains(QPointF(pos)):
                return slot
        return None

    # -- painting ------------------------------------------------------------
    def gloss(self, state: ReviewState, row: int, slot: int, compact: bool = False) -> str:
        """The small text over a word with "Show all tags": look marker, tag, probability of that tag."""
        w = state.cues[row][slot]
        marker = MARKERS[look_of(w, state.threshold)]
        if w.probs is None or compact:
            return f"{marker}{w.tag.value}"
        p = w.probs[TAGS.index(w.tag)]
        return f"{marker} {w.tag.value} {round(p * 100):d}%".strip()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        _background(painter, option, index)
        if self.model.doc is None:
            return
        row, rect = index.row(), option.rect
        state = self.model.state
        words = state.cues[row] if state is not None and row < len(state.cues) else []
        g = self.view.geometry_
        c = _colours(option)
        font = self.view.text_font
        lay = self.layout(row, rect)
        x0 = rect.left() + g.gutter
        current = state.current if state is not None else None
        painter.save()
        painter.setClipRect(rect)
        painter.setFont(font)
        frame: QRectF | None = None
        for i, line in enumerate(lay.lines):
            top = g.text_top(rect, i)
            baseline = top + g.ascent
            review_here = False
            for run in line.runs:
                x = x0 + run.x
                if run.kind == WORD and run.slot is not None and run.slot < len(words):
                    w = words[run.slot]
                    look = look_of(w, state.threshold)
                    review_here |= look is Look.REVIEW
                    box = QRectF(x, top, run.width, g.text_h + g.under_h)
                    fill = c.fill(look)
                    if fill is not None:
                        painter.fillRect(box, fill)
                    painter.setPen(c.fill_text if fill is not None else c.text)
                    painter.drawText(QPointF(x, baseline), run.text)
                    self._underline(painter, look, box, c)
                    if current == (row, run.slot):
                        frame = box
                    continue
                painter.setPen(c.markup if run.kind in (MARKUP, ELISION) else c.text)
                painter.drawText(QPointF(x, baseline), run.text)
            if review_here:  # the marker that does not depend on colour, where the eye scans
                painter.setFont(self.view.bold_font)
                painter.setPen(c.review_line)
                painter.drawText(QPointF(rect.left() + 2, baseline), REVIEW_MARK)
                painter.setFont(font)
            if self.view.show_tags and state is not None:
                self._paint_glosses(painter, state, row, line, x0, top - g.gloss_h, c)
                painter.setFont(font)
        if frame is not None:  # last, so no neighbour's fill covers it
            painter.setPen(QPen(c.frame, 2))
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(frame.adjusted(-1, -1, 1, 0))
        painter.restore()

    @staticmethod
    def _underline(painter: QPainter, look: Look, box: QRectF, c: theme.WordColours) -> None:
        """Each look's own underline: the marker that does not depend on colour."""
        colour = c.line(look)
        if colour is None:
            return
        y = box.bottom() - 1.5
        left, right = box.left() + 1, box.right() - 1
        pen = QPen(colour, 2)
        pen.setCapStyle(Qt.FlatCap)
        if look is Look.REVIEW:
            pen.setWidthF(3)
            y = box.bottom() - 1.5
        elif look is Look.ACCEPTED:
            pen.setWidthF(1)
            y = box.bottom() - 1
        elif look is Look.CHANGED:
            pen.setDashPattern([3, 2])   # in pen widths: 6 px dash, 4 px gap
        elif look is Look.LEARNED:
            pen.setDashPattern([1, 1.5])  # 2 px dots
        elif look is Look.EDITED:
            pen.setWidthF(1)
            painter.setPen(pen)
            painter.drawLine(QPointF(left, box.bottom() - 3.5), QPointF(right, box.bottom() - 3.5))
            y = box.bottom() - 1
        painter.setPen(pen)
        painter.drawLine(QPointF(left, y), QPointF(right, y))

    def _paint_glosses(self, painter: QPainter, state: ReviewState, row: int, line: Line, x0: float, top: float,
                       c: theme.WordColours) -> None:
        """Tag and probability above each word, in the band above the line: the line's spacing is untouched.

        A gloss is centred over its word, kept right of the previous gloss and
        of the line's start; when it would reach past the start of the next
        word, the compact form (marker and tag, "?L") is used instead.
        """
        note = self.view.gloss_font
        nfm = QFontMetricsF(note)
        painter.setFont(note)
        painter.setPen(c.note)
        words = [r for r in line.runs if r.kind == WORD and r.slot is not None and r.slot < len(state.cues[row])]
        prev_end = x0 - 4
        for j, run in enumerate(words):
            next_left = x0 + words[j + 1].x if j + 1 < len(words) else float("inf")
            centre = x0 + run.x + run.width / 2
            for compact in (False, True):
                text = self.gloss(state, row, run.slot, compact)
                gw = nfm.horizontalAdvance(text)
                gx = max(centre - gw / 2, prev_end + 4, x0)
                if compact or gx + gw <= next_left:
                    break
            painter.drawText(QPointF(gx, top + nfm.ascent()), text)
            prev_end = gx + gw

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        # Not the base class's: it would measure the whole cue string (50 MB for a pathological cue).
        if self.model.doc is None:
            return QSize(0, self.view.geometry_.row_height(1))
        lay = self.layout(index.row(), QRect(0, 0, 1 << 20, 0))
        width = max((ln.runs[-1].x + ln.runs[-1].width for ln in lay.lines if ln.runs), default=0.0)
        return QSize(int(width) + self.view.geometry_.gutter + self.PAD_X,
                     self.view.geometry_.row_height(len(lay.lines)))


class ReadingDelegate(QStyledItemDelegate):
    """CPS (first line) and CPL (one figure per line, level with it), in the warning colour past the limits."""

    PAD_X = 4

    def __init__(self, view: CueView):
        super().__init__(view)
        self.view = view
        self.model = view.cue_model

    def figures(self, row: int, column: int) -> list[tuple[str, bool]]:
        """(text, over the limit) for each line of the cell."""
        r = self.model.reading(row)
        if column == COL_CPS:
            if r.cps is None:
                return [("\u2014", False)]
            over = r.cps > self.view.cps_limit
            value = f"{r.cps:.1f}" if r.cps < 1000 else ">999"
            return [(value + (WARN_MARK if over else ""), over)]
        out = []
        for n in r.line_chars:
            over = n > self.view.cpl_limit
            out.append(((str(n) if n < 10000 else ">9999") + (WARN_MARK if over else ""), over))
        return out

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        _background(painter, option, index)
        if self.model.doc is None:
            return
        g = self.view.geometry_
        c = _colours(option)
        rect = option.rect
        painter.save()
        painter.setClipRect(rect)
        font, bold = self.view.text_font, self.view.bold_font
        for i, (text, over) in enumerate(self.figures(index.row(), index.column())):
            painter.setFont(bold if over else font)
            painter.setPen(c.warn if over else c.text)
            box = QRect(rect.left(), g.text_top(rect, i), rect.width() - self.PAD_X, g.text_h)
            painter.drawText(box, _RIGHT_TOP, text)
        painter.restore()


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
        self.delegate = WordDelegate(self)
        self.reading_delegate = ReadingDelegate(self)
        self.cell_delegate = CellDelegate(self)
        self.setItemDelegate(self.cell_delegate)
        self.setItemDelegateForColumn(COL_TEXT, self.delegate)
        self.setItemDelegateForColumn(COL_CPS, self.reading_delegate)
        self.setItemDelegateForColumn(COL_CPL, self.reading_delegate)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)
        self.verticalHeader().setVisible(False)
        # Row heights come from the line count (cheap: no layout, no font
        # metrics per cue), set once per cue; see fit_rows.
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(COL_NUM, QHeaderView.Interactive)
        self.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
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
            header.setDefaultSectionSize(g.row_height(common))  # resizes every row to it
            for r, n in enumerate(lines):
                if n != common:
                    self.setRowHeight(r, g.row_height(n))
            return
        for r in rows:
            want = g.row_height(count_lines(doc.cues[r].text))
            if self.rowHeight(r) != want:
                self.setRowHeight(r, want)

    def set_document(self, doc, state) -> None:
        self.delegate.clear_cache()
        self.cue_model.set_document(doc, state)
        self.fit_rows()

    def refresh(self, cues) -> None:
        cues = list(cues)
        self.delegate.clear_cache(cues)
        self.cue_model.refresh(cues)
        self.fit_rows(cues)

    def text_option(self, index: QModelIndex) -> QStyleOptionViewItem:
        opt = QStyleOptionViewItem()
        self.initViewItemOption(opt)
        opt.rect = self.visualRect(index)
        return opt

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
        if event.button() != Qt.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid() or index.column() != COL_TEXT or self.cue_model.state is None:
            return
        slot = self.delegate.word_at(index.row(), self.visualRect(index), event.position().toPoint())
        if slot is not None:
            self.word_clicked.emit(index.row(), slot, event.globalPosition().toPoint())

