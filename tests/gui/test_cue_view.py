"""The cue view paints each cue as written, fits 20+ cues of a film, and stays fast on huge cues.

Real widgets offscreen, the real model, the real dev subtitles.  What is
"painted" is taken from QPainter.drawText itself: a QPainter subclass on a
real QImage records every call the delegate makes and passes it on.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from subcase.gui.cue_view import COL_TEXT
from subcase.casing import Mode, Tag, apply_casing, case_document
from subcase.review import ReviewState, ReviewWord, Status, flag_reasons
from subcase.subtitles import load

from .conftest import needs_model, open_and_wait

DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev-subtitles"
DEV_FILES = sorted(p for p in DEV.glob("*") if p.suffix in (".srt", ".vtt")) if DEV.is_dir() else []
needs_dev = pytest.mark.skipif(not DEV_FILES, reason=f"no dev subtitles at {DEV}")
# Real films: Elephants Dream (78 cues, more than a screenful) and Sintel (26)
FILMS = [DEV / "videojs__video.js__docs__examples__elephantsdream__captions.en.vtt", DEV / "meyer1994__srt__sintel_en.srt"]


class RecordingPainter(QPainter):
    """A real painter on a real image that also keeps every drawText call."""

    def __init__(self, image: QImage):
        super().__init__(image)
        self.calls: list[tuple[float, float, str, str]] = []  # x, y, text, font key

    def drawText(self, *args):  # noqa: N802 (Qt's name)
        if isinstance(args[0], QPointF):
            self.calls.append((args[0].x(), args[0].y(), args[1], self.font().key()))
        else:  # (QRect, flags, text): the reading figures
            self.calls.append((float(args[0].x()), float(args[0].y()), args[-1], self.font().key()))
        return super().drawText(*args)


def paint_cue(view, row: int, width: int = 4000) -> RecordingPainter:
    index = view.cue_model.index(row, COL_TEXT)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = QRect(0, 0, width, view.rowHeight(row))
    image = QImage(width, max(1, view.rowHeight(row)), QImage.Format_ARGB32)
    painter = RecordingPainter(image)
    try:
        view.delegate.paint(painter, option, index)
    finally:
        painter.end()
    return painter


def painted_lines(view, painter: RecordingPainter) -> list[list[tuple[float, str]]]:
    """The cue-text calls (the view's font) grouped into lines by baseline, left to right.

    Only the gloss (the smaller note font) and the gutter's "?" (bold) are
    drawn in other fonts; check_paints_as_written pins that down too.
    """
    key = view.font().key()
    lines: dict[float, list[tuple[float, str]]] = {}
    for x, y, text, font in painter.calls:
        if font == key:
            lines.setdefault(y, []).append((x, text))
    return [sorted(lines[y]) for y in sorted(lines)]


def check_paints_as_written(view, doc) -> int:
    """For every cue: the drawn runs are the cue text, and each run starts where the one before ends."""
    fm = QFontMetricsF(view.font())
    x0 = view.geometry_.gutter
    allowed = {view.font().key(), view.note_font().key(), view.marker_font().key()}
    for row, cue in enumerate(doc.cues):
        painter = paint_cue(view, row)
        assert {font for *_rest, font in painter.calls} <= allowed
        assert all(t == "?" for _x, _y, t, font in painter.calls if font == view.marker_font().key())
        lines = painted_lines(view, painter)
        text = "\n".join("".join(t for _x, t in line) for line in lines)
        assert text == cue.text, f"cue {row + 1}: painted {text!r}, file has {cue.text!r}"
        for line in lines:
            x = x0
            for rx, t in line:  # no padding, no gap: the next run starts at the end of this one
                assert rx == pytest.approx(x, abs=0.01), f"cue {row + 1}: {t!r} at {rx}, expected {x}"
                x += fm.horizontalAdvance(t)
    return len(doc.cues)


@pytest.fixture
def view(qtbot):
    from subcase.gui.cue_view import CueView

    v = CueView()
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    return v


@needs_dev
@needs_model
@pytest.mark.parametrize("show_tags", [False, True], ids=["plain", "all-tags"])
def test_every_dev_cue_is_painted_exactly_as_written(view, engines, show_tags):
    engine = engines.get()
    view.set_show_tags(show_tags)
    cues = 0
    for path in DEV_FILES:
        doc = load(path)
        view.set_document(doc, None)  # before casing: the file as it was opened
        cues += check_paints_as_written(view, doc)
        casing = case_document(engine, doc, Mode.RESTORE, punctuate="never")
        apply_casing(doc, casing)
        state = ReviewState.from_casing(len(doc.cues), casing)
        # every look on screen: some decided, the rest flagged at a high threshold
        state.threshold = 0.99
        for k, w in enumerate(state.all_words()):
            if k % 7 == 1:
                w.status = [Status.ACCEPTED, Status.CHANGED, Status.LEARNED, Status.EDITED][k % 4]
        state.current = next(state.positions(), None)
        view.set_document(doc, state)
        check_paints_as_written(view, doc)
    assert len(DEV_FILES) >= 22 and cues >= 700  # 762 cues in the 22 files: all of them, not a handful


@needs_dev
@needs_model
@pytest.mark.parametrize("source", FILMS, ids=lambda p: p.name.split("__")[-1])
def test_a_film_shows_twenty_cues_at_1600x1000(qtbot, make_window, tmp_path, source):
    window = make_window()  # default settings: fresh config folder, default font size
    window.resize(1600, 1000)
    film = tmp_path / source.name
    film.write_bytes(source.read_bytes())
    open_and_wait(qtbot, window, film)
    assert len(window.session.doc.cues) > 25
    qtbot.wait(50)
    assert window.details.isVisible()  # with the details panel open beside the list
    view = window.view
    view.scrollToTop()
    rows = view.visible_rows()
    vp = view.viewport().rect()
    assert len(rows) >= 20, f"{len(rows)} cues visible in a {vp.width()}x{vp.height()} list"
    for r in rows:  # really inside the viewport, whole
        rect = view.visualRect(view.cue_model.index(r, 0))
        assert vp.top() <= rect.top() and rect.bottom() <= vp.bottom()
    print(f"{len(rows)} cues visible at 1600x1000 (list {vp.width()}x{vp.height()})")


def test_a_huge_cue_is_laid_out_and_painted_in_no_time(view, tmp_path):
    # 50 MB in one line, with markup: only what fits on screen is laid out
    unit = "the quick brown fox <i>jumps</i> over mr. brown's lazy dog. "
    p = tmp_path / "huge.srt"
    p.write_text("1\n00:00:01,000 --> 00:00:02,000\n" + unit * (50_000_000 // len(unit)) + "\n"
                 "\n2\n00:00:03,000 --> 00:00:04,000\n" + "line\n" * 5000 + "\n", encoding="utf-8")
    doc = load(p)
    assert len(doc.cues[0].text) > 49_000_000
    tracemalloc.start()
    t = time.perf_counter()
    view.set_document(doc, None)
    QApplication.processEvents()  # the header lays its columns out
    view.viewport().repaint()
    rect = view.visualRect(view.cue_model.index(0, COL_TEXT))
    lay = view.delegate.layout(0, rect)
    elapsed = time.perf_counter() - t
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < 1.0, f"{elapsed:.2f} s to show a 50 MB cue"
    assert peak < 5_000_000, f"{peak / 1e6:.0f} MB of Python objects to show a 50 MB cue"
    assert lay.lines[0].cut and lay.lines[0].runs[-1].kind == "elision"
    assert rect.width() > 500 and sum(len(r.text) for r in lay.lines[0].runs) < 200  # a screen's width of it
    assert any(r.kind == "markup" and r.text == "<i>" for r in lay.lines[0].runs), lay.lines[0].runs[:4]
    # 5,000 lines: 12 shown, the row is as tall as 12 lines, the last says more follow
    lay2 = view.delegate.layout(1, view.visualRect(view.cue_model.index(1, COL_TEXT)))
    assert len(lay2.lines) == 12 and lay2.more_lines and lay2.lines[-1].runs[-1].kind == "elision"
    assert view.rowHeight(1) == view.geometry_.row_height(12)


def test_a_huge_cue_with_review_words_is_cheap(view):
    from subcase.subtitles import Cue, Document

    text = "we met john in london. " * 200_000  # 4.6 MB, 1 million words
    cue = Cue("1", 1000, 2000, text=text)
    doc = Document("srt", "utf-8", False, "\n", [cue], [])
    words = [ReviewWord(0, k, t.start, t.end, t.text, t.text, t.text, Tag.L, (0.5, 0.3, 0.1, 0.1))
             for k, t in enumerate(cue.words())]
    state = ReviewState([words], 0.9)
    state.current = (0, 3)
    t = time.perf_counter()
    view.set_document(doc, state)
    view.viewport().repaint()
    elapsed = time.perf_counter() - t
    assert elapsed < 1.0, f"{elapsed:.2f} s to show a cue of a million words"
    runs = view.delegate.layout(0, view.visualRect(view.cue_model.index(0, COL_TEXT))).lines[0].runs
    assert [r.slot for r in runs if r.kind == "word"][:5] == [0, 1, 2, 3, 4]


@needs_model
def test_details_panel_says_why_and_sets_a_tag(qtbot, make_window, sample, engines):
    from .test_window import ensure_words_to_review

    window = make_window()
    open_and_wait(qtbot, window, sample)
    ensure_words_to_review(qtbot, window)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    qtbot.keyClick(window.view, Qt.Key_N)
    state = window.session.state
    pos = state.current
    w = state.word(pos)
    dock = window.details
    assert dock.word_label.text() == f"\u201c{w.form}\u201d"
    reasons = [str(r) for r in flag_reasons(state, pos)]
    assert reasons and reasons[0].startswith("low confidence ")
    assert dock.why_label.text() == "\n".join(f"\u2022 {r}" for r in reasons)
    engine = engines.get()
    rows = {dock.alts.item(i, 0).text(): (dock.alts.item(i, 1).text(), dock.alts.item(i, 2).text())
            for i in range(dock.alts.rowCount())}
    # Mixed is shown only where it writes the word otherwise than Title, lower and UPPER (issue #57)
    forms = [dock.alts.item(i, 1).text() for i in range(dock.alts.rowCount())]
    assert len(forms) == len(set(forms)) and set(rows) >= {"lower", "Title", "UPPER"}
    assert ("Mixed" in rows) == (engine.form(w.form, Tag.M) not in forms[:3])
    assert rows["UPPER"][0] == engine.form(w.form, Tag.U)
    # activating a row sets that tag, like the keyboard does
    target = next(i for i in range(len(forms)) if dock.alts.item(i, 1).text() != w.form)
    form = dock.alts.item(target, 1).text()
    dock.alts.itemActivated.emit(dock.alts.item(target, 1))
    assert w.form == form and w.status is Status.CHANGED
    assert window.session.doc.cues[pos[0]].text[w.start:w.end] == form
    assert dock.state_label.text() == "State: changed by you (\u270e)"
    # View › Show All Tags: taller rows, same text
    h = window.view.rowHeight(0)
    window.menus.act_show_tags.trigger()
    assert window.settings.show_tags and window.view.rowHeight(0) > h
    lines = painted_lines(window.view, paint_cue(window.view, 0))
    assert "\n".join("".join(t for _x, t in line) for line in lines) == window.session.doc.cues[0].text


def test_window_opens_at_a_share_of_the_screen_and_remembers_its_layout(qtbot, make_window):
    from subcase.gui.main_window import SCREEN_SHARE

    first = make_window()  # fresh settings (a temporary config folder)
    area = first.screen().availableGeometry()
    assert (first.width(), first.height()) == (int(area.width() * SCREEN_SHARE), int(area.height() * SCREEN_SHARE))
    assert first.details.isVisible()
    first.resize(area.width() - 123, area.height() - 77)  # restoreGeometry keeps a window on its screen
    first.details.hide()
    first.view.setColumnWidth(0, 77)
    first.menus.act_show_tags.trigger()
    qtbot.wait(20)
    first.close()

    again = make_window()  # the same settings file
    qtbot.wait(20)
    assert (again.width(), again.height()) == (area.width() - 123, area.height() - 77)
    assert not again.details.isVisible() and not again.menus.act_details.isChecked()
    assert again.view.columnWidth(0) == 77
    assert again.view.show_tags and again.menus.act_show_tags.isChecked()


def test_a_line_wider_than_the_column_ends_in_an_ellipsis_on_its_edge(view):
    from subcase.subtitles import loads

    doc = loads(b"1\n00:00:01,000 --> 00:00:02,000\n" + b"a long line of dialogue " * 40 + b"\n", "x.srt")
    view.set_document(doc, None)
    width = 300
    painter = paint_cue(view, 0, width=width)
    drawn = [(x, t) for x, _y, t, font in painter.calls if font == view.font().key()]
    assert drawn[-1][1] == "\u2026" and width - 20 < drawn[-1][0] < width
    # what is drawn before it is the start of the line, as written
    assert doc.cues[0].text.startswith("".join(t for _x, t in drawn[:-1]))


@needs_dev
def test_every_row_is_as_tall_as_its_cue_after_opening_another_file(view):
    from subcase.gui.cue_layout import count_lines

    # Sintel first: its two-line rows must not stay two lines tall in the next file
    for source in reversed(FILMS):
        doc = load(source)
        view.set_document(doc, None)
        heights = [view.rowHeight(r) for r in range(len(doc.cues))]
        assert heights == [view.geometry_.row_height(count_lines(c.text)) for c in doc.cues], source.name
        assert len(set(heights)) > 1  # one- and two-line cues in both films
