"""Issue #54, bounded work: the editor refuses a file over the size limit at once, unread, as ``convert``
does by default."""

from __future__ import annotations

from subcase.subtitles.files import MAX_SIZE_MB


def test_a_file_over_the_limit_is_refused_at_once(qtbot, make_window, tmp_path):
    big = tmp_path / "big.srt"
    cue = "1\n00:00:01,000 --> 00:00:02,000\n" + "we met john smith in new york " * 4000 + "\n\n"
    big.write_text(cue * (int(MAX_SIZE_MB * 1e6) // len(cue) + 1), encoding="utf-8")
    window = make_window()
    with qtbot.waitSignal(window.casing_failed, timeout=5000) as blocker:
        assert window.opening.open_file(big) is False
    assert blocker.args[0].startswith(f"{big}: is ") and f"over the limit of {MAX_SIZE_MB:g} MB" in blocker.args[0]
    assert window.task is None and window.doc is None
