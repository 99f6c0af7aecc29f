"""Issue #58: a TTML file in the real editor: opened, cased, a word changed by keyboard, saved as TTML
with only letters changed and no reference-parser warning."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from .conftest import needs_model, open_and_change_a_word

pytestmark = needs_model

TTML = Path(__file__).resolve().parents[1] / "fixtures" / "ttml"


def test_an_all_caps_ebu_tt_d_file_opens_and_saves_as_ttml(qtbot, make_window, tmp_path):
    path = tmp_path / "news.xml"
    shutil.copy(TTML / "ebu_tt_d_caps.xml", path)
    before = path.read_text(encoding="utf-8")
    window = make_window()
    open_and_change_a_word(qtbot, window, path, Qt.Key_Right)
    assert window.session.doc.format == "ttml"
    assert window.saving.save()
    after = path.read_text(encoding="utf-8")
    assert after == window.session.doc.render() and window.last_error == ""
    assert len(after) == len(before) and after != before  # (this test restores no marks)
    for a, b in zip(before, after):
        assert a == b or a.lower() == b.lower()
    assert "in the English Channel.</tt:span>" in after  # cased as the file opened
