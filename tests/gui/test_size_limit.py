"""Issue #54, bounded work: the editor opens a file over the command line's default size limit only if the
user says so (casing's memory grows with the size), and refuses it, unread, otherwise."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from subcase.subtitles.files import MAX_SIZE_MB


def _over_the_limit(path):
    # Over the limit in bytes, a few words in all: padding spaces cost no model time, so opening it is quick.
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nwe met john smith in new york" + " " * int(MAX_SIZE_MB * 1e6)
                    + "\n\n2\n00:00:03,000 --> 00:00:04,000\nthen we went home.\n", encoding="utf-8")
    return path


def test_a_file_over_the_limit_is_refused_unless_the_user_says_open(qtbot, make_window, tmp_path):
    big = _over_the_limit(tmp_path / "big.srt")
    window = make_window()
    asked = []
    window.ask = lambda title, text, buttons, default: asked.append((title, text, default)) or QMessageBox.Cancel
    with qtbot.waitSignal(window.review.casing_failed, timeout=5000) as blocker:
        assert window.opening.open_file(big) is False
    assert blocker.args[0].startswith(f"{big}: is ") and f"over the limit of {MAX_SIZE_MB:g} MB" in blocker.args[0]
    assert window.review.task is None and window.review.doc is None
    (title, text, default), = asked
    assert title == "Large file" and f"big.srt is {MAX_SIZE_MB:.1f} MB" in text and default == QMessageBox.Cancel


def test_a_file_over_the_limit_opens_when_the_user_says_so(qtbot, make_window, tmp_path):
    big = _over_the_limit(tmp_path / "big.srt")
    window = make_window()
    window.ask = lambda *a: QMessageBox.Open
    with qtbot.waitSignal(window.review.casing_finished, timeout=60000):
        assert window.opening.open_file(big) is True
    assert window.review.doc is not None and window.review.doc.path == big
    assert window.review.doc.cues[1].text == "Then we went home."
