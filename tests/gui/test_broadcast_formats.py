"""An SCC and an EBU STL file in the window: opened, cased in capitals mode by auto, saved over their own codes."""

from __future__ import annotations

import shutil
from pathlib import Path

from subcase.subtitles import loads

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

BROADCAST = Path(__file__).resolve().parents[1] / "fixtures" / "broadcast"


def test_all_caps_scc_opens_cased_and_saves_only_letters(qtbot, make_window, tmp_path):
    src = tmp_path / "news.scc"
    shutil.copyfile(BROADCAST / "ttconv" / "mix-rows-roll-up.scc", src)
    before = src.read_bytes()
    window = make_window()
    open_and_wait(qtbot, window, src)
    doc = window.session.doc
    assert doc.format == "scc"
    assert doc.cues[1].text.startswith("I'm ")  # the capitals recased on opening
    assert window.saving.save()
    after = src.read_bytes()
    assert len(after) == len(before) and after != before
    saved = loads(after, "news.scc")
    assert [c.text for c in saved.cues] == [c.text for c in doc.cues]
    assert [c.text.lower() for c in saved.cues] == [c.text.lower() for c in loads(before, "news.scc").cues]


def test_stl_opens_and_saves_its_header_and_fields(qtbot, make_window, tmp_path):
    src = tmp_path / "multi.stl"
    shutil.copyfile(BROADCAST / "ttconv" / "stl" / "sandflow" / "multi_tti_subtitle.stl", src)
    before = src.read_bytes()
    window = make_window()
    open_and_wait(qtbot, window, src)
    assert window.session.doc.format == "stl"
    assert window.saving.save()
    after = src.read_bytes()
    assert after[:1024] == before[:1024] and len(after) == len(before)
    assert [c.text for c in loads(after, "m.stl").cues] == [c.text for c in window.session.doc.cues]
