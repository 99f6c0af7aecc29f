"""The cue table's model: number, timing, reading speed and the cue text, per row.

Cue text is returned as the plain string it is (for accessibility and the
find bar); it is painted by the delegates in ``cue_delegates``, never as a
tooltip or rich text.

A rolling caption (casing/rolling.py: YouTube's word-level layout, roll-up
captions) is shown as its spoken text: in the word-level layout the timing
tags are hidden (``word_level``), a "snapshot" cue that shows for a moment
what the cue before showed, and says nothing new, is folded away
(``folded``), and a cue's reading speed counts the lines it adds, not the
lines it shows again.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from subcase.casing.auto import NOTES, Passage

from subcase.review import ReviewState
from subcase.subtitles import Document
from subcase.subtitles.timecode import format_ms

from .cue_layout import word_level
from .reading_speed import CueReading, measure

# Auto mode's decision per cue, as a swatch beside the cue number (its tooltip names it): lower case
# restored, capitals recased, real casing kept.
PASSAGE_COLOURS = {Passage.RESTORE: QColor("#3b82f6"), Passage.CAPS: QColor("#f59e0b"),
                   Passage.KEEP: QColor("#9ca3af")}

# A cue shown for less than this that says nothing new is a rolling caption's snapshot of the cue before
# (YouTube: 10 ms; a live stream's: 67 ms): folded away.
SNAPSHOT_MS = 100

COL_NUM, COL_START, COL_END, COL_CPS, COL_CPL, COL_TEXT = range(6)
HEADERS = ("#", "Start", "End", "CPS", "CPL", "Text")


class CueModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.state: ReviewState | None = None
        self._readings: dict[int, tuple[str, int, int, CueReading]] = {}
        self.word_level = False  # the file times its words with inline tags: they are hidden (cue_layout)

    def set_document(self, doc: Document | None, state: ReviewState | None) -> None:
        self.beginResetModel()
        self.doc, self.state = doc, state
        self._readings.clear()
        self.word_level = doc is not None and word_level(cue.text for cue in doc.cues)
        self.endResetModel()

    def _repeats(self, row: int) -> list[bool]:
        """For each review word of a cue, whether it is a copy of a word spoken in a cue before."""
        state = self.state
        if state is None or not state.copies or row >= len(state.cues):
            return []
        out = []
        for s in range(len(state.cues[row])):
            first = state.pieces.get((row, s), ((row, s),))[0]
            group = state.copies.get(first)
            out.append(group is not None and group[0] != first)
        return out

    def folded(self, row: int) -> bool:
        """Whether a cue is a snapshot of a rolling caption (``SNAPSHOT_MS``): only words shown before."""
        assert self.doc is not None
        cue = self.doc.cues[row]
        if cue.end_ms - cue.start_ms >= SNAPSHOT_MS:
            return False
        repeats = self._repeats(row)
        return bool(repeats) and all(repeats)

    def _read_from(self, row: int) -> int:
        """Where what a viewer reads of a cue starts: the line of its first word not shown before (0: all)."""
        repeats = self._repeats(row)
        if not repeats or not repeats[0] or all(repeats):
            return 0
        assert self.state is not None and self.doc is not None
        first_new = self.state.cues[row][repeats.index(False)]
        return self.doc.cues[row].text.rfind("\n", 0, first_new.start) + 1

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self.doc is None else len(self.doc.cues)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
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
        r = measure(cue.text, cue.start_ms, cue.end_ms, read_from=self._read_from(row))
        self._readings[row] = (cue.text, cue.start_ms, cue.end_ms, r)
        return r

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.doc is None:
            return None
        cue = self.doc.cues[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
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
        if col == COL_NUM and role in (Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole):
            passage = self._passage(index.row())
            if passage is None:
                return None
            if role == Qt.ItemDataRole.DecorationRole:
                return PASSAGE_COLOURS[passage]
            reason = self.state.passage_reasons.get(index.row()) if self.state is not None else None
            return f"Auto mode: {reason or NOTES[passage]}"
        if role == Qt.ItemDataRole.TextAlignmentRole and col != COL_TEXT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop) if col in (COL_NUM, COL_CPS, COL_CPL) else \
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        return None

    def _passage(self, row: int) -> Passage | None:
        passages = self.state.passages if self.state is not None else None
        return passages[row] if passages is not None and 0 <= row < len(passages) else None

    def refresh(self, cues) -> None:
        for c in cues:
            self.dataChanged.emit(self.index(c, 0), self.index(c, len(HEADERS) - 1))
