"""The cue table's delegates: number and timing, the cue text with its words' looks, CPS and CPL.

``WordDelegate`` paints the cue text from ``cue_layout`` runs with
QPainter.drawText, so subtitle text is always plain text: nothing in a cue
is ever parsed as Qt rich text or HTML (a cue holding ``<img src=...>``
shows those characters and loads nothing).  It reads like the subtitle:
original spacing and punctuation, the view's font, line breaks as in the
file.  Words carry their review state inline (a fill and an underline style
per look, a "?" in the margin of a line with words to review, a frame on
the current word); markup is dim literal text.  A punctuation mark the model
restored has a look of its own (``review.mark_look_of``): a thin box around
the mark, filled and lined like a word of that look (solid for to review and
accepted, dashed for changed, a dim dotted box for a sure mark nobody looked
at), and a caret where a restored mark was taken away.

Every cell paints its own background and text in the theme's colours, so
the pairs on screen are the pairs whose contrast is tested.  Paint runs for
every visible cell on every repaint: nothing here allocates more than it
must (colours and fonts come ready from the view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from subcase.casing import TAGS
from subcase.review import Look, ReviewState, ReviewWord, look_of, mark_look_of
from subcase.review.actions import SetMark
from subcase.subtitles.marking import existing_mark

from . import theme
from .cue_layout import ELISION, MARKUP, WORD, Advances, CueLayout, Line, layout_cue
from .cue_model import COL_CPS, COL_NUM, CueModel

# The marker of each look in the gloss ("Show all tags") and the details panel.
MARKERS = {Look.REVIEW: "?", Look.ACCEPTED: "\u2713", Look.CHANGED: "\u270e", Look.LEARNED: "\u21ba", Look.PROFILE: "p",
           Look.EDITED: "e", Look.PLAIN: ""}
LOOK_NAMES = {Look.REVIEW: "to review", Look.ACCEPTED: "accepted", Look.CHANGED: "changed by you",
              Look.LEARNED: "changed by what you taught", Look.PROFILE: "from your profile", Look.EDITED: "typed by hand", Look.PLAIN: "not flagged"}
WARN_MARK = "!"  # after a reading figure past its limit: not colour alone
REVIEW_MARK = "?"  # in the gutter of a line that has words to review
_RIGHT_TOP = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)  # computed once: enum arithmetic is slow in a paint loop
_LEFT_TOP = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)


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


class CueViewLike(Protocol):
    """What the delegates read from the cue view (``cue_view.CueView``)."""
    cue_model: CueModel
    geometry_: RowGeometry
    colours: theme.WordColours
    text_font: QFont
    bold_font: QFont
    gloss_font: QFont
    show_tags: bool
    cpl_limit: int
    cps_limit: float


# What Qt hands a delegate: either kind of index.
Index = QModelIndex | QPersistentModelIndex


def _colours(option: QStyleOptionViewItem) -> theme.WordColours:
    """The theme's colours, looked up once per repaint of the view (not once per cell)."""
    colours = getattr(option.widget, "colours", None)
    return colours if isinstance(colours, theme.WordColours) else theme.colours()


def _row_bg(c: theme.WordColours, option: QStyleOptionViewItem, row: int) -> QColor:
    if option.state & QStyle.StateFlag.State_Selected:
        return c.selected
    return c.alternate if row % 2 else c.base


def _background(painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
    """The row's background, selected or not, in the theme's colours.

    Every column paints its own background from ``theme.colours()`` rather
    than from the palette, so the pairs whose contrast is tested are the
    pairs on screen, whatever the style or a style sheet does to palettes.
    """
    painter.fillRect(option.rect, _row_bg(_colours(option), option, index.row()))


class CellDelegate(QStyledItemDelegate):
    """Number and timing: plain text level with the cue's first line."""

    PAD_X = 4

    def __init__(self, view: CueViewLike, parent: QObject | None = None):
        super().__init__(parent)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        _background(painter, option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not text:
            return
        g = self.view.geometry_
        rect = option.rect
        # drawText into a rectangle clips to it: no save/clip/restore (fewer calls per cell)
        painter.setFont(self.view.text_font)
        painter.setPen(_colours(option).text)
        painter.drawText(QRect(rect.left() + self.PAD_X, g.text_top(rect, 0), rect.width() - 2 * self.PAD_X,
                               g.text_h), _RIGHT_TOP if index.column() == COL_NUM else _LEFT_TOP, str(text))


class WordDelegate(QStyledItemDelegate):
    """Paints the cue text from its layout runs; the one place words get their look."""

    PAD_X = 4

    def __init__(self, view: CueViewLike, parent: QObject | None = None):
        super().__init__(parent)
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
        hide = self.model.word_level
        key = (font.key(), width, id(words), len(words), hide)
        hit = self._layouts.get(row)
        if hit is not None and hit[1].text is text and hit[0] == key:
            return hit[1]
        lay = layout_cue(text, words, font, width, hide_timing=hide)
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

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
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
        marks = self.mark_boxes(lay, words, state) if state is not None else []
        for i, line in enumerate(lay.lines):
            top = g.text_top(rect, i)
            baseline = top + g.ascent
            # 1. each word's look: fill and underline, under the text
            review_here = False
            for run in line.runs:
                if run.kind != WORD or run.slot is None or run.slot >= len(words) or state is None:
                    continue
                look = look_of(words[run.slot], state.threshold)
                box = QRectF(x0 + run.x, top, run.width, g.text_h + g.under_h)
                if look is not Look.PLAIN:
                    review_here |= look is Look.REVIEW
                    painter.fillRect(box, c.fill(look))
                    self._underline(painter, look, box, c)
                if current == (row, run.slot):
                    frame = box
            for mark_line, mx, mw, mlook in marks:
                if mark_line == i:
                    review_here |= mlook is Look.REVIEW
                    self._mark_box(painter, mlook, QRectF(x0 + mx, top, mw, g.text_h + g.under_h), c)
            # 2. the text, one drawText per stretch of one colour (words and the
            # text between them share it; markup is dim): few calls per repaint
            pen: QColor | None = None
            k, runs = 0, line.runs
            while k < len(runs):
                run = runs[k]
                x = x0 + run.x
                if run.kind == ELISION:
                    # a line cut at the cell's edge: its "…" goes on the edge, over the text
                    edge = rect.right() - run.width - 2
                    if x > edge:
                        x = edge
                        painter.fillRect(QRectF(x - 2, top, run.width + 4, g.text_h), _row_bg(c, option, row))
                    stretch, k = run.text, k + 1
                    colour = c.markup
                else:
                    dim = run.kind == MARKUP
                    j = k + 1
                    while j < len(runs) and runs[j].kind != ELISION and (runs[j].kind == MARKUP) == dim:
                        j += 1
                    stretch = runs[k].text if j == k + 1 else "".join(r.text for r in runs[k:j])
                    k = j
                    colour = c.markup if dim else c.text
                if colour is not pen:
                    painter.setPen(colour)
                    pen = colour
                painter.drawText(QPointF(x, baseline), stretch)
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
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(frame.adjusted(-1, -1, 1, 0))
        painter.restore()

    def mark_boxes(self, lay: CueLayout, words: list[ReviewWord],
                   state: ReviewState) -> list[tuple[int, float, float, Look]]:
        """(line, x, width, look) of each restored mark of the cue that is laid out: the box around the mark's
        characters, or a zero width where a restored mark was taken away."""
        out: list[tuple[int, float, float, Look]] = []
        advance: Advances | None = None
        for s, w in enumerate(words):
            if w.mark is None:
                continue
            look = mark_look_of(w, state.mark_threshold)
            if look is None:
                continue
            at, chars = existing_mark(lay.text, SetMark.word_end(state, (w.cue_index, s)))
            for i, line in enumerate(lay.lines):
                if not line.start <= at <= line.end:
                    continue
                for run in line.runs:
                    if run.kind == ELISION or not run.start <= at <= run.end or (at == run.end and chars):
                        continue
                    if advance is None:
                        advance = Advances.of(self.view.text_font)
                    x = run.x + advance(lay.text[run.start:at])
                    out.append((i, x, advance(chars) if chars else 0.0, look))
                    break
                break
        return out

    @staticmethod
    def _mark_box(painter: QPainter, look: Look, box: QRectF, c: theme.WordColours) -> None:
        """A restored mark's look: a box round its characters (words never have one, but for the current word's
        thicker frame), or a caret under the place of a mark that was taken away."""
        line = c.line(look) or c.note
        pen = QPen(line, 1)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        if look is Look.CHANGED:
            pen.setDashPattern([2, 2])
        elif look is Look.PLAIN:
            pen.setDashPattern([1, 2])  # sure, and nobody looked at it: present, not asking for attention
        if box.width() <= 0:  # the mark was taken away: a caret where it stood
            bottom = box.bottom() - 1
            painter.setPen(QPen(line, 1.5))
            painter.drawLine(QPointF(box.left() - 3, bottom), QPointF(box.left(), bottom - 5))
            painter.drawLine(QPointF(box.left(), bottom - 5), QPointF(box.left() + 3, bottom))
            return
        box = box.adjusted(-1, 0, 1, -1)
        fill = c.fill(look)
        if fill is not None:
            painter.fillRect(box, fill)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(box)

    @staticmethod
    def _underline(painter: QPainter, look: Look, box: QRectF, c: theme.WordColours) -> None:
        """Each look's own underline: the marker that does not depend on colour."""
        colour = c.line(look)
        if colour is None:
            return
        y = box.bottom() - 1.5
        left, right = box.left() + 1, box.right() - 1
        pen = QPen(colour, 2)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
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
        elif look is Look.PROFILE:
            pen.setDashPattern([4, 1.5, 1, 1.5])  # dash-dot: learned elsewhere
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
            assert run.slot is not None  # only word runs with a slot are in ``words``
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

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
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

    def __init__(self, view: CueViewLike, parent: QObject | None = None):
        super().__init__(parent)
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

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        _background(painter, option, index)
        if self.model.doc is None:
            return
        g = self.view.geometry_
        c = _colours(option)
        rect = option.rect
        font, bold = self.view.text_font, self.view.bold_font
        for i, (text, over) in enumerate(self.figures(index.row(), index.column())):
            painter.setFont(bold if over else font)
            painter.setPen(c.warn if over else c.text)
            box = QRect(rect.left(), g.text_top(rect, i), rect.width() - self.PAD_X, g.text_h)
            painter.drawText(box, _RIGHT_TOP, text)  # clipped to the box
