"""The cue table: number, start, end and the cue text word by word.

The text column is painted by ``WordDelegate`` straight from the cue string
with QPainter.drawText, so subtitle text is always plain text: nothing in a
cue is ever parsed as Qt rich text or HTML (a cue holding ``<img src=...>``
shows those characters and loads nothing).  For the same reason no role
returns cue text as a tooltip (Qt tooltips auto-detect rich text).

Each cased word is drawn like an interlinear gloss: the word, and under it
its tag and confidence ("T 62%"), with a marker and fill for its state.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableView

from subcase.casing import TAGS
from subcase.review import ReviewState, Status
from subcase.subtitles import Document
from subcase.subtitles.markup import split as split_markup
from subcase.subtitles.timecode import format_ms

from . import theme

COL_NUM, COL_START, COL_END, COL_TEXT = range(4)
HEADERS = ("#", "Start", "End", "Text")

MARKERS = {Status.ACCEPTED: "\u2713", Status.CHANGED: "\u270e", Status.EDITED: "e",
           Status.LEARNED: "\u2726"}  # a four-pointed star: "changed by what you taught"
REVIEW_MARKER = "?"


class CueModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.state: ReviewState | None = None

    def set_document(self, doc: Document | None, state: ReviewState | None) -> None:
        self.beginResetModel()
        self.doc, self.state = doc, state
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self.doc is None else len(self.doc.cues)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return HEADERS[section]
        return None

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
            return cue.text  # plain; painted by WordDelegate, read by accessibility
        if role == Qt.TextAlignmentRole and col != COL_TEXT:
            return int(Qt.AlignRight | Qt.AlignTop) if col == COL_NUM else int(Qt.AlignLeft | Qt.AlignTop)
        return None

    def refresh(self, cues) -> None:
        for c in cues:
            self.dataChanged.emit(self.index(c, 0), self.index(c, len(HEADERS) - 1))


@dataclass(frozen=True, slots=True)
class Piece:
    rect: QRect          # the word cell (word + note), or the text run
    text: str
    kind: str            # "word" | "plain" | "markup"
    slot: int | None     # the review slot for a cased word
    word_width: int


class WordDelegate(QStyledItemDelegate):
    PAD = 3

    def __init__(self, model: CueModel, parent=None):
        super().__init__(parent)
        self.model = model

    def fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        font = QFont(option.font)
        note = QFont(option.font)
        note.setPointSizeF(max(6.0, font.pointSizeF() * 0.72))
        return font, note

    def line_height(self, option: QStyleOptionViewItem) -> int:
        font, note = self.fonts(option)
        return QFontMetrics(font).height() + QFontMetrics(note).height() + 2

    def note_for(self, row: int, slot: int) -> str:
        """The gloss under a word: state marker, current tag, the model's probability for that tag."""
        state = self.model.state
        assert state is not None
        w = state.cues[row][slot]
        if w.probs is None:
            return f"{MARKERS[Status.EDITED]} {w.tag.value}"
        marker = REVIEW_MARKER if w.needs_review(state.threshold) else MARKERS.get(w.status, "")
        p = w.probs[TAGS.index(w.tag)]
        return f"{marker} {w.tag.value} {round(p * 100):d}%".strip()

    def layout(self, row: int, rect: QRect, option: QStyleOptionViewItem) -> list[Piece]:
        doc, state = self.model.doc, self.model.state
        if doc is None:
            return []
        text = doc.cues[row].text
        font, note = self.fonts(option)
        fm, nfm = QFontMetrics(font), QFontMetrics(note)
        words = state.cues[row] if state is not None and row < len(state.cues) else []
        # Cut points: word edges and markup edges.
        word_at = {w.start: (s, w.end) for s, w in enumerate(words)}
        markup = [(sp.start, sp.end) for sp in split_markup(text) if sp.is_markup]
        pieces: list[Piece] = []
        x0, y = rect.left() + self.PAD, rect.top() + self.PAD
        lh = fm.height() + nfm.height() + 2
        x = x0
        i = 0
        run_start = 0

        def flush_run(end: int) -> None:
            nonlocal x
            if end > run_start:
                run = text[run_start:end]
                w = fm.horizontalAdvance(run)
                pieces.append(Piece(QRect(x, y, w, fm.height()), run, "plain", None, w))
                x += w

        while i < len(text):
            ch = text[i]
            if ch == "\n":
                flush_run(i)
                x, y = x0, y + lh
                i += 1
                run_start = i
                continue
            m = next(((a, b) for a, b in markup if a == i), None)
            if m is not None:
                flush_run(i)
                seg = text[m[0]:m[1]].replace("\n", " ")
                w = fm.horizontalAdvance(seg)
                pieces.append(Piece(QRect(x, y, w, fm.height()), seg, "markup", None, w))
                x += w
                i = m[1]
                run_start = i
                continue
            if i in word_at:
                flush_run(i)
                slot, end = word_at[i]
                seg = text[i:end]
                ww = fm.horizontalAdvance(seg)
                cell = max(ww, nfm.horizontalAdvance(self.note_for(row, slot)))
                pieces.append(Piece(QRect(x, y, cell, lh), seg, "word", slot, ww))
                x += cell
                i = end
                run_start = i
                continue
            i += 1
        flush_run(len(text))
        return pieces

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        if index.column() != COL_TEXT:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(QStyle.CE_ItemViewItem, opt, painter, opt.widget)
        row = index.row()
        state = self.model.state
        colours = theme.colours()
        font, note = self.fonts(option)
        fm, nfm = QFontMetrics(font), QFontMetrics(note)
        selected = bool(option.state & QStyle.State_Selected)
        text_colour = option.palette.highlightedText().color() if selected else option.palette.text().color()
        painter.save()
        painter.setClipRect(option.rect)
        for p in self.layout(row, option.rect, option):
            if p.kind != "word":
                painter.setFont(font)
                painter.setPen(colours.markup if p.kind == "markup" and not selected else text_colour)
                painter.drawText(p.rect.left(), p.rect.top() + fm.ascent(), p.text)
                continue
            assert state is not None and p.slot is not None
            w = state.cues[row][p.slot]
            word_rect = QRect(p.rect.left(), p.rect.top(), p.rect.width(), fm.height())
            fill = None
            review = w.needs_review(state.threshold)
            if review:
                fill = colours.review_bg
            elif w.status is Status.ACCEPTED and w.flagged(state.threshold):
                fill = colours.accepted_bg
            elif w.status is Status.CHANGED:
                fill = colours.changed_bg
            elif w.status is Status.EDITED:
                fill = colours.edited_bg
            elif w.status is Status.LEARNED:
                fill = colours.learned_bg
            elif w.status is Status.ACCEPTED:
                fill = colours.accepted_bg
            if fill is not None:
                painter.fillRect(p.rect.adjusted(0, 0, 0, 0), fill)
            word_text_colour = text_colour if fill is None else colours.frame
            painter.setFont(font)
            painter.setPen(word_text_colour)
            painter.drawText(word_rect, int(Qt.AlignHCenter | Qt.AlignTop), p.text)
            if review:  # not colour alone: a thick underline under words to review
                pen = QPen(colours.review_line, 2)
                painter.setPen(pen)
                yline = word_rect.bottom()
                painter.drawLine(p.rect.left() + 1, yline, p.rect.right() - 1, yline)
            painter.setFont(note)
            painter.setPen(colours.frame if fill is not None else (text_colour if selected else colours.note))
            painter.drawText(QRect(p.rect.left(), p.rect.top() + fm.height() + 1, p.rect.width(), nfm.height()),
                             int(Qt.AlignHCenter | Qt.AlignTop), self.note_for(row, p.slot))
            if state.current == (row, p.slot):
                painter.setPen(QPen(colours.frame if fill is not None else text_colour, 2))
                painter.setBrush(Qt.NoBrush)
                painter.drawRect(p.rect.adjusted(-1, -1, 0, 0))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        base = super().sizeHint(option, index)
        if index.column() != COL_TEXT or self.model.doc is None:
            return base
        lines = self.model.doc.cues[index.row()].text.count("\n") + 1
        return QSize(base.width(), lines * self.line_height(option) + 2 * self.PAD)

    def word_at(self, row: int, rect: QRect, option: QStyleOptionViewItem, pos: QPoint) -> int | None:
        for p in self.layout(row, rect, option):
            if p.kind == "word" and p.rect.contains(pos):
                return p.slot
        return None


class CueView(QTableView):
    """The table; clicking a cased word reports it with the click position."""

    word_clicked = Signal(int, int, QPoint)  # cue, slot, global position

    def __init__(self, parent=None):
        super().__init__(parent)
        self.cue_model = CueModel(self)
        self.setModel(self.cue_model)
        self.delegate = WordDelegate(self.cue_model, self)
        self.setItemDelegateForColumn(COL_TEXT, self.delegate)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)
        self.verticalHeader().setVisible(False)
        # Fixed row heights (two subtitle lines) keep opening a 1,500-cue file
        # cheap; the few taller cues are resized one by one.
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(COL_NUM, QHeaderView.Interactive)
        self.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.apply_font_metrics()

    def apply_font_metrics(self) -> None:
        opt = QStyleOptionViewItem()
        opt.font = self.font()
        self._line_h = self.delegate.line_height(opt)
        self.verticalHeader().setDefaultSectionSize(2 * self._line_h + 2 * WordDelegate.PAD + 2)
        fm = QFontMetrics(self.font())
        self.setColumnWidth(COL_NUM, fm.horizontalAdvance("00000") + 12)
        self.setColumnWidth(COL_START, fm.horizontalAdvance("00:00:00,000") + 16)
        self.setColumnWidth(COL_END, fm.horizontalAdvance("00:00:00,000") + 16)
        self.fit_rows()

    def fit_rows(self, rows=None) -> None:
        doc = self.cue_model.doc
        if doc is None:
            return
        default = self.verticalHeader().defaultSectionSize()
        for r in (range(len(doc.cues)) if rows is None else rows):
            lines = doc.cues[r].text.count("\n") + 1
            want = max(default, lines * self._line_h + 2 * WordDelegate.PAD + 2)
            if self.rowHeight(r) != want:
                self.setRowHeight(r, want)

    def set_document(self, doc, state) -> None:
        self.cue_model.set_document(doc, state)
        self.fit_rows()

    def refresh(self, cues) -> None:
        self.cue_model.refresh(cues)
        self.fit_rows(cues)

    def text_option(self, index: QModelIndex) -> QStyleOptionViewItem:
        opt = QStyleOptionViewItem()
        self.initViewItemOption(opt)
        opt.rect = self.visualRect(index)
        return opt

    def word_rect(self, cue: int, slot: int) -> QRect | None:
        index = self.cue_model.index(cue, COL_TEXT)
        opt = self.text_option(index)
        for p in self.delegate.layout(cue, opt.rect, opt):
            if p.kind == "word" and p.slot == slot:
                return p.rect
        return None

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        if event.button() != Qt.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid() or index.column() != COL_TEXT or self.cue_model.state is None:
            return
        opt = self.text_option(index)
        slot = self.delegate.word_at(index.row(), opt.rect, opt, event.position().toPoint())
        if slot is not None:
            self.word_clicked.emit(index.row(), slot, event.globalPosition().toPoint())
