"""The real window, driven by keyboard and mouse, with the real model."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QLabel, QMessageBox

from subcase.casing import TAGS, Mode, Tag, apply_casing, case_document
from subcase.review import Status, log_path_for, read_records
from subcase.review import autosave
from subcase.subtitles import load

from subcase.gui.cue_view import COL_TEXT

from .conftest import DATA, long_srt, needs_model, open_and_change_a_word, open_and_wait, wait_for_emission

pytestmark = needs_model

TAG_KEYS = {Tag.L: Qt.Key_L, Tag.T: Qt.Key_T, Tag.U: Qt.Key_U, Tag.M: Qt.Key_M}


def ensure_words_to_review(qtbot, window, n: int = 3) -> None:
    """Raise the threshold if the model is so sure that fewer than n words are flagged."""
    state = window.session.state
    if state.to_review() < n:
        confs = sorted(w.confidence for w in state.all_words())
        window.threshold.spin.setDecimals(4)
        window.threshold.spin.setValue(min(1.0, confs[n - 1] + 0.0001))
    assert state.to_review() >= n


def expected_bytes(engine, path: Path, final_forms: dict[tuple[int, int], str]) -> bytes:
    """What the saved file must be: the core's own casing plus the human's changes."""
    doc = load(path)
    apply_casing(doc, case_document(engine, doc, Mode.RESTORE, punctuate="never"))
    for (cue, word_index), form in final_forms.items():
        w = doc.cues[cue].words()[word_index]
        doc.recase(cue, [(w.start, w.end, form)])
    return doc.to_bytes()


def test_review_by_keyboard_then_save(qtbot, make_window, engines, sample):
    original = sample.read_bytes()
    window = make_window()
    open_and_wait(qtbot, window, sample)
    state, doc = window.session.state, window.session.doc
    ensure_words_to_review(qtbot, window)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)

    # N: jump to the first word to review
    qtbot.keyClick(window.view, Qt.Key_N)
    first = state.current
    assert first == state.next_to_review(None) and first is not None
    word = state.word(first)
    old_form = word.form
    engine = engines.get()
    new_tag = next(t for t in (Tag.U, Tag.L, Tag.T) if engine.form(word.form, t) != old_form)
    new_form = engine.form(word.form, new_tag)

    # a letter key sets the tag, and moves on to the next word to review
    qtbot.keyClick(window.view, TAG_KEYS[new_tag])
    assert word.form == new_form and word.status is Status.CHANGED
    assert doc.cues[first[0]].text[word.start:word.end] == new_form
    assert state.current != first

    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)  # undo
    assert word.form == old_form and word.status is Status.UNTOUCHED
    assert doc.cues[first[0]].text[word.start:word.end] == old_form
    assert state.current == first
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)  # redo
    assert word.form == new_form and word.status is Status.CHANGED

    # N, then Ctrl+Enter: accept the rest of that word's cue
    qtbot.keyClick(window.view, Qt.Key_N)
    second = state.current
    assert second is not None and second != first
    cue = second[0]
    to_accept = [w for w in state.cues[cue] if w.needs_review(state.threshold)]
    assert to_accept
    qtbot.keyClick(window.view, Qt.Key_Return, Qt.ControlModifier)
    assert all(w.status is Status.ACCEPTED for w in to_accept)
    left = state.to_review()
    assert f"{left} to review" in window.status.count_label.text()

    qtbot.keyClick(window.view, Qt.Key_S, Qt.ControlModifier)  # save
    assert window.review.undo_stack.isClean()
    saved = sample.read_bytes()
    assert saved == expected_bytes(engine, sample.with_name("sample.srt.bak"), {(first[0], word.word_index): new_form})
    assert sample.with_name("sample.srt.bak").read_bytes() == original

    records = read_records(log_path_for(sample))
    assert [r["action"] for r in records] == \
        ["changed_tag", "undo", "changed_tag"] + ["accepted"] * len(to_accept) + ["saved"]
    ch = records[0]
    assert (ch["cue_index"], ch["word_index"], ch["input"], ch["final"], ch["proposed"]) == \
        (first[0], word.word_index, word.input, new_form, old_form)
    assert ch["model_tag"] == word.model_tag.value and set(ch["model_probs"]) == {t.value for t in TAGS}
    assert abs(sum(ch["model_probs"].values()) - 1) < 1e-3
    assert ch["model_version"] == engine.info.version and ch["model_sha256"] == engine.info.sha256
    assert ch["file"] == str(sample.resolve()) and ch["schema"] == 5 and ch["time"]
    assert records[1]["undoes"] == [records[0]["seq"]]
    assert [(r["cue_index"], r["word_index"], r["input"], r["final"]) for r in records[3:-1]] == \
        [(cue, w.word_index, w.input, w.form) for w in to_accept]
    assert records[-1]["saved_to"] == str(sample.resolve())
    assert not autosave.snapshot_path_for(sample).exists()


def test_click_word_shows_alternatives(qtbot, make_window, sample):
    window = make_window()
    open_and_wait(qtbot, window, sample)
    window.view.scrollToTop()
    rect = window.view.word_rect(0, 0)
    assert rect is not None
    qtbot.mouseClick(window.view.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.session.state.current == (0, 0)
    menu = window.decisions.alternatives_menu
    assert menu is not None
    w = window.session.state.word((0, 0))
    labels = [a.text() for a in menu.actions() if a.data()]
    # "I": Mixed writes it as Title does, and is not offered twice (issue #57)
    assert len(labels) == 3 and all("%" in s for s in labels)
    assert "M" not in [a.data() for a in menu.actions()]
    # ranked by probability, best first
    assert [a.data() for a in menu.actions() if a.data()] == [t.value for t, _ in w.alternatives() if t.value != "M"]
    upper = next(a for a in menu.actions() if a.data() == "U")
    upper.trigger()
    assert w.form == w.form.upper() and window.session.doc.cues[0].text.startswith(w.form)
    menu.close()


def test_cue_text_is_plain_text_and_loads_nothing(qtbot, make_window, tmp_path):
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *a):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/x.png"
        hostile = f'<img src="{url}"> <b>bold</b> &lt;b&gt; text'
        p = tmp_path / "hostile.srt"
        p.write_text(f"1\n00:00:01,000 --> 00:00:02,000\n{hostile}\n", encoding="utf-8")
        window = make_window()
        window.settings.punctuate = "never"  # the text as written but for its letter case: no restored marks
        open_and_wait(qtbot, window, p)
        window.session.state.current = (0, 0)
        window.status.update()
        window.view.grab()  # paint everything
        window.grab()
        qtbot.wait(300)
        assert hits == []
        # painted as the characters they are: the tag is a literal grey run, not an image
        view = window.view
        index = view.cue_model.index(0, COL_TEXT)
        lay = view.delegate.layout(0, QRect(0, 0, 4000, 100))  # room for the whole line
        runs = [r for line in lay.lines for r in line.runs]
        assert any(r.kind == "markup" and r.text == f'<img src="{url}">' for r in runs)
        assert view.cue_model.data(index).lower() == hostile.lower()  # only letter case may differ
        assert view.cue_model.data(index, Qt.ToolTipRole) is None
        for label in window.findChildren(QLabel):
            assert label.textFormat() == Qt.PlainText or "<" not in label.text()
    finally:
        server.shutdown()


def test_drop_two_files_and_a_folder_runs_a_batch(qtbot, make_window, tmp_path):
    src = tmp_path / "in"
    folder = src / "season"
    folder.mkdir(parents=True)
    a = src / "a.srt"
    a.write_bytes((DATA / "sample.srt").read_bytes())
    b = src / "b.vtt"
    b.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello from paris, said john.\n", encoding="utf-8")
    (folder / "c.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nthe bbc in london\n", encoding="utf-8")
    (folder / "broken.srt").write_bytes(b"\x00\x01\x02 not subtitles \xff\xfe")
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}

    window = make_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(x)) for x in (a, b, folder)])
    # QApplication filters drop events outside a real drag session, so the
    # events go through the window's own event() dispatch.
    enter = QDragEnterEvent(QPoint(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    window.event(enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(window.batch_opened) as opened:
        window.event(event)
    dialog = opened.args[0]
    assert len(dialog.inputs) == 4
    out = tmp_path / "out"
    dialog.out_edit.setText(str(out))
    dialog.format_combo.setCurrentIndex(2)  # all to WebVTT
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000) as done:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    result = done.args[0]
    assert result is not None and not result.cancelled
    assert sorted(p.name for p in out.iterdir()) == ["a.vtt", "b.vtt", "c.vtt"]
    assert (out / "c.vtt").read_text(encoding="utf-8").startswith("WEBVTT")
    assert [bar.value() for bar in dialog.bars] == [100] * 4
    assert dialog.overall.value() == dialog.overall.maximum()
    report = dialog.report.toPlainText()
    assert "3 converted, 1 failed" in report
    assert "FAILED" in report and "broken.srt" in report
    # originals are never touched
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before
    dialog.close()


def test_cancel_long_casing_leaves_the_app_usable(qtbot, make_window, sample, tmp_path):
    film = long_srt(tmp_path / "film.srt")
    window = make_window()
    open_and_wait(qtbot, window, sample)
    previous = window.session
    window.opening.open_file(film)
    task = window.review.task
    wait_for_emission(qtbot, task.signals.progress, timeout=120_000)
    assert window.view.cue_model.rowCount() == 1500  # the cues show before casing ends
    assert window.status.cancel_button.isVisible()
    with qtbot.waitSignal(window.review.casing_cancelled, timeout=60_000):
        qtbot.mouseClick(window.status.cancel_button, Qt.LeftButton)
    assert not window.review.busy and window.session is previous
    assert window.view.cue_model.rowCount() == len(previous.doc.cues)
    assert window.menus.act_next.isEnabled() and not window.status.cancel_button.isVisible()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    assert window.session.state.current is not None
    open_and_wait(qtbot, window, sample)  # and it still opens files


def test_restore_after_crash(qtbot, make_window, sample, engines):
    crashed = make_window()
    open_and_wait(qtbot, crashed, sample)
    ensure_words_to_review(qtbot, crashed)
    crashed.view.setFocus()
    qtbot.keyClick(crashed.view, Qt.Key_N)
    qtbot.keyClick(crashed.view, Qt.Key_U)
    qtbot.keyClick(crashed.view, Qt.Key_Return)
    crashed.cue_editing.edit_cue_text(5, "we watched STAR WARS with dr. jones in london!")
    snap = crashed.autosaving.save_now(wait=True)
    assert snap is not None and snap.exists()
    log = log_path_for(sample)
    n_records = len(read_records(log))
    expected_doc = crashed.session.doc.to_bytes()
    expected_state = [[(w.form, w.status) for w in c] for c in crashed.session.state.cues]
    # The "crash": the window is never closed, so nothing cleans up the snapshot.

    window = make_window()
    asked = []
    window.ask = lambda title, *a: (asked.append(title), QMessageBox.Yes)[1]
    with qtbot.waitSignal(window.review.casing_finished, timeout=180_000):  # the opened file is cased again
        assert window.recovery.check_recovery()
    assert asked == ["Restore unsaved review"]
    assert window.session.doc.to_bytes() == expected_doc
    assert [[(w.form, w.status) for w in c] for c in window.session.state.cues] == expected_state
    assert window.review.is_modified() and window.windowTitle().startswith("*")
    # review goes on, into the same edit log
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_Return)
    assert len(read_records(log)) == n_records + 1
    assert window.saving.save()
    assert sample.read_bytes() == window.session.doc.to_bytes()
    assert not snap.exists()
    crashed.ask = lambda *a: QMessageBox.Discard


def test_shortcuts_help_about_and_settings(qtbot, make_window, engines, sample):
    from subcase.gui.help import shortcut_rows
    from subcase.gui.settings import Settings

    window = make_window()
    rows = shortcut_rows(window.menuBar())
    names = {r[1]: r[2] for r in rows}
    for action in ("Next Word to Review", "Previous Word to Review", "Set lower", "Set Title", "Set UPPER",
                   "Set Mixed", "Cycle Tag", "Accept Word", "Accept Rest of Cue", "Edit Cue Text…", "Undo", "Redo",
                   "Find…", "Save", "Save As…", "Open…", "Keyboard Shortcuts"):
        assert names.get(action), action
    dialog = window.view_options.show_shortcuts()
    assert dialog.table.rowCount() == len(rows)
    dialog.close()
    about = window.view_options.about_text()
    import subcase
    assert subcase.__version__ in about and engines.get().info.sha256 in about

    open_and_wait(qtbot, window, sample)
    assert window.threshold.spin.value() == pytest.approx(engines.get().info.review_threshold)
    window.threshold.spin.setValue(0.5)
    window.view_options.apply_font_size(14, save=True)
    window.view_options.set_theme("dark")
    window.find_bar.find_next("eiffel")
    assert window.view.currentIndex().row() == 2
    window.close()
    s = Settings()
    assert (s.threshold, s.font_size, s.theme) == (0.5, 14, "dark")
    assert s.recent_files[0] == str(sample.resolve())
    assert s.layout()[0] is not None
    window.view_options.set_theme("light")


@pytest.mark.model
def test_smoke_test_entry_point(capsys, sample):
    from subcase.gui.app import run_gui

    assert run_gui([str(sample), "--smoke-test"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("smoke-test: loaded 6 cues, cased ")


def test_save_as_switches_format(qtbot, make_window, sample, tmp_path):
    window = make_window()
    open_and_change_a_word(qtbot, window, sample)
    out = tmp_path / "converted.vtt"
    assert window.saving.save_to(out)
    data = out.read_text(encoding="utf-8")
    assert data.startswith("WEBVTT") and "00:00:01.000 --> 00:00:03.500" in data
    assert window.session.doc.format == "vtt" and not window.review.is_modified()
    assert sample.read_bytes() == (DATA / "sample.srt").read_bytes()  # the original is untouched
    state = window.session.state
    for c, cue in enumerate(window.session.doc.cues):  # word offsets still point at the words
        for w in state.cues[c]:
            assert cue.text[w.start:w.end] == w.form
    assert read_records(log_path_for(sample))[-1]["saved_format"] == "vtt"


def test_one_key_refreshes_the_views_once(qtbot, make_window, sample):
    """Issue #57: a key's edit and the move after it reach the views as one change of the open review (the
    window used to repaint two or three times per key)."""
    window = make_window()
    open_and_wait(qtbot, window, sample)
    ensure_words_to_review(qtbot, window, n=3)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    qtbot.keyClick(window.view, Qt.Key_N)
    state = window.session.state
    before = state.current
    changes: list[tuple[int, ...]] = []
    window.review.changed.connect(changes.append)
    qtbot.keyClick(window.view, Qt.Key_U)  # UPPER, then on to the next word to review
    assert state.word(before).form == state.word(before).form.upper() and state.current != before
    assert len(changes) == 1 and {before[0], state.current[0]} <= set(changes[0]), changes
    assert window.view.currentIndex().row() == state.current[0]  # the view followed
    assert window.status.word_label.text().startswith(f"Cue {state.current[0] + 1}:")
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)  # an undo is one change too
    assert len(changes) == 2 and before[0] in changes[1]
